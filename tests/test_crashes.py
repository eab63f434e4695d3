"""Crashes and hangs under the grading profile: found, reproduced by the minimal call, reported once.

tests/servers/breaker_bugs.py crashes on a NUL, a long string or an integer past 32 bits;
tests/servers/hang_bugs.py never answers for a negative number, blocking its whole process or
one request. Their twins (no --bug) must draw no incident.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from helpers import ROOT, SERVE, engine, http_server, one, results, shared_run, summary, without_duration
from hypothesis_mcp.report.issues import top_issues
from hypothesis_mcp.report.junit import render_junit
from hypothesis_mcp.report.markdown import render_markdown
from hypothesis_mcp.results import Report
from hypothesis_mcp.strategies import Overrides


def server(name: str, bug: str | None = None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers" / name), *(["--bug", bug] if bug else [])]


HANG_TIMEOUT = 1.0
"""A hang's run waits out the whole timeout at every hanging call: 1 s finds the same incident on the
same call as 2 s. The twin's run waits for nothing, so its timeout costs no time: TWIN_TIMEOUT is long
enough that a call slowed by a loaded machine (a CI run beside other work) is not taken for a hang."""
TWIN_TIMEOUT = 10.0


def negative(value: Any) -> bool:
    if isinstance(value, dict):
        return any(negative(v) for v in value.values())
    return isinstance(value, int | float) and not isinstance(value, bool) and value < 0


@pytest.mark.parametrize(("bug", "tool", "arguments"), [
    ("nul-crash", "annotate", {"text": "\x00"}),
    ("long-crash", "digest", {"body": "a" * 1501}),
    ("huge-int-crash", "convert", {"amount": 2**31, "unit": "cm"}),
])
def test_a_crash_is_found_with_the_minimal_input_and_reported_once(bug: str, tool: str,
                                                                   arguments: dict[str, Any]) -> None:
    report = engine(server("breaker_bugs.py", bug), smoke=True)
    incident = one(report, kind="incident")
    assert (incident.tool, incident.rule) == (tool, "server-crashed"), summary(report)
    assert incident.reproduction is not None
    assert [(c.tool, c.arguments) for c in incident.reproduction.calls] == [(tool, arguments)]
    covered = [r for r in report.results if r.covered_by == incident.id]
    assert covered and {r.check for r in covered} == set(incident.details["checks"])
    assert [r.id for r in top_issues(report)].count(incident.id) == 1
    assert all(r.covered_by is None for r in top_issues(report))
    assert render_junit(report).count("<failure") == len(report.failures()) == 1
    assert "### Failures (1)" in render_markdown(report)


def test_the_crash_servers_twin_draws_no_incident() -> None:
    report = shared_run(server("breaker_bugs.py"), smoke=True)
    assert not [r for r in report.results if r.status == "fail"], summary(report)
    assert report.grade == "A"


def test_a_grading_run_on_a_clean_server_is_still_deterministic() -> None:
    first = shared_run(server("breaker_bugs.py"), smoke=True)  # the twin's run above; the second starts here
    second = engine(server("breaker_bugs.py"), smoke=True)
    assert without_duration(first.to_dict()) == without_duration(second.to_dict())


@pytest.mark.parametrize(("bug", "tool"), [("negative-hang", "lookup"), ("negative-stall", "history")])
def test_a_hang_is_the_one_call_that_hangs_and_never_cascades(bug: str, tool: str) -> None:
    started = time.monotonic()
    report = engine(server("hang_bugs.py", bug), smoke=True, timeout=HANG_TIMEOUT)
    assert time.monotonic() - started < 90
    timeouts = [r for r in report.results if r.rule == "call-timeout"]
    assert timeouts and all(r.reproduction and negative(r.reproduction.calls[0].arguments) for r in timeouts)
    incident = one(report, kind="incident")
    assert (incident.tool, incident.rule) == (tool, "call-timeout"), summary(report)
    assert incident.reproduction is not None and len(incident.reproduction.calls) == 1
    assert list(incident.reproduction.calls[0].arguments.values()) == [-1]
    assert not results(report, kind="smoke", status="fail"), summary(report)
    # The other tools' scenarios never inherit the hang (a tool whose draws never meet a stored id
    # is "not exercised", which is no failure).
    others = [r for r in report.results if r.kind == "scenario" and r.tool != tool]
    assert others and all(r.status != "fail" for r in others), summary(report)


def test_the_hang_servers_twin_draws_no_incident() -> None:
    report = engine(server("hang_bugs.py"), smoke=True, timeout=TWIN_TIMEOUT)
    assert not [r for r in report.results if r.status == "fail"], summary(report)


def test_over_http_a_stalled_call_gets_a_new_session_and_later_calls_pass() -> None:
    with http_server(server("hang_bugs.py", "negative-stall")) as url:
        report = engine(url, smoke=True, timeout=HANG_TIMEOUT)
    incident = one(report, kind="incident")
    assert incident.reproduction is not None
    assert [(c.tool, c.arguments) for c in incident.reproduction.calls] == [("history", {"before": -1})]
    assert not results(report, kind="smoke", status="fail"), summary(report)


def test_over_http_a_server_that_stops_answering_skips_later_checks_once() -> None:
    with http_server(server("hang_bugs.py", "negative-hang")) as url:
        report = engine(url, smoke=True, timeout=HANG_TIMEOUT, startup_timeout=5.0)
    assert one(report, kind="incident").rule == "call-timeout"
    assert [r for r in report.results if r.status == "fail" and r.rule != "call-timeout"] == [], summary(report)
    said = [n for n in report.notes if "did not answer again" in n]
    assert len(said) == 1, report.notes
    assert results(report, kind="smoke", check="smoke_unknown_tool", status="skip")


def exercised(report: Report) -> list[Any]:
    return [r.details.get("valid_calls_succeeded") for r in results(report, kind="scenario", check="happy")]


def test_a_server_no_tool_of_which_was_exercised_grades_d_or_worse() -> None:
    report = engine(server("locked_tools.py"))
    assert report.grade in ("D", "F") and report.subscores["exercised"] == 0.0, summary(report)
    assert report.grade_cap.uncapped_grade == report.grade and not report.grade_cap.capped  # the score says it
    assert exercised(report) == [0, 0]
    happy = one(report, kind="scenario", check="happy", tool="fetch_invoice")
    assert happy.status == "inconclusive" and happy.message.startswith("not exercised")
    assert "isError: true" in happy.message and "--arg fetch_invoice:invoice_id=" in happy.message
    given = Overrides.from_mapping({"fetch_invoice": {"invoice_id": "INV-1001"}, "*": {"account": "acme"}},
                                   "test")
    report = engine(server("locked_tools.py"), overrides=given)
    assert report.grade == "A" and all(n and n > 0 for n in exercised(report)), summary(report)
