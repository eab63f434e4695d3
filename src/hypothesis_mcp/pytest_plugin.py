"""pytest plugin: an `mcp_server` fixture for the server under test.

The server comes from `@pytest.mark.mcp_server(TARGET)`, `--mcp-server TARGET` or the
`mcp_server` ini option, in that order; `--mcp-server-scope` (or the marker's `scope=`) picks
one server for the whole session or a fresh one per test.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hypothesis_mcp.connection import Connection


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hypothesis-mcp")
    group.addoption("--mcp-server", default=None, help="MCP server under test: a command or an http(s) URL.")
    group.addoption("--mcp-server-scope", default=None, choices=("session", "function"),
                    help="One server for the session (default) or a fresh one per test.")
    group.addoption("--mcp-timeout", default=None, type=float, help="Seconds each tool call may take.")
    parser.addini("mcp_server", "MCP server under test (command or URL).", default=None)
    parser.addini("mcp_server_scope", "session or function.", default="session")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "mcp_server(target, scope='function'): the MCP server for this test.")


def _configured(config: pytest.Config) -> tuple[str | None, str, float]:
    target = config.getoption("--mcp-server") or config.getini("mcp_server") or None
    scope = config.getoption("--mcp-server-scope") or config.getini("mcp_server_scope") or "session"
    timeout = config.getoption("--mcp-timeout") or 30.0
    return target, scope, timeout


@pytest.fixture(scope="session")
def _mcp_session_server(pytestconfig: pytest.Config) -> Iterator[Connection | None]:
    target, scope, timeout = _configured(pytestconfig)
    if target is None or scope != "session":
        yield None
        return
    with Connection(target, timeout=timeout) as conn:
        yield conn


@pytest.fixture
def mcp_server(request: pytest.FixtureRequest, _mcp_session_server: Connection | None) -> Iterator[Connection]:
    """A connected `hypothesis_mcp.Connection` to the server under test."""
    marker = request.node.get_closest_marker("mcp_server")
    target, scope, timeout = _configured(request.config)
    if marker is not None:
        target = marker.args[0] if marker.args else marker.kwargs.get("target", target)
        scope = marker.kwargs.get("scope", "function")
    if target is None:
        pytest.skip("no MCP server given: use --mcp-server, the mcp_server ini option or @pytest.mark.mcp_server")
    if scope == "session" and marker is None and _mcp_session_server is not None:
        yield _mcp_session_server
        return
    with Connection(target, timeout=timeout) as conn:
        yield conn
