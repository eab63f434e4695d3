"""Drawn values that print as the calls they become, for Hypothesis's printout of a failing run.

Hypothesis prints each step of a state machine with the `repr` of its arguments. The machine's raw
arguments are dicts and (tool, bound) pairs holding whole `Tool` objects, dozens of lines each; a
user reading a failure wants `create_note(title='hm00000000-title', body='')`.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st


class ShownCall(dict[str, Any]):
    """A tool's arguments that print as the call: `create_note(title='hm…', body='')`."""

    def __init__(self, tool: str, arguments: dict[str, Any]) -> None:
        super().__init__(arguments)
        self.tool = tool

    def __repr__(self) -> str:
        return f"{self.tool}({', '.join(f'{k}={v!r}' for k, v in self.items())})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


class ShownChoice(tuple[Any, ...]):
    """A (tool or reader, bound) pair that prints as the bounded parameter: `list_notes(limit=…)`."""

    def __repr__(self) -> str:
        owner, bound = self
        tool = getattr(owner, "tool", owner)
        return f"{tool.name}({bound.param}=…)"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


def shown_calls(tool: str, arguments: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """The same draws, printed as calls of `tool` (mapping draws nothing more)."""
    return arguments.map(lambda drawn: ShownCall(tool, drawn))
