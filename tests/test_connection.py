"""The synchronous connection facade against real server processes, over stdio and streamable HTTP.

One `Outcome` type must tell apart a result, a JSON-RPC error, a timeout and an exited server; a
timeout must leave the connection usable; an exited server is started again; what the user passes
(environment, working directory, headers, bearer token) reaches the server, and the token is never
shown. tests/servers/raw_server.py speaks the 2025-11-25 handshake only; the sample server is an SDK
server of the 2026-07-28 era.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import jsonschema
import pytest

from helpers import SERVE, http_server, sample
from hypothesis_mcp import connect
from hypothesis_mcp.connection import parse_target
from robustness_helpers import HOSTILE, RAW, run_cli

PY = sys.executable


def test_stdio_outcomes_timeout_crash_restart_and_transcript(tmp_path: Path) -> None:
    log = tmp_path / "received.log"
    with connect([PY, RAW, "hangy", "crashy"], timeout=1.0, env={"RAW_SERVER_LOG": str(log)}) as conn:
        assert conn.server is not None
        assert (conn.server.protocol_version, conn.server.era) == ("2025-11-25", "legacy")
        hung = conn.call("hang_long", {"text": "abcdef"})
        assert hung.kind == "timeout" and 1.0 <= hung.elapsed < 5, hung
        after = conn.call("echo", {"text": "hi"})  # a fresh process: a hung one may be wedged
        assert after.ok and after.value() == {"text": "hi"} and conn.stats.server_starts == 2, after
        assert any(line.startswith("notifications/cancelled") for line in log.read_text().splitlines())
        crashed = conn.call("crash_above", {"n": 99})
        assert crashed.kind == "closed" and crashed.exit_code == 9, crashed
        assert "n=99 overflows the buffer" in crashed.stderr
        again = conn.call("echo", {"text": "back"})  # started again
        assert again.ok and conn.stats.server_starts == 3, again
        refused = conn.call("echo", {"text": 5})
        assert refused.kind == "result" and refused.is_error and refused.rejected, refused
        unknown = conn.call("no_such_tool", {})
        assert (unknown.kind, unknown.code) == ("error", -32602) and "no_such_tool" in unknown.message
        methods = [(e.method, e.outcome["kind"]) for e in conn.transcript]
        assert methods == [("tools/call", k) for k in ("timeout", "result", "closed", "result", "result", "error")]
        assert conn.transcript[2].params == {"name": "crash_above", "arguments": {"n": 99}}
        assert all(e.elapsed > 0 for e in conn.transcript)
        assert [e.started for e in conn.transcript] == sorted(e.started for e in conn.transcript)


def test_a_crash_is_told_by_the_stderr_line_written_after_the_process_exited() -> None:
    """The server exits at once; a reporter that escaped its process group writes the crash's line
    0.2 s later. The run reads stderr to its end (within half a second) before quoting it."""
    with connect([PY, RAW, "late-report"], timeout=5.0) as conn:
        crashed = conn.call("crash", {"text": "boom"})
        assert crashed.kind == "closed" and crashed.exit_code == 9, crashed
        assert crashed.summary().endswith("stderr: fatal: cannot handle 'boom'"), crashed.summary()


def test_http_timeout_opens_a_new_session_and_a_crash_is_survived(tmp_path: Path) -> None:
    log = tmp_path / "cancelled.log"
    with http_server([PY, HOSTILE], env={"HOSTILE_HTTP_LOG": str(log)}) as url, \
            connect(url, timeout=1.0) as conn:
        hung = conn.call("hang_long", {"text": "abcdef"})
        assert hung.kind == "timeout", hung
        after = conn.call("echo", {"text": "hi"})  # on a new session
        assert after.ok and conn.stats.server_starts == 2 and conn.unavailable is None, after
        assert conn.call("crash_above", {"n": 99}).kind == "closed"
        assert conn.call("echo", {"text": "back"}).ok
    assert "cancelled hang_long" in log.read_text()


def test_modern_era_and_a_raw_result_that_breaks_its_output_schema() -> None:
    """The sample server speaks 2026-07-28; export_notes answers with structuredContent that breaks
    its outputSchema (a documented flaw): the SDK would refuse it, and judging it is our job."""
    with connect(sample()) as conn:
        assert conn.server is not None and conn.server.protocol_version == "2026-07-28"
        assert conn.server.era == "modern", "an SDK server's discover lists the modern versions only"
        schema = conn.tool("export_notes").output_schema
        exported = conn.call("export_notes", {"format": "html"})
    assert exported.ok and exported.has_structured, exported
    assert not jsonschema.Draft202012Validator(schema).is_valid(exported.structured), exported.structured


def test_env_and_cwd_reach_the_server(tmp_path: Path) -> None:
    """A one-string command is split like a shell would; env and cwd apply to the process."""
    script = f'printf %s "$HM_PROBE_VALUE" > seen.txt; exec {PY} {RAW}'
    target = parse_target(f"sh -c '{script}'", env={"HM_PROBE_VALUE": "a b"}, cwd=str(tmp_path))
    assert target.command == ("sh", "-c", script)
    with connect(target) as conn:
        assert conn.call("echo", {"text": "x"}).ok
    assert (tmp_path / "seen.txt").read_text() == "a b"


@contextlib.contextmanager
def header_recorder() -> Iterator[tuple[str, list[dict[str, str]]]]:
    """An HTTP endpoint that records each request's headers and answers 401."""
    seen: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            seen.append(dict(self.headers))
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(401)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            """Quiet."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/mcp", seen
    finally:
        server.shutdown()
        server.server_close()


def test_headers_and_bearer_token_are_sent_and_the_token_never_shown(tmp_path: Path) -> None:
    secret = "hm-secret-4f1c9a"
    with header_recorder() as (url, seen):
        run = run_cli(["tools", "--timeout", "5", "--token", secret, "--header", "X-Tenant: blue", url], tmp_path)
    assert run.code == 5, (run.code, run.stderr[-2000:])
    assert seen and seen[0].get("Authorization") == f"Bearer {secret}" and seen[0].get("X-Tenant") == "blue"
    assert secret not in run.stdout + run.stderr
    target = parse_target(url, token=secret, headers={"X-Tenant": "blue"})
    assert secret not in repr(target) + target.describe()


@pytest.mark.parametrize("command", ["python -m x", ["python", "-m", "x"]])
def test_command_string_and_argv_list_are_the_same_target(command: str | list[str]) -> None:
    assert parse_target(command).command == ("python", "-m", "x")


@pytest.mark.parametrize(("extra", "era"), [([], "modern"), (["--dual"], "dual")])
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_the_era_follows_the_versions_discover_lists(extra: list[str], era: str, transport: str) -> None:
    """modern: server/discover lists modern versions only; dual: the handshake-era ones too (legacy,
    a server without server/discover, is raw_server's case above)."""
    argv = [*SERVE, str(Path(__file__).parent / "servers" / "era_server.py"), *extra]
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(http_server(argv)) if transport == "http" else argv
        with connect(target) as conn:
            assert conn.server is not None
            assert (conn.server.protocol_version, conn.server.era) == ("2026-07-28", era)
            assert conn.call("ping", {}).text == "pong"
