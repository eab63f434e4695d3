"""A store's own rule, kept by one writer and broken by another (tests/servers/rule_desk.py: a halted
ticket takes no hours; the buggy edit_ticket stores a patch it then refuses), with the laws machine on.

The machine's draws bring `halted` with hours to the opening writer now and then, and it refuses
them; they seldom bring both to edit_ticket, whose updates may all come before the first refusal
(storegen's refusal-side-effect seeds 109 and 191 were missed so). What one writer was refused for is
now sent through every other updater of the same fields: at once on the example's newest record, and
on that updater's next update. Law 2 then finds the buggy edit keeping what it refused, from shown
facts, and its reproduction replays on the buggy desk only, no call of it can go; the correct desk
draws nothing.
"""

from __future__ import annotations

from dataclasses import replace

from helpers import ROOT, SERVE, engine, grading, hunting, machine_finding, machine_findings, summary
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Reproduction
from hypothesis_mcp.stateful.config import ProbeConfig

_reports: dict[bool, Report] = {}


def desk(bug: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/rule_desk.py"), *(["--bug"] if bug else [])]


def graded(bug: bool) -> Report:
    if bug not in _reports:
        _reports[bug] = engine(desk(bug), hunting() if bug else grading(), probes=True, allow_writes=True,
                               allow_deletes=True, probe_config=ProbeConfig(laws=True))
    return _reports[bug]


def test_the_correct_desk_draws_no_finding_of_the_machine() -> None:
    found = machine_findings(graded(False))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]


def test_an_edit_that_keeps_what_it_refused_is_found_and_replays_on_the_buggy_desk_only() -> None:
    report = graded(True)
    result = machine_finding(report, "edit_ticket", "probe-refusal-changed-state")
    assert result.confidence == "high" and result.status == "fail", summary(report)
    assert all(f["evidence"] == "shown" for f in result.details["rests_on"]), result.details["rests_on"]
    assert result.reproduction is not None and result.reproduction.fresh_server
    sent = [c.arguments for c in result.reproduction.calls if c.tool == "edit_ticket"]
    assert any(a.get("level") == "halted" and a.get("hours") for a in sent), sent
    assert replay(result, parse_target(desk(True))).still_fails
    assert not replay(result, parse_target(desk(False))).still_fails
    calls = result.reproduction.calls
    for index in range(len(calls) - 1):  # the last is the read the law was judged on
        shorter = Reproduction(calls[:index] + calls[index + 1:], fresh_server=True)
        assert not replay(replace(result, reproduction=shorter), parse_target(desk(True))).still_fails, (index, calls)
