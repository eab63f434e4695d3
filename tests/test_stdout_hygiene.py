"""Stdout that is no JSON-RPC (tests/servers/stdout_logs.py): a server that logs there draws one
warning quoting the first line, its twin that logs to stderr draws none, a banner before a working
handshake is read past, a server that writes only other text fails at once, saying so, and one
that exits after such text says both."""

from __future__ import annotations

import sys

import pytest

from helpers import ROOT, SERVE, Cli, CliRun, command_line
from hypothesis_mcp.connection import Connection
from hypothesis_mcp.errors import ServerStartError

RULE = "stdout-not-protocol"
STARTUP_TIMEOUT = 30.0
"""The default start-up timeout: the garbage-only server gets a third of it, and an answer after
it would be the old wait."""
GRACE = STARTUP_TIMEOUT / 3


def stdout_logs(bug: str | None = None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/stdout_logs.py"), *(["--bug", bug] if bug else [])]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CliRun]:
    folder = tmp_path_factory.mktemp("stdout")
    grading = ["--profile", "grading", "--max-examples", "10"]
    started = {
        "logs": Cli(["test", command_line(stdout_logs("logs-to-stdout")), *grading], folder, json_report=True),
        "twin": Cli(["test", command_line(stdout_logs()), *grading], folder, json_report=True),
        "garbage": Cli(["test", command_line(stdout_logs("garbage-only")), "--timeout", f"{STARTUP_TIMEOUT:g}"],
                       folder, limit=STARTUP_TIMEOUT + 60),
    }
    return {name: run.wait() for name, run in started.items()}


def test_a_server_logging_to_stdout_draws_one_warning_quoting_the_first_line(runs: dict[str, CliRun]) -> None:
    run = runs["logs"]
    assert run.code == 0, run
    [warning] = run.results(rule=RULE)
    assert warning["status"] == "warn" and warning["kind"] == "incident" and warning["tool"] is None, warning
    assert warning["confidence"] == "high"
    line = warning["details"]["line"]
    assert line in ("called greet", "called shout"), warning
    assert f"the server wrote non-JSON-RPC to stdout: '{line}'" in warning["message"]
    assert warning["details"]["lines"] > 1
    assert "stderr" in warning["fix"]
    shown = [text for text in run.stdout.splitlines() if RULE in text]
    assert len(shown) == 1 and f"'{line}'" in shown[0] and shown[0].startswith("1. WARN"), run


def test_the_twin_logging_to_stderr_draws_nothing(runs: dict[str, CliRun]) -> None:
    run = runs["twin"]
    assert run.code == 0, run
    assert run.results(rule=RULE) == []
    assert [r for r in run.results() if r["status"] in ("fail", "warn")] == [], run
    assert RULE not in run.stdout


def test_only_garbage_on_stdout_fails_at_once_quoting_it(runs: dict[str, CliRun]) -> None:
    run = runs["garbage"]
    assert run.code == 5, run
    assert "the server wrote non-JSON-RPC to stdout: 'Listening on http://127.0.0.1:8080'" in run.stderr, run
    assert f"no JSON-RPC message within {GRACE:g}s" in run.stderr and "Traceback" not in run.stderr
    assert GRACE <= run.seconds < STARTUP_TIMEOUT, run


def test_a_banner_before_the_handshake_is_read_past_and_kept() -> None:
    with Connection(stdout_logs("banner")) as server:
        answer = server.call("greet", {"name": "Ada"})
        assert answer.kind == "result" and not answer.is_error, answer
        assert server.stats.stdout.first == "stdout-logs 1.0 starting" and server.stats.stdout.lines == 1


def test_a_server_that_exits_after_text_on_stdout_says_both() -> None:
    with pytest.raises(ServerStartError) as raised:
        Connection([sys.executable, "-c", "print('usage: notes-server [--port N]')"]).open()
    said = str(raised.value)
    assert "exited with code 0 before finishing the MCP handshake" in said, said
    assert "it wrote non-JSON-RPC to stdout: 'usage: notes-server [--port N]'" in said, said
