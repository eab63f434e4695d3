"""One crash or hang cause on several tools is one finding (tests/servers/shared_tokenizer.py).

Three text tools pass their text through one tokenizer. `overflow-crash` ends the process on a
long text whichever tool it came through: one finding, told by the traceback's last line.
`overflow-stall` makes the tokenizer log that it waits and never answer: one finding for the two
tools whose hang says so, while keywords, which hangs silently on a cache of its own, stays its own
finding; the line the server logs for every call is no cause. The twin draws nothing.
"""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, grading, shared_run, summary
from hypothesis_mcp.report.markdown import render_markdown
from hypothesis_mcp.results import Report, Result

TOKENIZER = [*SERVE, str(ROOT / "tests/servers/shared_tokenizer.py")]
TEXT_TOOLS = ["word_count", "first_words", "keywords"]
OPTIONS = {"timeout": 2.0}
HANGS = {"timeout": 1.0}
"""The stall's run waits out the whole timeout at every hang: 1 s draws the same three findings on
the same calls as 2 s."""


def run(bug: str | None) -> Report:
    options = HANGS if bug == "overflow-stall" else OPTIONS
    return shared_run([*TOKENIZER, *(["--bug", bug] if bug else [])], grading(3), **options)


def incidents(report: Report) -> list[Result]:
    return [r for r in report.results if r.kind == "incident" and r.status == "fail"]


@pytest.fixture(scope="module")
def crashed() -> Report:
    return run("overflow-crash")


@pytest.fixture(scope="module")
def stalled() -> Report:
    return run("overflow-stall")


def test_one_crash_cause_on_three_tools_is_one_finding_listing_them(crashed: Report) -> None:
    found = incidents(crashed)
    assert sorted((r.tool, r.rule) for r in found) == sorted((t, "server-crashed") for t in TEXT_TOOLS), \
        summary(crashed)
    # Each tool's incident quotes the traceback's last line whole: the process's stderr is read to its end.
    assert all("BufferError: tokenizer buffer overflow" in r.details["returned"] for r in found), summary(crashed)
    [head] = crashed.failures()
    assert sorted(w["tool"] for w in head.details["where"]) == sorted(TEXT_TOOLS)
    assert "the same cause (the same answer: connection closed" in head.message
    assert [r.covered_by for r in found if r is not head] == [head.id, head.id]
    assert "### Failures (1)" in render_markdown(crashed)
    assert crashed.grade_cap.capped or crashed.grade in ("C", "D", "F"), "each crash still caps the grade"
    assert not [r for r in crashed.results if r.tool == "sum_of" and r.status == "fail"], summary(crashed)


def test_hangs_that_say_the_same_are_one_finding_and_a_silent_one_stays_apart(stalled: Report) -> None:
    found = {r.tool: r for r in incidents(stalled)}
    assert sorted(found) == sorted(TEXT_TOOLS) and {r.rule for r in found.values()} == {"call-timeout"}, \
        summary(stalled)
    head = found["word_count"]
    assert [w["tool"] for w in head.details["where"]] == ["word_count", "first_words"], summary(stalled)
    assert "waiting for the remote tokenizer" in head.message and "on 1 other tool(s): first_words" in head.message
    assert found["first_words"].covered_by == head.id
    # keywords' hang wrote only the line the server writes for every call: it says nothing of its cause.
    assert found["keywords"].covered_by is None and "where" not in found["keywords"].details
    assert not any("called" in r.details["returned"] for r in found.values()), summary(stalled)
    assert sorted(r.tool for r in stalled.failures()) == ["keywords", "word_count"]


def test_the_tokenizers_twin_draws_no_finding() -> None:
    twin = run(None)
    assert not [r for r in twin.results if r.status in ("fail", "warn")], summary(twin)
    assert twin.grade == "A"
