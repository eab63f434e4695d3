"""Write tools of one shape after the first (tests/servers/alike_stores.py: three stores of one shape):
their calibration and examples run on one warm server, not a fresh one each, and a bug of the last
store is still found, as surely as when every example ran fresh, with a reproduction that a fresh
server shows (`replay`). The twin draws no finding, and its round trips say where their examples ran."""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, engine, grading, one, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report

FOUND = {"evict-4": ("probe-data-lost", "high"), "keep-first": ("probe-silent-noop", "low")}
"""Each bug's rule and confidence, as with a fresh server per example (the commit before this file):
calibration shows put_value_3 keeping the first value, so that a second write replaces it rests on a
guess."""
_reports: dict[str | None, Report] = {}


def alike_stores(bug: str | None = None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/alike_stores.py"), *(["--bug", bug] if bug else [])]


def _run(bug: str | None) -> Report:
    if bug not in _reports:
        _reports[bug] = engine(alike_stores(bug), grading(), probes=True, allow_writes=True)
    return _reports[bug]


def test_the_twin_explores_the_later_tools_of_a_shape_on_one_warm_server() -> None:
    report = _run(None)
    found = [r for r in results(report, kind="probe") if r.status in ("fail", "warn")]
    assert not found, [(r.tool, r.rule, r.message) for r in found]
    passed = {r.tool: r.message for r in results(report, kind="probe", check="round-trip", status="pass")}
    assert set(passed) == {"put_value_1", "put_value_2", "put_value_3"}
    assert "fresh-process example(s)" in passed["put_value_1"]
    assert all("warm-server example(s)" in passed[t] for t in ("put_value_2", "put_value_3"))
    assert any(n.startswith("put_value_2, put_value_3: calibrated and explored on one warm server")
               for n in report.notes)
    # One fresh server per example of put_value_1 (8), none per example of the two others: a fresh
    # server for each of theirs, and for each calibration, would add 2 * (8 + 1).
    assert report.stats.server_starts <= 24, report.stats.server_starts


@pytest.mark.parametrize("bug", sorted(FOUND))
def test_a_bug_of_a_later_tool_of_the_shape_is_found_and_replayed_fresh(bug: str) -> None:
    report = _run(bug)
    rule, confidence = FOUND[bug]
    status = "fail" if confidence == "high" else "warn"
    finding = one(report, kind="probe", tool="put_value_3", rule=rule, status=status)
    assert finding.confidence == confidence
    assert finding.reproduction is not None and finding.reproduction.fresh_server
    done = replay(finding, parse_target(alike_stores(bug)))
    assert done.still_fails, f"{done.verdict}\n{[(c.tool, c.arguments) for c, _ in done.steps]}"
    others = [r for r in results(report, kind="probe") if r.status in ("fail", "warn") and r.tool != "put_value_3"]
    assert not others, [(r.tool, r.rule, r.message) for r in others]
