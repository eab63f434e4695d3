"""Servers of every era connect and are graded: a small store on old Python SDK releases (each in a
venv of its own, scripts/install-pypi-sdks) and a hand-written JSON-RPC server that exits on any
method it does not know. A server that dies on the `server/discover` probe, or stays up without
answering it (it logs an error about it, or drops it silently while it answers a ping), is started
again and greeted with `initialize`, and every later start of the run goes straight to `initialize`."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import ROOT, SERVE, shared_run
from hypothesis_mcp import connect
from hypothesis_mcp.errors import ServerStartError
from public_servers import PYPI, in_venv, npm_server

RESTARTED = "initialize after restart"
STAYS_UP = "1.6.0 autosave"
"""The store on 1.6.0 with a thread of its own that keeps the process up when the SDK's session dies."""
ERAS = {"1.6.0": ("2024-11-05", RESTARTED), "1.12.4": ("2025-06-18", "initialize"),
        STAYS_UP: ("2024-11-05", RESTARTED)}
NOTES = {"1.6.0": "exited with code 1 on the server/discover request", "1.12.4": "",
         STAYS_UP: "logged an error about the server/discover request and did not answer it",
         "exit-on-unknown": "exited with code 2 on the server/discover request",
         "drop-unknown": "answered a ping but not the server/discover request"}
"""What `handshake_note` says of each: which sign ended the discovery greeting. None of them is the
startup timeout's, so no run waits for it."""


def era_store(version: str) -> list[str]:
    release, _, autosave = version.partition(" ")
    python = PYPI / f"mcp@{release}" / "bin" / "python"
    if not python.is_file():
        pytest.skip(f"mcp=={release} is not installed: run scripts/install-pypi-sdks")
    return [*in_venv(ROOT / "tests/servers/era_store.py", python),
            *(["--autosave", "{tmpdir}/notes.json"] if autosave else [])]


def raw(*modes: str) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/raw_server.py"), *modes]


def targets() -> list[tuple[str, str, str]]:
    return [*((f"mcp {v}", v, "") for v in ERAS),
            *((f"raw {mode}", "", mode) for mode in ("exit-on-unknown", "drop-unknown"))]


def argv_of(version: str, mode: str) -> list[str]:
    return era_store(version) if version else raw(mode)


EXPECTED = {**ERAS, "": ("2025-11-25", RESTARTED)}


@pytest.mark.parametrize(("name", "version", "mode"), targets(), ids=[t[0] for t in targets()])
def test_the_server_connects_and_names_its_protocol(name: str, version: str, mode: str) -> None:
    with connect(argv_of(version, mode)) as conn:
        assert conn.server is not None
        assert (conn.server.protocol_version, conn.server.handshake) == EXPECTED[version]
        note = NOTES[version or mode]
        assert note in conn.server.handshake_note and bool(note) == bool(conn.server.handshake_note)
        assert conn.server.era == "legacy"
        starts = conn.stats.server_starts
        assert starts == (2 if EXPECTED[version][1] == RESTARTED else 1)
        assert conn.list_tools()
        conn.reopen()
        assert conn.stats.server_starts == starts + 1, "a second start greets with initialize at once"
        assert conn.list_tools()


@pytest.mark.parametrize(("name", "version", "mode"), targets(), ids=[t[0] for t in targets()])
def test_the_server_is_graded_and_only_the_sdks_own_faults_found(name: str, version: str, mode: str) -> None:
    report = shared_run(argv_of(version, mode), smoke=True)
    assert (report.server["protocol_version"], report.server["handshake"]) == EXPECTED[version]
    assert NOTES[version or mode] in report.server.get("handshake_note", "")
    assert report.grade in ("A", "B"), (report.grade, report.score)
    found = {(r.subject, r.rule, r.status) for r in report.results if r.status in ("fail", "warn") and r.kind != "lint"}
    assert found == (SDK_1X_FAULTS if version else set()), found


SDK_1X_FAULTS = {("server", "smoke_unknown_tool", "fail"), ("server", "refusal-nonstandard-code", "warn")}
"""The 1.x SDK's own answers, true of every server built on it and none of the store's tools: FastMCP
answers an unknown tool with an isError result, and refuses an unknown resource or prompt with error
code 0 (one warning about the code)."""


@pytest.mark.parametrize("dual", [False, True], ids=["modern", "dual"])
def test_a_modern_server_slow_to_start_is_greeted_with_discover(dual: bool) -> None:
    """A server that reads nothing for 2 s is not judged: the ping after the discovery request is
    answered only after it, so the discovery answer comes first, on the first start."""
    argv = [*SERVE, str(ROOT / "tests/servers/era_server.py"), "--slow-start", "2", *(["--dual"] if dual else [])]
    with connect(argv) as conn:
        assert conn.server is not None
        assert (conn.server.era, conn.server.handshake, conn.server.handshake_note) == \
            ("dual" if dual else "modern", "discover", "")
        assert conn.stats.server_starts == 1
        assert conn.call("ping").ok


def test_a_server_that_dies_during_the_handshake_says_so_with_its_exit_code_and_stderr() -> None:
    with pytest.raises(ServerStartError) as raised:
        connect(raw("die-at-start"), startup_timeout=10)
    assert raised.value.exit_code == 3
    assert "exited with code 3 before finishing the MCP handshake" in str(raised.value)
    assert "permission denied" in raised.value.stderr


def test_the_ping_of_a_slow_greeting_keeps_a_dual_era_server_in_the_discovery_era(tmp_path: Path) -> None:
    """server-filesystem 2.0.1 answers every request in the `initialize` era's shapes (no
    `resultType`) once one comes without the protocol version in its `_meta`. Started a second
    late, it reads the discovery request and the ping sent after it together; the ping carries the
    version, so the calls after it are not malformed."""
    node, entry = npm_server("server-filesystem", "2.0.1")
    with connect(["sh", "-c", 'sleep 1; exec "$0" "$@"', node, entry, str(tmp_path)]) as conn:
        assert conn.server is not None and conn.server.handshake == "discover"
        answer = conn.call("list_allowed_directories")
        assert conn._transport is not None and conn._transport.state.alive_at is not None, "no ping was answered"
        assert answer.kind == "result", answer.summary()
