"""A server whose every refusal takes one style with isError false is one cause: one low-confidence
warning for the server, naming the tools, and a grade a correct server keeps (tests/servers/
refusal_styles.py). A refusal member no fixed rule knows is learned from the answers to invalid
arguments, so those calls count as refused, never as accepted."""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, shared_run, summary
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report

RULE = "error-as-success"
STYLES = ("verdict", "success-false")


def nursery(bug: str | None = None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/refusal_styles.py"), *(["--bug", bug] if bug else [])]


def graded(bug: str | None = None) -> Report:
    return shared_run(nursery(bug), smoke=True, probes=True, allow_writes=True)


def findings(report: Report) -> list[tuple[str, str | None]]:
    return [(r.rule, r.tool) for r in report.results if r.status in ("fail", "warn") and r.kind != "lint"]


@pytest.mark.parametrize("style", STYLES)
def test_one_style_of_refusal_is_one_warning_about_the_server(style: str) -> None:
    report = graded(style)
    assert findings(report) == [(RULE, None)], summary(report)
    [found] = [r for r in report.results if r.rule == RULE]
    assert (found.status, found.confidence) == ("warn", "low")
    assert [w["tool"] for w in found.details["where"]] == ["sow", "bed", "beds"]
    assert "refusals are answered with isError false: clients read them as successes" in found.message
    assert "sow, bed, beds" in found.message
    # The refusals were read as refusals: invalid arguments refused, nothing lost, the grade a style costs.
    assert report.subscores["edge"] == 100.0 and report.grade == "A", summary(report)
    assert found.reproduction is not None
    assert replay(found, parse_target(nursery(style))).still_fails
    assert not replay(found, parse_target(nursery())).still_fails


def test_a_refusal_member_no_rule_knows_is_learned_from_answers_to_invalid_arguments() -> None:
    """Without --allow-writes no write calibration runs: the answers to invalid arguments show the shape."""
    report = shared_run(nursery("verdict"), smoke=True)
    assert findings(report) == [(RULE, None)], summary(report)
    assert report.subscores["edge"] == 100.0, summary(report)
    [found] = [r for r in report.results if r.rule == RULE]
    assert "'verdict' member is \"refused\", as in the refusals calibration saw" in found.message
    assert found.reproduction is not None and found.reproduction.refusals == [("verdict", "refused")]
    [fact] = found.details["rests_on"]
    assert "schema-invalid arguments" in fact["what"], fact


def test_the_twin_that_sets_iserror_draws_nothing() -> None:
    report = graded()
    assert findings(report) == [], summary(report)
    assert report.score > graded("verdict").score
