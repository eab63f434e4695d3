"""A property-based test suite for the sample notes server, written with hypothesis-mcp's pytest plugin.

Run it against the correct server (every test passes):

    pytest examples/pytest_suite --mcp-server "python -m hypothesis_mcp.sample_server"

and against a buggy one (the state machine and the regression test fail, with probe-data-lost):

    pytest examples/pytest_suite --mcp-server "python -m hypothesis_mcp.sample_server --bug lose-on-write"

`mcp_server` is the plugin's fixture: a connected `hypothesis_mcp.Connection` to the server given
with --mcp-server. Hypothesis's @given cannot take function-scoped fixtures, so each property is a
small @given function inside the test, which calls the fixture's connection.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test

from hypothesis_mcp import Connection
from hypothesis_mcp.stateful import effect_machine
from hypothesis_mcp.strategies import Invalid, arguments, invalid_arguments

PROPERTY = settings(max_examples=25, deadline=None)
"""Each call goes to a live server: no per-example deadline."""


def test_get_note_answers_any_valid_title(mcp_server: Connection) -> None:
    """Every schema-valid call is served, and a missing note is `found: false`, not an error."""
    tool = mcp_server.tool("get_note")

    @PROPERTY
    @given(arguments(tool))
    def check(args: dict[str, Any]) -> None:
        outcome = mcp_server.call("get_note", args)
        assert outcome.ok, outcome.summary()
        assert outcome.structured["found"] in (True, False)

    check()


def test_list_notes_rejects_invalid_arguments(mcp_server: Connection) -> None:
    """Arguments that break the inputSchema (a limit of 0, a string limit, ...) are refused."""
    tool = mcp_server.tool("list_notes")

    @PROPERTY
    @given(invalid_arguments(tool))
    def check(invalid: Invalid) -> None:
        outcome = mcp_server.call("list_notes", invalid.value)
        assert outcome.rejected, f"accepted {invalid.value!r} ({invalid.description}): {outcome.summary()}"

    check()


def test_list_notes_honours_its_limit(mcp_server: Connection) -> None:
    """The same property with `st.data()`: draw the arguments inside the test.

    The `mcp_server` connection lives for the whole session, so reusing it across examples is
    safe; the health check that guards against function-scoped fixtures is turned off for that.
    """
    tool = mcp_server.tool("list_notes")

    @settings(PROPERTY, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        args = data.draw(arguments(tool, {"limit": data.draw(st.integers(1, 5), label="limit")}))
        outcome = mcp_server.call("list_notes", args)
        assert outcome.ok, outcome.summary()
        assert len(outcome.structured["notes"]) <= args["limit"]

    check()


def test_a_created_note_reads_back(mcp_server: Connection) -> None:
    """Whatever create_note accepts, get_note then returns, body included."""
    tool = mcp_server.tool("create_note")

    @PROPERTY
    @given(arguments(tool))
    def check(args: dict[str, Any]) -> None:
        assert mcp_server.call("create_note", args).ok
        got = mcp_server.call("get_note", {"title": args["title"]})
        assert got.ok and got.structured["found"], got.summary()
        assert got.structured["note"]["body"] == args["body"]

    check()


def test_notes_are_stored_overwritten_and_kept(mcp_server: Connection) -> None:
    """hypothesis-mcp's effect state machine: writes through create_note, overwrites by title,
    reads back through the server's read tools, and checks no earlier note goes missing.

    Every example starts a fresh server process from the same command, so a failing sequence of
    calls always starts from an empty store. Shrinking runs each candidate on a fresh server too,
    one server start per step, which can take minutes: this suite skips the shrink phase and keeps
    the first failing sequence. Drop `phases=...` to let Hypothesis shrink it.
    """
    machine = effect_machine(mcp_server.target, write="create_note")
    run_state_machine_as_test(machine, settings=settings(max_examples=10, stateful_step_count=10, deadline=None,
                                                         phases=[Phase.explicit, Phase.reuse, Phase.generate]))


@pytest.mark.mcp_server(scope="function")
def test_regression_a_second_note_keeps_the_first(mcp_server: Connection) -> None:
    """Regression test: the minimal sequence hypothesis-mcp found for probe-data-lost on the
    lose-on-write bug, replayed on a fresh server (the marker's function scope).

        create_note(first) · get_note(first) · create_note(second) · get_note(first)
    """
    first = {"title": "hm-regression-first", "body": "the first note"}
    second = {"title": "hm-regression-second", "body": "the second note"}
    assert mcp_server.call("create_note", first).ok
    assert mcp_server.call("get_note", {"title": first["title"]}).structured["found"]
    assert mcp_server.call("create_note", second).ok
    again = mcp_server.call("get_note", {"title": first["title"]})
    assert again.ok, again.summary()
    assert again.structured["found"], "probe-data-lost: the first note is gone after a second write"
    assert again.structured["note"]["body"] == first["body"]
