"""The grade orders servers by health: tests/servers/health_ladder.py at seven levels, from healthy to
broken everywhere, graded under the grading profile (docs/scoring.md)."""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, shared_run, summary
from hypothesis_mcp.results import Report
from hypothesis_mcp.scorecard import GRADES

LADDER = (None, "not-found-success", "internal-refusals", "writes-refused", "half-broken", "all-json-errors",
          "all-is-error")
PARTLY_HEALTHY = (None, "not-found-success", "internal-refusals", "half-broken")
BROKEN_EVERYWHERE = ("all-json-errors", "all-is-error")
LETTERS = [letter for letter, _ in GRADES]


def graded(bug: str | None) -> Report:
    return shared_run([*SERVE, str(ROOT / "tests/servers/health_ladder.py"), *(["--bug", bug] if bug else [])])


@pytest.fixture(scope="module")
def ladder() -> dict[str | None, Report]:
    return {bug: graded(bug) for bug in LADDER}


def test_grades_follow_health(ladder: dict[str | None, Report]) -> None:
    shown = [(bug, ladder[bug].grade, ladder[bug].score) for bug in LADDER]
    ranks = [LETTERS.index(ladder[bug].grade) for bug in LADDER]
    assert ranks == sorted(ranks), shown
    partly_healthy = [ladder[bug].score for bug in PARTLY_HEALTHY]
    assert partly_healthy == sorted(partly_healthy, reverse=True) and len(set(partly_healthy)) == 4, shown
    assert max(ladder[bug].score for bug in BROKEN_EVERYWHERE) < ladder["half-broken"].score, shown
    assert ladder[None].grade == "A", summary(ladder[None])


@pytest.mark.parametrize("bug", BROKEN_EVERYWHERE)
def test_a_server_whose_every_answer_is_a_refusal_or_an_error_grades_d_or_worse(
        ladder: dict[str | None, Report], bug: str) -> None:
    report = ladder[bug]
    assert report.grade in ("D", "F"), summary(report)
    assert report.subscores["exercised"] == 0.0


def test_the_share_of_tools_exercised_is_shown(ladder: dict[str | None, Report]) -> None:
    # get_item refuses the made-up skus it is asked for, as a correct server does, and serves the skus
    # add_item answered when searched again with them: all 4 tools exercised
    assert ladder[None].subscores["exercised"] == 100.0
    assert ladder["half-broken"].subscores["exercised"] == 75.0


def test_an_internal_error_refusing_invalid_input_is_one_smaller_fault_per_tool(
        ladder: dict[str | None, Report]) -> None:
    report = ladder["internal-refusals"]
    failed = [(r.check, r.tool, r.rule) for r in report.results if r.kind == "scenario" and r.status == "fail"]
    assert failed == [("edge", "add_item", "edge-internal-error")]
    assert report.subscores["edge"] == 87.5  # half the credit of a clean refusal for one tool of four
    assert ladder["half-broken"].score < report.score < ladder[None].score


def test_a_refusal_without_iserror_is_a_style_that_weighs_little(ladder: dict[str | None, Report]) -> None:
    """get_item's `{"error": ...}` with isError unset says it failed: a client that reads isError
    alone misses it, which costs less than refusing invalid input with an internal error."""
    one_tool = ladder["not-found-success"]
    every_tool = ladder["all-json-errors"]
    [found] = [r for r in one_tool.results if r.rule == "error-as-success"]
    assert (found.tool, found.confidence, [w["tool"] for w in found.details["where"]]) == (None, "low", ["get_item"])
    assert ladder["internal-refusals"].score < one_tool.score < ladder[None].score
    assert every_tool.score < ladder["all-is-error"].score


def test_a_server_whose_writes_were_never_seen_to_work_grades_c_at_best(ladder: dict[str | None, Report]) -> None:
    """add_item refuses every call: nothing the run saw is wrong, so the score stays high, but the
    grade cannot vouch for writes nobody saw work. The cap says what to do about it."""
    report = ladder["writes-refused"]
    assert not [r for r in report.results if r.status == "fail"], summary(report)
    assert (report.grade_cap.uncapped_grade, report.score, report.subscores["exercised"]) == ("A", 100.0, 50.0), \
        summary(report)
    assert (report.grade, report.grade_cap.capped) == ("C", True)
    assert report.grade_cap.reasons == ["not exercised: 1 of 1 write tools; pass --arg values"]
    assert ladder[None].grade_cap.reasons == [], "a healthy server's write was exercised"
