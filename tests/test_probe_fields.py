"""Every field read back as written, of every type (tests/servers/typed_fields.py and
gear_catalog.py): a boolean false stored as true, a decimal cut to an integer, a nested object's
field dropped, an enum member mapped to another, an array cut to five items, and fields a creation
drops while an update keeps them.

Each server holds three stores and `--bug` switches on the bug of each, so one grading run (with
--allow-writes and no probe config) must find all three, each high on facts its reproduction shows;
each reproduction replays on the buggy server, not on its twin, and loses its failure without any
one of its calls. The twins draw no finding. Four grading runs in all.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from helpers import PYTHON, ROOT, engine, grading, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Reproduction, Result

SERVERS = {
    "typed_fields": ("set_reminder", "save_reading", "add_contact"),
    "gear_catalog": ("createPart", "createPlaylist", "saveTicket"),
}
_reports: dict[tuple[str, bool], Report] = {}


def server(name: str, bug: bool = False) -> list[str]:
    return [PYTHON, str(ROOT / f"tests/servers/{name}.py"), *(["--bug"] if bug else [])]


def run(name: str, bug: bool = False) -> Report:
    if (name, bug) not in _reports:
        _reports[name, bug] = engine(server(name, bug), grading(), probes=True, allow_writes=True)
    return _reports[name, bug]


def changed(name: str, tool: str) -> list[Result]:
    return [r for r in results(run(name, bug=True), kind="probe", rule="probe-value-changed", tool=tool)
            if r.status == "fail"]


@pytest.mark.parametrize("name", SERVERS)
def test_the_correct_twin_draws_no_probe_finding(name: str) -> None:
    found = [r for r in results(run(name), kind="probe") if r.status in ("fail", "warn")]
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
