"""A listing that answers one page and names where the next one starts, under a name of its own.

Before a listing that does not show a new record is said to miss it, the engine asks whether the
answer was the whole listing. A scalar member beside the items, given back through one of the
reader's unset optional parameters, that answers other items is shown to continue the listing,
and the pages it leads to are read too. Nothing here knows the member's or the parameter's name:
the server shows which member continues by answering with the next page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.rules.answers import items_of, shown, values_of

MAX_TRIES = 4
"""(member, parameter) pairs tried before the listing is taken as one page."""
MAX_PAGES = 20

Caller = Callable[[str, dict[str, Any]], Outcome]


@dataclass
class Continued:
    """The pages read after the first, and whether the last one named no next page."""

    pages: list[Outcome] = field(default_factory=list)
    ended: bool = False


def follow(call: Caller, reader: Tool, args: dict[str, Any], first: Outcome) -> Continued | None:
    """The pages after `first`, or None when no member of it continues the listing."""
    seen = shown(first)
    tries = 0
    for member, value in _scalars(first):
        for param in _unset(reader, args, value):
            if tries >= MAX_TRIES:
                return None
            tries += 1
            answer = call(reader.name, {**args, param: value})
            if answer.ok and items_of(answer) and shown(answer) != seen:
                return _walk(call, reader.name, args, member, param, answer)
    return None


def _walk(call: Caller, name: str, args: dict[str, Any], member: str, param: str, page: Outcome) -> Continued:
    done = Continued([page])
    while len(done.pages) < MAX_PAGES:
        value = dict(_scalars(page)).get(member)
        if value is None or not items_of(page):
            done.ended = True
            return done
        page = call(name, {**args, param: value})
        if not page.ok or shown(page) == shown(done.pages[-1]):
            return done
        done.pages.append(page)
    return done


def _scalars(answer: Outcome) -> list[tuple[str, Any]]:
    """The top-level text and integer members of an answer object that holds its items in its one
    list member."""
    for value in values_of(answer):
        if isinstance(value, dict) and sum(isinstance(v, list) for v in value.values()) == 1:
            return [(k, v) for k, v in value.items()
                    if (isinstance(v, str) and v.strip()) or (isinstance(v, int) and not isinstance(v, bool))]
    return []


def _unset(reader: Tool, args: dict[str, Any], value: Any) -> list[str]:
    """The reader's optional parameters left unset whose declared type can hold `value`."""
    wanted = "string" if isinstance(value, str) else "integer"
    return [name for name, schema in reader.properties.items()
            if name not in args and name not in reader.required and isinstance(schema, dict)
            and _types(schema) & {wanted, "number" if wanted == "integer" else wanted}]


def _types(schema: dict[str, Any]) -> set[str]:
    declared = schema.get("type")
    types = {declared} if isinstance(declared, str) else set(declared or [])
    for option in schema.get("anyOf", []) + schema.get("oneOf", []):
        if isinstance(option, dict):
            types |= _types(option)
    return types
