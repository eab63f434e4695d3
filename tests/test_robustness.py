"""Broken and hostile servers never break the tester (issue 9).

Every test runs the real CLI against real server processes: tests/servers/raw_server.py (a
hand-written JSON-RPC server that breaks the protocol on request) over stdio and over streamable
HTTP, and tests/servers/hostile_http.py (an SDK server whose tools crash or hang) over streamable
HTTP. Each
stdio server's command line carries a unique token, and each test ends by scanning /proc for it: no
server process may outlive the tester, whatever happened. The four longest runs start together.

Decisions these tests pin down:
- A crash is an incident `server-crashed` with the shrunk input; over stdio the tester starts the
  server again, over HTTP the deployment does (hostile_http re-forks its worker, as gunicorn would).
- A hang is an incident `call-timeout` after --timeout; the request is cancelled (the server sees
  `notifications/cancelled`, or its handler is cancelled over HTTP) and the run goes on.
- A response over the size limit (16 MiB) is dropped as it streams in and reported as
  `protocol-violation`; memory stays bounded by the limit, not by the response.
- A tools/list cursor loop ends the run: exit 5 with a message naming the repeated cursor. A catalog
  that cannot be read whole cannot be graded, and a partial grade would look like a real one.
- A catalog the SDK refuses (a tool without inputSchema) is read again unvalidated, so lint reports
  each broken tool instead of the run failing.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import free_port
from helpers import http_server as serve_http
from robustness_helpers import (
    CLI_WITH_PEAK,
    ENDS_WITHIN,
    FAST,
    RAW,
    Pending,
    Run,
    assert_no_processes,
    http_server,
    processes_with,
    run_cli,
    start_cli,
    token,
)

PY = sys.executable


def stdio(*words: str) -> tuple[str, list[str]]:
    """A raw_server command after `--`, with a fresh token; returns (token, argv)."""
    word = token()
    return word, ["--", PY, RAW, *words, word]


def report_is_complete(report: dict[str, Any] | None) -> None:
    assert report is not None, "no JSON report"
    for key in ("schema_version", "grade", "score", "subscores", "results", "stats", "server"):
        assert key in report, key
    assert report["results"], "no results"


def raw_http(*words: str, env: dict[str, str] | None = None) -> contextlib.AbstractContextManager[str]:
    """raw_server.py serving streamable HTTP with MODES `words`; yields its URL."""
    return serve_http([PY, RAW], *words, env=env)


# crash, hang, noise, JSON-RPC faults, broken catalog: six runs at once ---------------------------
BATCH_TIMEOUT = "2"
# A guard against a CLI that never ends, not a time target: six runs share two cores, and each
# hang costs a timeout and a restart for every breaker value sent to the hanging tool.
BATCH_LIMIT = 150.0


class Batch:
    """The longest runs, started together (they mostly wait on timeouts and restarts)."""

    def __init__(self, tmp: Path, url: str, http_log: Path, raw_urls: dict[str, str]) -> None:
        self.stdio_log, self.http_log = tmp / "received.log", http_log
        self.words: dict[str, str] = {}
        self.pending: dict[str, Pending] = {}
        common = ["test", *FAST, "--timeout", BATCH_TIMEOUT]
        for name, modes in [("crash-hang-stdio", ["hangy", "crashy"]),
                            ("noise-rpc", ["noise", "flood-stderr", "paginate", "rpc-faults"]),
                            ("bad-catalog", ["bad-catalog"])]:
            self.words[name], target = stdio(*modes)
            log = {"RAW_SERVER_LOG": str(self.stdio_log)}
            self.pending[name] = start_cli([*common, *target], tmp, limit=BATCH_LIMIT, env=log)
        self.pending["crash-hang-http"] = start_cli([*common, url], tmp, limit=BATCH_LIMIT)
        for name, raw_url in raw_urls.items():
            self.pending[name] = start_cli([*common, raw_url], tmp, limit=BATCH_LIMIT)

    def run(self, name: str) -> Run:
        run = self.pending[name].result()
        if name in self.words:
            assert_no_processes(self.words[name])
        return run


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Batch]:
    tmp = tmp_path_factory.mktemp("batch")
    http_log = tmp / "cancelled.log"
    with contextlib.ExitStack() as servers:
        url = servers.enter_context(http_server(env={"HOSTILE_HTTP_LOG": str(http_log)}))
        raw_urls = {"rpc-http": servers.enter_context(raw_http("paginate", "rpc-faults")),
                    "bad-catalog-http": servers.enter_context(raw_http("bad-catalog"))}
        started = Batch(tmp, url, http_log, raw_urls)
        yield started
        for pending in started.pending.values():
            with contextlib.suppress(AssertionError):  # a run that hangs fails its own test
                pending.result()


def check_crash(run: Run) -> None:
    incident = run.one(kind="incident", rule="server-crashed", tool="crash_above")
    calls = incident["reproduction"]["calls"]
    assert len(calls) == 1 and calls[0]["tool"] == "crash_above", calls
    # Shrunk: the crash needs n > 50, generation first hits it in the hundreds, and the extra
    # properties the valid strategy adds are gone.
    assert 50 < calls[0]["arguments"]["n"] <= 100 and set(calls[0]["arguments"]) == {"n"}, calls
    assert run.report is not None and run.report["stats"]["server_starts"] >= 2  # started again


def check_hang(run: Run) -> None:
    incident = run.one(kind="incident", rule="call-timeout", tool="hang_long")
    calls = incident["reproduction"]["calls"]
    assert len(calls) == 1 and calls[0]["tool"] == "hang_long", calls
    assert len(calls[0]["arguments"]["text"]) == 4, calls  # shrunk: the shortest text that hangs
    assert f"{float(BATCH_TIMEOUT):.1f}s" in incident["message"], incident


def check_went_on(run: Run) -> None:
    """Tools listed after the crashing and hanging ones were tested, and passed; the crash and the
    hang are blocking failures, so the run exits 1 (without --ci too)."""
    assert run.code == 1, run.stderr[-3000:]
    report_is_complete(run.report)
    assert run.one(kind="scenario", check="happy", tool="echo")["status"] == "pass"
    assert run.one(kind="scenario", check="edge", tool="echo")["status"] == "pass"


def test_crash_and_hang_over_stdio(batch: Batch) -> None:
    run = batch.run("crash-hang-stdio")
    check_went_on(run)
    check_crash(run)
    assert "overflows the buffer" in run.one(kind="incident", rule="server-crashed")["message"]  # stderr
    check_hang(run)
    received = batch.stdio_log.read_text().splitlines()
    assert any(line.startswith("notifications/cancelled") for line in received), received[-20:]


def test_crash_and_hang_over_http(batch: Batch) -> None:
    run = batch.run("crash-hang-http")
    check_went_on(run)
    check_crash(run)
    check_hang(run)
    time.sleep(0.2)
    assert batch.http_log.exists() and "cancelled hang_long" in batch.http_log.read_text()


def check_rpc_faults(run: Run) -> None:
    """A catalog in three pages whose second cursor is the empty string is read whole; a response
    with a wrong id, an error whose code is a string and a result whose content is not a list are
    each a `protocol-violation` incident on its tool (blocking: exit 1), and the other tools still pass."""
    assert run.code == 1, run.stderr[-3000:]
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    report_is_complete(run.report)
    for tool, expected in [("wrong_id", "unknown id 1"), ("bad_error", "malformed JSON-RPC response"),
                           ("bad_result", "malformed result")]:
        incident = run.one(kind="incident", rule="protocol-violation", tool=tool)
        assert expected in incident["message"], incident
        assert incident["reproduction"]["calls"][0]["tool"] == tool
    for tool in ("echo", "crash", "hang"):  # the last page of the catalog
        assert run.one(kind="scenario", check="happy", tool=tool)["status"] == "pass"
        assert run.one(kind="scenario", check="edge", tool=tool)["status"] == "pass"


def test_noise_stderr_flood_and_jsonrpc_misbehaviour(batch: Batch) -> None:
    """One run against a server that does all of it at once: non-protocol lines on stdout before
    every answer (one stdout-not-protocol warning quoting the line), ~5 MB on stderr at start and ~1
    MB before every answer (the run completes, and stderr stays in a bounded tail), and the catalog
    and JSON-RPC faults of `check_rpc_faults`."""
    run = batch.run("noise-rpc")
    check_rpc_faults(run)
    noise = run.one(kind="incident", rule="stdout-not-protocol")
    assert noise["status"] == "warn" and noise["details"]["line"] == "starting worker... this line is not JSON-RPC"
    assert len(run.stderr) + len(run.stdout) < 200_000
    assert run.report is not None and len(json.dumps(run.report)) < 500_000


def test_jsonrpc_misbehaviour_over_http(batch: Batch) -> None:
    """The same faults in JSON response bodies (stdout noise and stderr do not exist over HTTP)."""
    check_rpc_faults(batch.run("rpc-http"))


def check_bad_catalog(run: Run) -> None:
    assert run.code == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr
    report_is_complete(run.report)
    assert run.one(kind="lint", tool="bad_schema", rule="lint-input-schema-invalid")["status"] == "fail"
    assert run.one(kind="lint", tool="no_schema", rule="lint-missing-input-schema")["status"] == "fail"
    assert len(run.results(kind="lint", tool="echo", rule="lint-duplicate-name")) == 2
    impossible = run.one(kind="scenario", check="happy", tool="impossible")
    assert impossible["status"] == "skip" and "no value satisfies" in impossible["message"]
    assert run.one(kind="scenario", check="happy", tool="crash")["status"] == "pass"


def test_malformed_catalog_gives_lint_results_not_a_crash(batch: Batch) -> None:
    """An invalid inputSchema, a missing one, an unsatisfiable one and a duplicate name."""
    check_bad_catalog(batch.run("bad-catalog"))


def test_malformed_catalog_over_http_gives_lint_results_not_a_crash(batch: Batch) -> None:
    check_bad_catalog(batch.run("bad-catalog-http"))


def test_max_time_bounds_a_run_whose_tool_hangs(tmp_path: Path) -> None:
    """Every hanging call costs --timeout; --max-time must bound the whole run, shrinking included."""
    word, target = stdio("hangy")
    run = run_cli(["test", *FAST, "--timeout", "1", "--max-time", "1", *target], tmp_path)
    assert run.code == 1, run.stderr[-3000:]  # the hang is a blocking failure
    report_is_complete(run.report)
    # The hang alone costs ~4 timeouts while shrinking: the run must stop within --max-time plus
    # one call's --timeout, plus a second to finish the report.
    assert run.report is not None
    stats, notes = run.report["stats"], run.report.get("notes", [])
    assert stats["duration_s"] <= 1 + 1 + 1, stats
    assert any("--max-time" in note for note in notes), notes
    assert_no_processes(word)


# start-up failures -------------------------------------------------------------------------------
def test_server_that_dies_at_start_exits_5_with_its_stderr(tmp_path: Path) -> None:
    word, target = stdio("die-at-start")
    run = run_cli(["test", "--timeout", "2", *target], tmp_path, limit=ENDS_WITHIN)
    assert run.code == 5, (run.code, run.stderr[-3000:])
    assert "exited with code 3" in run.stderr
    assert "cannot open database 'notes.db': permission denied" in run.stderr
    assert "Traceback" not in run.stderr
    assert_no_processes(word)


@pytest.mark.parametrize("command", ["tools", "test"])
def test_server_that_never_answers_the_handshake_exits_5_within_the_timeout(
    tmp_path: Path, command: str
) -> None:
    word, target = stdio("no-handshake")
    run = run_cli([command, "--timeout", "2", *target], tmp_path, limit=ENDS_WITHIN)
    assert run.code == 5, (run.code, run.stderr[-3000:])
    assert "within 2s" in run.stderr and "Traceback" not in run.stderr
    assert_no_processes(word)


@pytest.mark.parametrize("mode", ["refused", "silent", "http-error"])
def test_http_server_that_cannot_be_reached_exits_5(tmp_path: Path, mode: str) -> None:
    """Nothing listens; a server accepts and never answers; a server answers HTTP 500."""
    if mode == "refused":
        run = run_cli(["tools", "--timeout", "2", f"http://127.0.0.1:{free_port()}/mcp"], tmp_path, limit=ENDS_WITHIN)
    else:
        with http_server("--mode", mode) as url:
            run = run_cli(["tools", "--timeout", "2", url], tmp_path, limit=ENDS_WITHIN)
    assert run.code == 5, (run.code, run.stderr[-3000:])
    assert "Traceback" not in run.stderr
    expected = {"refused": "could not connect", "silent": "within 2s",
                "http-error": "HTTP 500 Internal Server Error: internal error: database unavailable"}[mode]
    assert expected in " ".join(run.stderr.split()), run.stderr


# huge results ------------------------------------------------------------------------------------
HUGE_MB = 100


@pytest.fixture(scope="module")
def warm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory to run in once Hypothesis's storage holds its caches for the current sources.

    A run that builds them (the unicode charmap, the constants of the loaded modules, again after
    any source edit) peaks ~200 MB higher than later runs, whatever the server returns.
    """
    where = tmp_path_factory.mktemp("warm")
    word, target = stdio()
    run = run_cli(["test", "--profile", "grading", "--max-examples", "1", *target], where)
    assert run.code == 0, run.stderr[-3000:]
    assert_no_processes(word)
    return where


