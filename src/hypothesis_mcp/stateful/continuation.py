"""A listing that answers one page and names where the next one starts, under a name of its own.

Before a listing that does not show a new record is said to miss it, the engine asks whether the
answer was the whole listing. A scalar member beside the items, given back through one of the
reader's unset optional parameters, that answers other items is shown to continue the listing,
and the pages it leads to are read too. Nothing here knows the member's or the parameter's name:
the server shows which member continues by answering with the next page.

A listing whose answer names no next page but that takes an offset or a page number (pages.py's
`paging_of`) is walked through that parameter: a page number counted up, an offset moved by the
records each page served. A page that shows none of the run's marked records ends the walk.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome, text_lines
from hypothesis_mcp.rules.answers import items_of, shown, values_of
from hypothesis_mcp.stateful.pages import Paging, paging_of
from hypothesis_mcp.strategies import find_markers

MAX_TRIES = 4
"""(member, parameter) pairs tried before the listing is taken as one page."""
MAX_PAGES = 20
MEMBER_LINE = re.compile(r"(?P<name>[A-Za-z_][\w.-]*): (?P<value>\S+)")
"""A text answer's scalar member, on a line of its own."""

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
            if answer.ok and _more(answer) and shown(answer) != seen:
                return _walk(call, reader.name, args, member, param, answer)
    return None


def pages_after(call: Caller, reader: Tool, args: dict[str, Any], first: Outcome) -> Continued | None:
    """The pages after `first`, through a member of the answer that continues the listing, else
    through the reader's own offset or page number; None when neither walks it."""
    followed = follow(call, reader, args, first)
    if followed is not None:
        return followed
    paging = paging_of(reader)
    if paging is None or paging.style == "cursor" or paging.move in args:
        return None
    if paging.style == "page":
        return _numbered(call, paging, args, first)
    served = _served(first)
    return _offsets(call, paging, args, served) if served else None


def page_full(reader: Tool, answer: Outcome) -> bool:
    """An answer holding exactly as many records as an optional integer parameter of the reader
    defaults to or allows at most: it may be one full page of more, whatever that parameter is
    called."""
    sizes = {schema.get(k) for name, schema in reader.properties.items()
             if name not in reader.required and isinstance(schema, dict) and schema.get("type") == "integer"
             for k in ("default", "maximum")}
    served = _served(answer)
    return served > 0 and served in sizes


def _served(page: Outcome) -> int:
    """The records a page served: its items, or else the distinct marked records its text shows."""
    items = items_of(page)
    return len(items) if items is not None else len(set(find_markers(shown(page))))


def _numbered(call: Caller, paging: Paging, args: dict[str, Any], first: Outcome) -> Continued:
    """Page numbers counted up from the one after the first page; where the schema does not say
    whether pages count from 0 or 1, a page equal to the first is passed over once."""
    done = Continued()
    at, unsure, last = (1 if paging.first is None else paging.first + 1), paging.first is None, shown(first)
    while len(done.pages) < MAX_PAGES:
        page = call(paging.reader.name, {**args, paging.move: at})
        at += 1
        if not page.ok:
            return done
        if shown(page) == last and unsure:
            unsure = False
            continue
        if not find_markers(shown(page)):
            done.ended = True
            return done
        if shown(page) == last:
            return done
        done.pages.append(page)
        last, unsure = shown(page), False
    return done


def _offsets(call: Caller, paging: Paging, args: dict[str, Any], at: int) -> Continued:
    """Offsets moved by the records each page served, from the end of the first page."""
    done = Continued()
    while len(done.pages) < MAX_PAGES:
        page = call(paging.reader.name, {**args, paging.move: at})
        if not page.ok:
            return done
        served = _served(page)
        if not find_markers(shown(page)) or not served:
            done.ended = True
            return done
        done.pages.append(page)
        at += served
    return done


def _walk(call: Caller, name: str, args: dict[str, Any], member: str, param: str, page: Outcome) -> Continued:
    done = Continued([page])
    while len(done.pages) < MAX_PAGES:
        value = dict(_scalars(page)).get(member)
        if value is None or not _more(page):
            done.ended = True
            return done
        page = call(name, {**args, param: value})
        if not page.ok or shown(page) == shown(done.pages[-1]):
            return done
        done.pages.append(page)
    return done


def _scalars(answer: Outcome) -> list[tuple[str, Any]]:
    """The top-level text and integer members of an answer object that holds its items in its one
    list member; in an answer that is no JSON, its `name: value` lines (a table's paging members)."""
    values = values_of(answer)
    for value in values:
        if isinstance(value, dict) and sum(isinstance(v, list) for v in value.values()) == 1:
            return [(k, v) for k, v in value.items()
                    if (isinstance(v, str) and v.strip()) or (isinstance(v, int) and not isinstance(v, bool))]
    if values:
        return []
    return [(m["name"], int(m["value"]) if m["value"].isdigit() else m["value"])
            for m in map(MEMBER_LINE.fullmatch, text_lines(answer.text)) if m and m["value"] != "null"]


def _more(page: Outcome) -> bool:
    """A page that shows records: items, or the run's marked values in text."""
    return bool(items_of(page) or find_markers(shown(page)))


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
