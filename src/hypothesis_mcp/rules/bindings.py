"""Values a server makes up, found in its answers and carried into later calls.

A record's id is the server's choice: a reproduction that creates a record and then updates it by
id holds the id the run saw, and a fresh server may choose another (a random uuid). The call whose
answer held the id says so (`Call.binds`); a replay finds the new id in the same place and gives it
to every later call in place of the old one.
"""

from __future__ import annotations

from typing import Any

from hypothesis_mcp.catalog import snake
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.results import Call
from hypothesis_mcp.rules.answers import has_values, records_holding, values_of
from hypothesis_mcp.rules.text_records import text_records


def find_id(outcome: Outcome, names: tuple[str, ...], holding: str | None = None) -> tuple[str, Any] | None:
    """(member name, value) of the first member named in `names` (compared in snake_case, in the order
    of `names`): at the top level of the answer's JSON or one level down, or, with `holding`, in the
    record of the answer that holds that marker token. The value is a non-empty text or an integer."""
    if not outcome.ok:
        return None
    if holding is not None:
        return _member(records_holding(outcome, holding), names)
    for value in values_of(outcome):
        found = _member([value], names)
        if found is None and isinstance(value, dict):
            found = _member([v for v in value.values() if isinstance(v, dict)], names)
        if found is None and isinstance(value, list) and len(value) == 1:
            found = _member(value, names)
        if found is not None:
            return found
    return None


def text_id(outcome: Outcome, names: tuple[str, ...]) -> tuple[str, Any] | None:
    """(member name, value) of the first member named in `names` among the text records of an answer
    with no JSON value (`asset_id: main.assets.10` lines, or a table): where a run found a made-up
    id in such an answer (stateful.watch.answer_values), a replay finds the fresh one there too."""
    if not outcome.ok or has_values(outcome):
        return None
    found = _member(text_records(outcome), names)
    return None if found is None else (found[0], found[1] if isinstance(found[1], int) else str(found[1]))


def says_no_more(outcome: Outcome, names: tuple[str, ...]) -> bool:
    """Whether the answer names one of `names` and leaves it empty (null, "", false): a cursor
    member that says the walk is over, where an absent member says nothing."""
    for value in values_of(outcome):
        objects = [value, *(v for v in value.values() if isinstance(v, dict))] if isinstance(value, dict) else []
        for obj in objects:
            if any(snake(member) in names and member_value in (None, "", False)
                   for member, member_value in obj.items()):
                return True
    return False


def _member(objects: list[Any], names: tuple[str, ...]) -> tuple[str, Any] | None:
    for name in names:
        wanted = snake(name)  # a binding may name the member as the answer spelt it (`crateNo`)
        for obj in objects:
            if not isinstance(obj, dict):
                continue
            for member, value in obj.items():
                if snake(member) == wanted and _usable(value):
                    return member, value
    return None


def _usable(value: Any) -> bool:
    return (isinstance(value, str) and bool(value.strip())) or (isinstance(value, int) and not isinstance(value, bool))


class Rebinder:
    """Replays calls with the values a fresh server made up in place of those the run saw."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def before(self, call: Call) -> Call:
        """The call with every argument equal to a bound run value replaced by the replay's value."""
        if not self.values:
            return call
        return Call(call.tool, self._swap(call.arguments), call.method, call.binds)

    def after(self, call: Call, outcome: Outcome) -> None:
        """Learn the replay's values of the call's bindings from its answer."""
        for binding in call.binds:
            found = find_id(outcome, binding.names, binding.holding)
            if found is None and binding.holding is None:
                found = text_id(outcome, binding.names)
            if found is not None and found[1] != binding.value:
                self.values[_key(binding.value)] = found[1]

    def swapped(self, value: Any) -> Any:
        """`value` with every bound run value in it replaced by the replay's (a law that names the id
        it read judges the replay's read by the id the replay asked)."""
        return self._swap(value) if self.values else value

    def _swap(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: self._swap(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return type(value)(self._swap(v) for v in value)
        if isinstance(value, str | int) and not isinstance(value, bool):
            new = self.values.get(_key(value))
            if new is not None:
                return in_type_of(value, new)
        return value


def _key(value: Any) -> str:
    """An id compares as text: an answer's integer 7 is the argument "7" of a tool typed string."""
    return str(value)


def in_type_of(like: Any, value: Any) -> Any:
    """`value` as the type `like` has (text, or an integer when it reads as one)."""
    if isinstance(like, str):
        return str(value)
    if isinstance(like, int) and isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return value