def check_huge(run: Run) -> None:
    report_is_complete(run.report)
    incident = run.one(kind="incident", rule="protocol-violation", tool="echo")
    assert "16777216-byte limit" in incident["message"], incident
    # Reading the result whole would cost its size several times over (bytes, JSON, SDK models);
    # dropping it as it streams in costs at most the 16 MiB limit.
    growth = run.peak_growth_mb
    assert growth < 0.4 * HUGE_MB, f"peak RSS grew by {growth:.0f} MB for a {HUGE_MB} MB result"


def test_huge_result_over_stdio_is_reported_in_bounded_memory(warm_dir: Path) -> None:
    word, target = stdio("huge")
    run = run_cli(["test", *FAST, "--timeout", "10", *target], warm_dir,
                  env={"RAW_SERVER_HUGE_MB": str(HUGE_MB)}, command=CLI_WITH_PEAK)
    check_huge(run)
    assert_no_processes(word)


def test_huge_result_over_http_is_reported_in_bounded_memory(warm_dir: Path) -> None:
    with http_server("--tools", "echo", "--huge-mb", str(HUGE_MB)) as url:
        run = run_cli(["test", *FAST, "--timeout", "10", url], warm_dir, command=CLI_WITH_PEAK)
    check_huge(run)


# catalogs that cannot be read whole ----------------------------------------------------------
def test_cursor_loop_exits_5_with_a_clear_message(tmp_path: Path) -> None:
    word, target = stdio("cursor-loop")
    run = run_cli(["test", "--timeout", "2", *target], tmp_path, limit=ENDS_WITHIN)
    assert run.code == 5, (run.code, run.stderr[-3000:])
    assert "cursor loop" in run.stderr and "'again'" in run.stderr
    assert "Traceback" not in run.stderr
    assert_no_processes(word)


