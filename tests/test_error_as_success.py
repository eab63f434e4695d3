"""`error-as-success`: answers whose content says the call failed while isError is not set.

The detector is read on answers of every shape; the rule on real servers (tests/servers/
error_shapes.py in seven styles and its correct twin, tests/servers/error_words.py whose data reads
like errors); and every other judgement treats such an answer as a refusal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import ROOT, SERVE, cli, engine, error_shapes, one, results, shared_run, summary
from hypothesis_mcp.connection import Outcome, parse_target
from hypothesis_mcp.replay import replay

RULE = "error-as-success"
ERROR_WORDS = [*SERVE, str(ROOT / "tests/servers/error_words.py")]


def text(value: str, arguments: dict[str, Any] | None = None) -> Outcome:
    return Outcome.from_result({"content": [{"type": "text", "text": value}]}, 0.0, arguments)


@pytest.mark.parametrize("answer", [
    '{"error": "Priority must be a single uppercase letter"}', '{"error": "Todo 7 not found"}',
    '{"errors": [{"message": "bad"}], "data": null}', '{"success": false, "message": "no such row"}',
    '{"ok": false, "reason": "locked"}', '{"status": "error", "detail": "timeout"}', '{"result": {"error": "x"}}',
    "Database error: syntax error", "Error: no note 'x'", "error: permission denied", "ERROR could not open file",
    "Failed to create todo: empty title", "Exception: boom", "ValueError: invalid literal for int()",
    "sqlite3.OperationalError: no such table: notes", "An error occurred while saving the note",
    "Validation failed: title is required", "Traceback (most recent call last):\n  File \"x.py\"\nKeyError: 'id'",
])
def test_an_answer_that_says_it_failed_is_a_refusal(answer: str) -> None:
    outcome = text(answer)
    assert outcome.failure and outcome.error_shaped and not outcome.ok and outcome.rejected
    assert "content says it failed" in outcome.summary()


@pytest.mark.parametrize("answer", [
    "Errors found: 0", "Error count: 0", "Error: none", "No error: all checks passed", "error-free since March",
    "Terror: a novel", "Created note 'Error: x'", "- Error: a bullet the user wrote", "FAILED: 0",
    "[ERROR] timed out\n[ERROR] retry timed out\n[INFO] recovered", '{"valid": false, "errors": ["line 1: no ="]}',
    '{"job_id": 3, "status": "failed"}', '{"errors": []}', '{"error": null, "value": 5}',
    '{"success": true, "error": "partial"}', "Error: " + "a long document\n" * 8,
])
def test_data_that_reads_like_an_error_is_a_success(answer: str) -> None:
    outcome = text(answer)
    assert outcome.failure is None and outcome.ok


def test_an_answer_that_shows_the_arguments_back_is_no_error() -> None:
    assert text("Error: the user typed this", {"note": "Error: the user typed this"}).ok
    assert text('{"error": "disk full"}', {"fields": {"error": "disk full"}}).ok
    assert not text("Error: no note 'x'", {"title": "x"}).ok
    # A message of the type the caller asked for (server-everything's get-annotated-message).
    assert text("Error: Operation failed", {"messageType": "error", "includeImage": True}).ok
    assert not text("Error: Operation failed", {"messageType": "success"}).ok
    assert text('{"status": "failed"}', {"job": "nightly", "status": "failed"}).ok
    # A record a probe wrote, read back later: its marked values are the run's words, not the server's.
    assert text('{"status": "error", "message": "hm1234abcd-message error log"}').ok
    assert text("hm1234abcd-title error: a user's words").ok
    assert not text("Error: no note 'hm1234abcd-title'").ok


def test_an_iserror_result_is_no_error_as_success() -> None:
    outcome = Outcome.from_result({"content": [{"type": "text", "text": "Error: x"}], "isError": True}, 0.0)
    assert outcome.is_error and not outcome.error_shaped and outcome.failure is None


def test_structured_content_that_says_it_failed_is_a_refusal() -> None:
    outcome = Outcome.from_result({"content": [{"type": "text", "text": "done"}],
                                   "structuredContent": {"error": {"code": 404, "message": "not found"}}}, 0.0)
    assert outcome.error_shaped


STYLES = ("json-error", "errors-structured", "success-false", "status-error", "error-text", "failed-text", "db-error")


@pytest.mark.parametrize("style", STYLES)
def test_every_style_is_reported_once_for_the_server_and_replays(style: str) -> None:
    """--smoke --call-all --profile grading: the refusals without isError are one cause, the server's
    way of refusing: one low-confidence warning naming the tools that refuse; its reproduction still
    answers so on a new process and is answered with isError by the twin."""
    report = shared_run(error_shapes(style), smoke=True, call_all=True)  # test_rule_verdicts.py reads two
    [result] = results(report, rule=RULE)
    where = {w["tool"]: w for w in result.details["where"]}
    assert {"create_ticket", "get_ticket"} <= set(where), summary(report)
    assert (result.status, result.kind, result.tool, result.confidence) == ("warn", "scenario", None, "low")
    assert result.message.startswith("refusals are answered with isError false: clients read them as successes")
    assert 1 <= len(result.details["examples"]) <= 3 and result.fix
    # Schema-invalid arguments answered that way are the surest sign, and the reproduction is one of them.
    assert bool(result.details["error_shaped_invalid"]) == (style != "db-error")
    assert result.reproduction is not None and len(result.reproduction.calls) == 1
    assert replay(result, parse_target(error_shapes(style))).still_fails, result.reproduction
    assert not replay(result, parse_target(error_shapes())).still_fails
    # Refusals, never successes: invalid arguments answered that way were refused (edge passes), and a
    # reader that refused every made-up id was exercised only when searched again with the ids the
    # server printed.
    assert not [r for r in report.results if r.status == "fail"], summary(report)
    happy = one(report, check="happy", tool="get_ticket")
    assert happy.details.get("owned"), summary(report)
    assert 0 < happy.details["valid_calls_succeeded"] < happy.details["calls_answered"]
    assert report.subscores["edge"] == 100.0


def test_the_twin_and_a_server_whose_data_reads_like_errors_draw_no_warning() -> None:
    twin = engine(error_shapes(), smoke=True, call_all=True)
    assert not results(twin, rule=RULE), summary(twin)
    control = engine(ERROR_WORDS, smoke=True, call_all=True)
    assert not results(control, rule=RULE), summary(control)
    assert not [r for r in control.results if r.status in ("fail", "warn") and r.kind != "lint"], summary(control)
    for tool in ("validate_config", "job_status", "count_errors", "echo_note", "record_event"):
        assert one(control, check="happy", tool=tool).status == "pass", summary(control)


def test_a_refused_probe_write_is_a_refusal_not_an_unobservable_write() -> None:
    """`high` priority tickets are refused with `{"error": ...}`: those writes are refused, so the
    round trip judges only the stored ones and passes (it used to call the refused ones unobservable)."""
    report = engine(error_shapes("json-error"), probes=True, allow_writes=True)
    probe = one(report, kind="probe", tool="create_ticket")
    assert (probe.status, probe.confidence) == ("pass", "high"), summary(report)
    assert not results(report, rule="probe-write-not-observable")


def test_the_json_report_and_replay_command_carry_the_rule(tmp_path: Path) -> None:
    run = cli(["test", "--smoke", "--profile", "grading", "--json", "report.json", "--",
               *error_shapes("success-false")], tmp_path)
    assert run.code == 0, run
    data = json.loads((tmp_path / "report.json").read_text())
    [found] = [r for r in data["results"] if r["rule"] == RULE]
    assert (found["status"], found["confidence"], found["tool"]) == ("warn", "low", None)
    again = cli(["replay", "report.json", "--result", found["id"]], tmp_path)
    assert again.code == 1 and "content says it failed" in again.stdout, again
