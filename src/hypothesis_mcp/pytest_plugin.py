"""pytest plugin: the server under test as a connection (`mcp_server`) or as a graded run
(`mcp_grade`), and a config's servers as test items (`--mcp-config`, in pytest_fleet.py).

The server comes from `@pytest.mark.mcp_server(TARGET)`, `--mcp-server TARGET` or the
`mcp_server` ini option, in that order; `--mcp-server-scope` (or the marker's `scope=`) picks
one server for the whole session or a fresh one per test. A test that needs a server and has none
errors, so a misconfigured CI job cannot pass with nothing tested; `@pytest.mark.mcp_optional`
makes it skip instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from hypothesis_mcp.connection import Connection, parse_target
from hypothesis_mcp.engine import RunOptions, run
from hypothesis_mcp.events import Event, ItemFinished
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.pytest_fleet import add_options, pytest_collection_modifyitems
from hypothesis_mcp.results import Report
from hypothesis_mcp.stateful.frames import user_traceback
from hypothesis_mcp.stateful.judge import ProbeFailure

__all__ = ["mcp_grade", "mcp_server", "pytest_addoption", "pytest_collection_modifyitems", "pytest_configure",
           "pytest_runtest_call"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hypothesis-mcp")
    group.addoption("--mcp-server", default=None, help="MCP server under test: a command or an http(s) URL.")
    group.addoption("--mcp-server-scope", default=None, choices=("session", "function"),
                    help="One server for the session (default) or a fresh one per test.")
    group.addoption("--mcp-timeout", default=None, type=float, help="Seconds each tool call may take.")
    add_options(group)
    parser.addini("mcp_server", "MCP server under test (command or URL).", default=None)
    parser.addini("mcp_server_scope", "session or function.", default="session")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "mcp_server(target, scope='function'): the MCP server for this test.")
    config.addinivalue_line("markers", "mcp_optional: skip this test, instead of erroring, when no MCP server "
                            "is given.")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """An effect machine's failure points at the user's test: its traceback keeps their frames
    only, unless `--full-trace` asks for every frame."""
    try:
        yield
    except ProbeFailure as failure:
        if item.config.getoption("fulltrace", False):
            raise
        raise failure.with_traceback(user_traceback(failure.__traceback__)) from None


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


def _for_test(request: pytest.FixtureRequest) -> tuple[str, str, float, bool]:
    """The test's server, scope and timeout, and whether a marker named them. Without a server the
    test errors, or skips when marked `mcp_optional`."""
    marker = request.node.get_closest_marker("mcp_server")
    target, scope, timeout = _configured(request.config)
    if marker is not None:
        target = marker.args[0] if marker.args else marker.kwargs.get("target", target)
        scope = marker.kwargs.get("scope", "function")
    if target is None:
        how = "no MCP server given: use --mcp-server, the mcp_server ini option or @pytest.mark.mcp_server"
        if request.node.get_closest_marker("mcp_optional") is not None:
            pytest.skip(how)
        pytest.fail(f"{how} (or mark the test @pytest.mark.mcp_optional to skip it without one)", pytrace=False)
    return target, scope, timeout, marker is not None


@pytest.fixture
def mcp_server(request: pytest.FixtureRequest, _mcp_session_server: Connection | None) -> Iterator[Connection]:
    """A connected `hypothesis_mcp.Connection` to the server under test."""
    target, scope, timeout, marked = _for_test(request)
    if scope == "session" and not marked and _mcp_session_server is not None:
        yield _mcp_session_server
        return
    with Connection(target, timeout=timeout) as conn:
        yield conn


def _shown(config: pytest.Config) -> Callable[[Event], None]:
    """Under `-v`, each finished tool or check as a line of pytest's own output; quiet otherwise."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")

    def show(event: Event) -> None:
        if reporter is None or config.get_verbosity() < 1 or not isinstance(event, ItemFinished):
            return
        calls = event.counts.calls
        line = f"hypothesis-mcp {event.phase} {event.name}: {event.status or 'done'} ({calls} calls so far)"
        if capture is None:
            reporter.write_line(line)
            return
        with capture.global_and_fixture_disabled():
            reporter.write_line(line)

    return show


@pytest.fixture
def mcp_grade(request: pytest.FixtureRequest) -> Callable[..., Report]:
    """Grade the server under test as `hypothesis-mcp test` does: call it with `RunOptions` fields
    (`profile` may be a profile name) and get the report back. Each call starts servers of its own,
    whatever the scope."""
    target, _, timeout, _ = _for_test(request)

    def grade(**options: Any) -> Report:
        if isinstance(options.get("profile"), str):
            options["profile"] = make_profile(options["profile"])
        options.setdefault("timeout", timeout)
        return run(parse_target(target), RunOptions(**options), events=_shown(request.config))

    return grade
