"""CLI gates and run information that test_cli.py's runs do not cover: a percentage --fail-under,
the step summary under --ci, the default profile's printed and stored seed, the up-front notice of
tools that may write, and --read-only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import Cli, CliRun, command_line, sample
from hypothesis_mcp.gates import EXIT_OK, EXIT_SCORE, below, exit_code, parse_fail_under
from hypothesis_mcp.results import GradeCap, Report, RunStats, Smoke

NOTICE = "scenarios call these tools, which may write: create_note, export_notes"
SUMMARY_BEFORE = "## an earlier step\n"


@pytest.fixture(scope="module")
def runs(out: Path) -> dict[str, CliRun]:
    summary = out / "step-summary.md"
    summary.write_text(SUMMARY_BEFORE, encoding="utf-8")
    fast = ["--max-examples", "5"]
    started = {
        # 89.1 is below 90%: exit 3, and --ci appends the Markdown summary.
        "percent": Cli(["test", command_line(sample()), "--ci", *fast, "--fail-under", "90%"], out,
                       json_report=True, env={"GITHUB_STEP_SUMMARY": str(summary)}),
        "default": Cli(["test", command_line(sample()), "--profile", "default", "--read-only", *fast], out,
                       json_report=True),
    }
    return {name: run.wait() for name, run in started.items()}


def test_fail_under_percentage_exits_3(runs: dict[str, CliRun]) -> None:
    run = runs["percent"]
    assert run.code == EXIT_SCORE, run
    assert run.report is not None and run.report["score"] < 90, run.report and run.report["score"]


def test_ci_appends_the_markdown_summary_to_the_step_summary(runs: dict[str, CliRun], out: Path) -> None:
    report = runs["percent"].report
    assert report is not None
    text = (out / "step-summary.md").read_text(encoding="utf-8")
    assert text.startswith(SUMMARY_BEFORE), "appended, not overwritten"
    assert f"**Grade {report['grade']}**" in text[len(SUMMARY_BEFORE):], text


def test_writers_are_announced_before_the_report(runs: dict[str, CliRun]) -> None:
    run = runs["percent"]
    assert NOTICE in run.stderr, run


def test_default_profile_prints_and_stores_its_seed(runs: dict[str, CliRun]) -> None:
    run = runs["default"]
    assert run.code == EXIT_OK, run
    assert run.report is not None and run.report["profile"] == "default"
    seed = run.report["seed"]
    assert isinstance(seed, int), seed
    assert f"seed {seed} (repeat with --seed {seed})" in run.stderr, run


def test_read_only_calls_no_tool_that_may_write(runs: dict[str, CliRun]) -> None:
    run = runs["default"]
    assert "may write" not in run.stderr, run
    called = {r["tool"] for r in run.results(kind="scenario") if r["status"] != "skip"}
    assert called == {"get_note", "list_notes", "search_notes", "list_tags"}, called


def _report(grade: str, score: float) -> Report:
    return Report(tool={}, target="t", profile="grading", seed=None, server={}, grade=grade, score=score,
                  subscores={}, grade_cap=GradeCap(), results=[], smoke=Smoke(), stats=RunStats())


@pytest.mark.parametrize(("gate", "grade", "score", "fails"), [
    ("B", "B", 80.0, False), ("b", "C", 89.0, True), ("80", "C", 80.0, False), ("80.5%", "B", 80.4, True),
    ("0", "F", 0.0, False), ("100", "A", 99.9, True),
])
def test_fail_under_takes_a_letter_or_a_percentage(gate: str, grade: str, score: float, fails: bool) -> None:
    """A letter compares grades (the capped one: a capped C fails B whatever its score)."""
    report = _report(grade, score)
    assert below(report, parse_fail_under(gate)) is fails
    assert exit_code(report, parse_fail_under(gate), ci=False) == (EXIT_SCORE if fails else EXIT_OK)
