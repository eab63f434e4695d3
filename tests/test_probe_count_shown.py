"""A number is a count only where a listing showed as many records at two sizes
(tests/servers/pin_board.py).

The board's listing shows a change number that rises by one with each new pin, as a count would,
and with each replacing write too. It equals no listing's size, so it is a count by guess: the
correct twin draws nothing above low on it. The buggy twin's `pinned:` line, which equalled the
listing's rows at two sizes, counts a replaced pin twice: found high, on shown facts, replayed only
on the buggy board. Two grading runs.
"""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, engine, grading, results
from hypothesis_mcp.connection import Outcome, parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report
from hypothesis_mcp.rules.answers import numbers_in


def server(bug: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/pin_board.py"), *(["--bug", "counts-changes"] if bug else [])]


@pytest.fixture(scope="module")
def reports() -> dict[bool, Report]:
    return {bug: engine(server(bug), grading(), probes=True, allow_writes=True) for bug in (False, True)}


def test_a_number_that_rises_with_writes_but_counts_nothing_draws_nothing_above_low(
        reports: dict[bool, Report]) -> None:
    drawn = [r for r in results(reports[False], kind="probe") if r.status in ("fail", "warn")]
    assert all(r.confidence == "low" for r in drawn), [(r.rule, r.confidence, r.message) for r in drawn]
    for finding in drawn:
        assert any(f["evidence"] != "shown" for f in finding.details["rests_on"]), finding.details


def test_a_count_the_listing_showed_is_found_wrong_at_high(reports: dict[bool, Report]) -> None:
    hits = [r for r in results(reports[True], kind="probe", rule="probe-count-wrong")
            if r.status == "fail" and r.confidence == "high"]
    assert hits, [(r.rule, r.status, r.confidence, r.message) for r in results(reports[True], kind="probe")]
    finding = hits[0]
    assert finding.tool == "view-board" and finding.details["path"] == "'pinned: #'", finding.message
    assert all(f["evidence"] == "shown" for f in finding.details["rests_on"]), finding.details["rests_on"]
    assert "equalled the records a listing showed" in finding.details["rests_on"][0]["what"]
    assert replay(finding, parse_target(server(True))).still_fails
    assert not replay(finding, parse_target(server(False))).still_fails


def test_a_number_inside_a_row_moves_no_other_number_of_the_text() -> None:
    """A text's numbers are placed by their line: a record's value holding a number (a table row)
    leaves the place of the total after it as it was."""
    plain = numbers_in(text("| sku | owner |\n|---|---|\n| a | b |\n\ntotal: 1"))
    digits = numbers_in(text("| sku | owner |\n|---|---|\n| a | 06 |\n\ntotal: 1"))
    assert plain == {"'total: #'": 1.0}
    assert digits["'total: #'"] == 1.0 and len(digits) == 2


def text(body: str) -> Outcome:
    return Outcome(kind="result", content=[{"type": "text", "text": body}])
