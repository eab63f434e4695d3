"""Every field read back as written, of every type (tests/servers/typed_fields.py and
gear_catalog.py): a boolean false stored as true, a decimal cut to an integer, a nested object's
field dropped, an enum member mapped to another, an array cut to five items, and fields a creation
drops while an update keeps them.

Each server holds three stores and `--bug` switches on the bug of each, so one grading run (with
--allow-writes and no probe config) must find all three, each high on facts its reproduction shows;
each reproduction replays on the buggy server, not on its twin, and loses its failure without any
one of its calls. The twins draw no finding (typed_fields' twin also holds a correct store whose
normalisation must be a warning). Four grading runs in all: the buggy servers' on `helpers.hunting`
(two examples per effect machine instead of eight: each finds the same three losses with reproductions
as short, in about a fifth less CPU, 59 s instead of 79 for typed_fields and 64 instead of 78 for
gear_catalog), the twins' on the full grading profile, since eight clean examples are what a twin asserts.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from helpers import ROOT, SERVE, engine, grading, hunting, machine_findings, results
from hypothesis_mcp.connection import Outcome, parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Reproduction, Result
from hypothesis_mcp.rules.expectations import from_dict
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.fidelity import changes, dropped

SERVERS = {
    "typed_fields": ("set_reminder", "save_reading", "add_contact"),
    "gear_catalog": ("createPart", "createPlaylist", "saveTicket"),
}
LAWS = ("set_reminder", "add_contact")
"""What the laws machine alone (`laws: only`) draws of typed_fields' bugs: a false stored as true, a
nested object's field dropped (save_reading's store has no listing, so no experiment shows its roles)."""
_reports: dict[tuple[str, bool], Report] = {}
_alone: dict[bool, Report] = {}


def server(name: str, bug: bool = False) -> list[str]:
    """A server, its bugs on or off; typed_fields' twin also holds the alarms store (correct, with a
    normalisation a warning must name), so that one run judges both."""
    extra = ["--bug"] if bug else ["--alarms"] if name == "typed_fields" else []
    return [*SERVE, str(ROOT / f"tests/servers/{name}.py"), *extra]


def run(name: str, bug: bool = False) -> Report:
    if (name, bug) not in _reports:
        _reports[name, bug] = engine(server(name, bug), hunting() if bug else grading(), probes=True,
                                     allow_writes=True)
    return _reports[name, bug]


def changed(name: str, tool: str) -> list[Result]:
    return [r for r in results(run(name, bug=True), kind="probe", rule="probe-value-changed", tool=tool)
            if r.status == "fail"]


@pytest.mark.parametrize("name", SERVERS)
def test_the_correct_twin_draws_no_probe_finding(name: str) -> None:
    found = [r for r in results(run(name), kind="probe") if r.status in ("fail", "warn") and r.tool != "set_alarm"]
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]


@pytest.mark.parametrize(("name", "tool"), [(n, t) for n, tools in SERVERS.items() for t in tools])
def test_a_value_lost_is_found_high_and_replays(name: str, tool: str) -> None:
    found = changed(name, tool)
    assert found, [(r.tool, r.rule, r.status, r.message) for r in results(run(name, bug=True), kind="probe")]
    finding = found[0]
    assert finding.confidence == "high"
    assert all(f["evidence"] == "shown" for f in finding.details["rests_on"]), finding.details["rests_on"]
    assert finding.reproduction is not None and finding.reproduction.fresh_server
    assert replay(finding, parse_target(server(name, bug=True))).still_fails
    assert not replay(finding, parse_target(server(name))).still_fails


@pytest.mark.parametrize(("name", "tool"), [(n, t) for n, tools in SERVERS.items() for t in tools])
def test_no_call_of_the_reproduction_can_go(name: str, tool: str) -> None:
    finding = changed(name, tool)[0]
    assert finding.reproduction is not None
    calls = finding.reproduction.calls
    target = parse_target(server(name, bug=True))
    for index in range(len(calls)):
        shorter = Reproduction(calls[:index] + calls[index + 1:], fresh_server=True)
        assert not replay(replace(finding, reproduction=shorter), target).still_fails, (index, calls)


def _json_read(payload: Any) -> Outcome:
    return Outcome(kind="result", content=[{"type": "text", "text": json.dumps(payload)}])


WRITTEN = {"title": "hm00000001-title", "done": False, "grade": "D", "weight": 2.375, "tracks": ["a", "b", "c"],
           "where": {"city": "hm00000001-city", "floor": 3}, "labels": ["x", "y"]}
ENUMS = {"grade": ["A", "B", "C", "D"]}
TOKENS = {"hm00000001-title", "hm00000001-city"}


def test_every_type_is_compared_and_a_normalisation_stays_a_warning() -> None:
    kept = {**WRITTEN, "labels": ["y", "x"], "id": 9, "where": {**WRITTEN["where"], "zip": None}}
    assert not changes(WRITTEN, _json_read([kept]), TOKENS, ENUMS)
    lost = {**WRITTEN, "done": True, "grade": "C", "weight": 2, "tracks": ["a"], "where": {"city": "hm00000001-city"}}
    found = {c.field: c for c in changes(WRITTEN, _json_read([lost]), TOKENS, ENUMS)}
    assert set(found) == {"done", "grade", "weight", "tracks", "where"} and all(c.loss for c in found.values())
    assert "'where.floor' left out" in found["where"].message
    spelt = {**WRITTEN, "done": "false", "weight": "2.375", "grade": "d"}
    assert [c.loss for c in changes(WRITTEN, _json_read([spelt]), TOKENS, ENUMS)] == [False, False, False]


def test_a_field_left_out_beside_a_record_that_shows_it_is_lost() -> None:
    mine = {"ref": "hm00000001-ref", "summary": "hm00000001-summary"}
    other = {"ref": "hm00000002-ref", "summary": "hm00000002-summary", "assignee": "hm00000002-assignee", "urgent": 0}
    written = {**mine, "assignee": "hm00000001-assignee", "urgent": False}
    answer = _json_read({"data": [mine, other]})
    found = dropped(written, answer, ["hm00000001-assignee", "hm00000001-summary"], ["hm00000002-summary"])
    assert [(c.field, c.loss, c.token) for c in found] == [("assignee", True, "hm00000001-summary"),
                                                           ("urgent", False, "hm00000001-summary")]
    assert not dropped(written, _json_read({"data": [mine]}), ["hm00000001-summary"], ["hm00000002-summary"])
    expect = from_dict({"field_kept": "assignee", "marker": "hm00000001-summary", "witness": "hm00000002-summary"})
    assert not expect.holds(answer)
    assert expect.holds(_json_read({"data": [{**mine, "assignee": "x"}, other]}))


def test_a_value_the_store_reads_as_unset_is_a_warning_not_a_loss() -> None:
    """set_alarm stores a snooze of zero or less as null, as it stores an alarm without one:
    -4 read back as null beside an alarm showing 3 is a normalisation, said as such, never a high
    loss (agent-toolkit-mcp-server's timer_set does the same with recurring_seconds)."""
    report = run("typed_fields")
    found = [r for r in results(report, kind="probe", tool="set_alarm") if r.status in ("fail", "warn")]
    assert not [r for r in found if r.status == "fail"], [r.message for r in found]
    snoozes = [r for r in found if r.rule == "probe-value-changed" and r.details.get("field") == "snooze"]
    assert snoozes, [(r.tool, r.rule, r.message) for r in results(report, kind="probe")]
    lost = [r for r in snoozes if isinstance(r.details["written"], int) and r.details["written"] < 0]
    assert lost and all("took the value for unset" in r.message and r.confidence == "medium" for r in lost), snoozes


def alone(bug: bool) -> Report:
    if bug not in _alone:
        _alone[bug] = engine(server("typed_fields", bug), grading(), probes=True, allow_writes=True,
                             probe_config=ProbeConfig(laws="only"))
    return _alone[bug]


def test_the_laws_machine_alone_leaves_the_correct_twin_alone() -> None:
    bad = [r for r in results(alone(False), kind="probe") if r.status in ("fail", "warn")
           and r.confidence in ("high", "medium")]
    assert not bad, [(r.tool, r.rule, r.confidence, r.message) for r in bad]


@pytest.mark.parametrize("tool", LAWS)
def test_the_laws_machine_alone_finds_each_value_lost_and_it_replays(tool: str) -> None:
    hits = [r for r in machine_findings(alone(True)) if (r.tool, r.rule) == (tool, "probe-value-changed")]
    assert hits, [(r.tool, r.rule, r.message) for r in machine_findings(alone(True))]
    finding = hits[0]
    assert finding.confidence == "high" and finding.reproduction is not None and finding.reproduction.fresh_server
    assert replay(finding, parse_target(server("typed_fields", bug=True))).still_fails
    assert not replay(finding, parse_target(server("typed_fields"))).still_fails
