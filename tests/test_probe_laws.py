"""The laws machine (stateful/laws/): one state machine over the whole server, run on a warm server,
each broken law confirmed on fresh ones (tests/servers/parts_bin.py: a refused stock that still files
the part, a part cache a scrap does not clear, and the correct twin, whose relabel moves a part to a
new key: an update after which the old key finds nothing is a move, no lost record).

Each bug is found at high confidence on facts experiments showed; its reproduction replays on the
buggy bin from a fresh start and not on the twin, and no call of it can go. The twin draws no
finding of the machine.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from helpers import ROOT, SERVE, engine, grading, machine_finding, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Reproduction, Result
from hypothesis_mcp.stateful.config import ProbeConfig

FOUND = [("refusal", "stock", "probe-refusal-changed-state"), ("cache", "scrap", "probe-delete-kept")]
_reports: dict[str | None, Report] = {}


def bin_of(bug: str | None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/parts_bin.py"), *(["--bug", bug] if bug else [])]


def run(bug: str | None) -> Report:
    if bug not in _reports:
        _reports[bug] = engine(bin_of(bug), grading(), probes=True, allow_writes=True, allow_deletes=True,
                               probe_config=ProbeConfig(laws=True))
    return _reports[bug]


def finding(bug: str, tool: str, rule: str) -> Result:
    return machine_finding(run(bug), tool, rule)


def test_the_twin_draws_no_finding_of_the_machine() -> None:
    found = machine_findings(run(None))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]


@pytest.mark.parametrize(("bug", "tool", "rule"), FOUND)
def test_each_broken_law_is_found_and_replays_from_a_fresh_server(bug: str, tool: str, rule: str) -> None:
    result = finding(bug, tool, rule)
    assert result.confidence == "high" and result.status == "fail"
    assert all(f["evidence"] == "shown" for f in result.details["rests_on"]), result.details["rests_on"]
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert replay(result, parse_target(bin_of(bug))).still_fails
    assert not replay(result, parse_target(bin_of(None))).still_fails


@pytest.mark.parametrize(("bug", "tool", "rule"), FOUND)
def test_no_call_of_the_reproduction_can_go(bug: str, tool: str, rule: str) -> None:
    """Every call but those the law rests on (the record's write, the call of the tool it names,
    the judged read) is needed: without it a fresh replay passes."""
    result = finding(bug, tool, rule)
    assert result.reproduction is not None
    calls = result.reproduction.calls
    target = parse_target(bin_of(bug))
    for index in range(1, len(calls) - 1):
        if calls[index].tool == tool:
            continue
        shorter = Reproduction(calls[:index] + calls[index + 1:], fresh_server=True)
        assert not replay(replace(result, reproduction=shorter), target).still_fails, (index, calls)


def test_the_machine_runs_only_when_the_probe_config_asks() -> None:
    """Opt-in: without `laws: true` the same buggy bin draws no finding of the machine."""
    report = engine(bin_of("refusal"), grading(), probes=True, allow_writes=True, allow_deletes=True)
    assert not machine_findings(report)
    assert machine_findings(run("refusal"))
