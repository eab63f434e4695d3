"""Observation: the whole of what a listing shows, page after page where it pages.

A listing may answer one page and name where the next one starts, under a member and a parameter
of its own naming. Which member continues it is learned by trying, never read from names: a
scalar the answer shows beside its items (a JSON member of the object that holds the items, or a
`name: value` line after a table), given back through one of the tool's unset optional parameters
that can hold it, continues the listing when that call answers items the first page did not.
A listing that names no next page may take a page number: an unset optional integer parameter
pages it when the number its schema starts from (its default, else its minimum) answers the
listing's own first page and the next number answers other records, none of the first page's.
Once learned, a look walks to the page that names no next one (or, by number, to the first page
with no records), and the pages are joined into one answer (their items in one list or table), so
a snapshot is the whole listing, not its first page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.rules.answers import shown

MAX_PAGES = 25
LINE = re.compile(r"^([A-Za-z_][\w.-]*)\s*[:=]\s*(\S.*?)\s*$")
"""A `name: value` line outside a table: where a text answer names its next page."""

Caller = Callable[[dict[str, Any]], Outcome]


@dataclass(frozen=True)
class Pager:
    """How a listing continues: its answer's `member`, given back as the tool's `param`."""

    member: str
    param: str


@dataclass(frozen=True)
class Numbered:
    """A listing paged by number: `param` at `first` answers its first page, each next number the
    next page."""

    param: str
    first: int


def holder(value: Any, depth: int = 0) -> dict[str, Any] | None:
    """The object of a JSON answer that holds its items: the first one with exactly one list member."""
    if not isinstance(value, dict) or depth > 3:
        return None
    if sum(isinstance(v, list) for v in value.values()) == 1:
        return value
    for item in value.values():
        if (found := holder(item, depth + 1)) is not None:
            return found
    return None


def data(answer: Outcome) -> Any:
    """The answer's JSON: its structuredContent, unless that holds no items where its text, parsed as
    JSON, does (a text answer the server's SDK wrapped as `{"result": text}`)."""
    value = answer.value()
    if not answer.has_structured or isinstance(value, list) or holder(value) is not None:
        return value
    try:
        parsed = json.loads(answer.text)
    except ValueError:
        return value
    return parsed if isinstance(parsed, list) or holder(parsed) is not None else value


def scalars(answer: Outcome) -> dict[str, Any]:
    """The texts and integers an answer shows beside its items, by member."""
    value = data(answer)
    if isinstance(value, dict | list):
        found = holder(value)
        return {k: v for k, v in (found or {}).items()
                if (isinstance(v, str) and v.strip()) or (isinstance(v, int) and not isinstance(v, bool))}
    pairs = (LINE.match(line.strip()) for line in answer.text.splitlines() if not line.lstrip().startswith("|"))
    return {m.group(1): scalar(m.group(2)) for m in pairs if m is not None and scalar(m.group(2)) is not None}


def scalar(text: str) -> str | int | None:
    """A line's value: a JSON text or integer as such, a line that is no JSON as written, None for other JSON."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, str | int) and not isinstance(value, bool) else None


def items(answer: Outcome) -> list[Any]:
    """The items of one page: the list its JSON holds, else the rows of its table."""
    value = data(answer)
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and (found := holder(value)) is not None:
        return next(v for v in found.values() if isinstance(v, list))
    return table(answer.text)[1]


def table(text: str) -> tuple[list[str], list[str], list[str]]:
    """A text's lines before its table's rows, the rows (header and separator left out), the lines
    after. Rows end at line feeds only: a cell may hold a character `str.splitlines` also breaks at
    (\x1c, \x85, \u2028...), and the row is still one."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("|")), None)
    if start is None or start + 1 >= len(lines) or not set(lines[start + 1].replace("|", "").strip()) <= set("-: "):
        return lines, [], []
    end = start + 2
    while end < len(lines) and lines[end].lstrip().startswith("|"):
        end += 1
    return lines[:start + 2], lines[start + 2:end], lines[end:]


def accepts(tool: Tool, param: str, value: Any) -> bool:
    schema = tool.properties.get(param)
    if not isinstance(schema, dict):
        return False
    # An optional parameter may be declared as one type or null (`anyOf`): each branch's type counts.
    branches = [schema, *(b for b in schema.get("anyOf") or schema.get("oneOf") or [] if isinstance(b, dict))]
    types = {t for b in branches for t in ([b["type"]] if isinstance(b.get("type"), str) else b.get("type") or [])}
    wanted = {"string"} if isinstance(value, str) else {"integer", "number"}
    return bool(types & wanted) and "enum" not in schema and "const" not in schema


def find_pager(call: Caller, tool: Tool, args: dict[str, Any], first: Outcome,
               tried: set[tuple[str, str]]) -> Pager | None:
    """The member and parameter that continue the listing; each pair that answered no other items is
    added to `tried` and not tried again."""
    old = {json.dumps(i, sort_keys=True) for i in items(first)}
    for member, value in scalars(first).items():
        for param in tool.properties:
            if param in args or param in tool.required or (member, param) in tried or not accepts(tool, param, value):
                continue
            tried.add((member, param))
            answer = call({**args, param: value})
            new = [i for i in items(answer) if json.dumps(i, sort_keys=True) not in old]
            if answer.ok and new:
                return Pager(member, param)
    return None


def numbers(tool: Tool, param: str) -> list[int]:
    """The page numbers a listing's parameter may start from: its default, else its minimum, else 0
    and 1."""
    schema = tool.properties.get(param)
    if not isinstance(schema, dict) or schema.get("type") != "integer" or "enum" in schema or "const" in schema:
        return []
    for key in ("default", "minimum"):
        if isinstance(schema.get(key), int) and not isinstance(schema.get(key), bool):
            return [schema[key]]
    return [0, 1]


def find_numbered(call: Caller, tool: Tool, args: dict[str, Any], first: Outcome,
                  tried: set[tuple[str, str]]) -> Numbered | None:
    """The parameter that pages the listing by number: the next number answers records, none of
    them on the first page, and the starting number answers the first page itself. A parameter
    whose next number answered records the first page shows too (a size, an offset) is added to
    `tried`; one whose next page is still empty is tried again at a later look."""
    old = [json.dumps(i, sort_keys=True) for i in items(first)]
    if not old:
        return None
    for param in tool.properties:
        if param in args or param in tool.required:
            continue
        for start in numbers(tool, param):
            if (f"#{start}", param) in tried:
                continue
            second = call({**args, param: start + 1})
            new = [json.dumps(i, sort_keys=True) for i in items(second)] if second.ok else []
            if not new:
                continue
            again = call({**args, param: start})
            if set(new) & set(old) or not again.ok or [json.dumps(i, sort_keys=True) for i in items(again)] != old:
                tried.add((f"#{start}", param))
                continue
            return Numbered(param, start)
    return None


def walk(call: Caller, args: dict[str, Any], first: Outcome,
         pager: Pager | Numbered) -> tuple[Outcome, int, bool]:
    """Every page from `first` on, joined; how many; whether the last named no next page (by
    number: whether a page with no records, or none not seen before, was reached)."""
    pages = [first]
    while len(pages) < MAX_PAGES:
        if isinstance(pager, Numbered):
            page = call({**args, pager.param: pager.first + len(pages)})
            seen = {json.dumps(i, sort_keys=True) for p in pages for i in items(p)}
            if not page.ok or all(json.dumps(i, sort_keys=True) in seen for i in items(page)):
                return joined(pages), len(pages), True
            pages.append(page)
            continue
        value = scalars(pages[-1]).get(pager.member)
        if value is None or not items(pages[-1]):
            return joined(pages), len(pages), True
        page = call({**args, pager.param: value})
        if not page.ok or shown(page) == shown(pages[-1]):
            break
        pages.append(page)
    return joined(pages), len(pages), False


def joined(pages: list[Outcome]) -> Outcome:
    """One answer holding every page's items, in the place the first page holds its own."""
    first = pages[0]
    if len(pages) == 1:
        return first
    value = json.loads(json.dumps(data(first)))
    if isinstance(value, dict) and (found := holder(value)) is not None:
        member = next(k for k, v in found.items() if isinstance(v, list))
        found[member] = [i for page in pages for i in items(page)]
        text = json.dumps(value, ensure_ascii=False)
        # A text answer's structuredContent only wraps that text: the joined text stands alone.
        wrapped = first.has_structured and holder(first.value()) is None
        return replace(first, content=[{"type": "text", "text": text}], structured=None if wrapped else (
            value if first.has_structured else first.structured), has_structured=first.has_structured and not wrapped)
    head, rows, tail = table(first.text)
    rows = rows + [r for page in pages[1:] for r in table(page.text)[1]]
    return replace(first, content=[{"type": "text", "text": "\n".join([*head, *rows, *tail])}])