def test_cursor_loop_over_http_exits_5_with_a_clear_message(tmp_path: Path) -> None:
    with raw_http("cursor-loop") as url:
        run = run_cli(["test", "--timeout", "2", url], tmp_path, limit=ENDS_WITHIN)
    assert run.code == 5, (run.code, run.stderr[-3000:])
    assert "cursor loop" in run.stderr and "'again'" in run.stderr
    assert "Traceback" not in run.stderr


# signals -----------------------------------------------------------------------------------------
def start_cli_on_hanging_server(tmp_path: Path) -> tuple[Pending, str]:
    """The CLI on a server that hangs (3 s per hanging call) and ignores end of input."""
    pids = tmp_path / "pids"
    word, target = stdio("hangy", "linger")
    pending = start_cli(["test", *FAST, "--timeout", "3", *target], tmp_path,
                        env={"RAW_SERVER_PIDFILE": str(pids)})
    deadline = time.monotonic() + 20
    while not (pids.exists() and pids.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with(word), "the server did not start"
    time.sleep(1.5)  # into the first hanging call
    return pending, word


def stop(pending: Pending, sig: signal.Signals, within: float) -> tuple[Run, float]:
    sent = time.perf_counter()
    pending.proc.send_signal(sig)
    pending.limit = pending.seconds_so_far + within
    run = pending.result()
    assert run.report is None or run.report["interrupted"], f"the CLI ran to its end unheard ({pending.inherited})"
    return run, time.perf_counter() - sent


def kill_left(word: str) -> None:
    for pid in processes_with(word):
        os.kill(pid, signal.SIGKILL)


def check_partial_report(run: Run, seconds: float) -> None:
    assert seconds < 6, seconds  # report, console, JSON, then the lingering server is stopped
    assert run.code == 130, (run.code, run.stderr[-2000:])
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    assert run.report is not None, "no partial report was written"
    data = run.report
    assert data.get("interrupted") is True, data.get("notes")
    assert data.get("partial") is True and "interrupted" in data.get("partial_reason", ""), data
    assert "PARTIAL" in run.stdout + run.stderr, "the console header says the run is partial"
    assert [r for r in data["results"] if r["kind"] == "lint"], "the partial report lost the lint results"


def test_ctrl_c_stops_promptly_terminates_servers_and_writes_a_partial_report(tmp_path: Path) -> None:
    pending, word = start_cli_on_hanging_server(tmp_path)
    try:
        run, seconds = stop(pending, signal.SIGINT, within=10)
        assert_no_processes(word)
    finally:
        kill_left(word)
    check_partial_report(run, seconds)


def test_ctrl_c_over_http_stops_promptly_and_writes_a_partial_report(tmp_path: Path) -> None:
    log = tmp_path / "received.log"
    with raw_http("hangy", env={"RAW_SERVER_LOG": str(log)}) as url:
        pending = start_cli(["test", *FAST, "--timeout", "3", url], tmp_path)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (log.exists() and "tools/call" in log.read_text()):
            time.sleep(0.05)
        time.sleep(0.5)  # into the first hanging call (hang_long is listed first)
        run, seconds = stop(pending, signal.SIGINT, within=10)
    check_partial_report(run, seconds)


def test_sigterm_to_the_tester_terminates_its_servers(tmp_path: Path) -> None:
    pending, word = start_cli_on_hanging_server(tmp_path)
    try:
        run, _ = stop(pending, signal.SIGTERM, within=10)
        assert_no_processes(word, within=5)
    finally:
        kill_left(word)
    assert run.code == 143, (run.code, run.stderr[-2000:])  # 128 + SIGTERM; Ctrl-C stays 130
