"""The records a text answer shows: a block of `name: value` lines, or the rows of a markdown table
under its header. A value is JSON where it parses as JSON and the text as written otherwise (then a
`Plain` text: the format cannot say where it starts or ends, so a judgement of its whitespace is
weak). An empty table cell is a field the record does not show."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.rules.answers import has_values, records_holding, values_of

LINE = re.compile(r"^([A-Za-z_][\w.-]*): ?(.*)$")
CELL = re.compile(r"(?<!\\)\|")


class Plain(str):
    """A value written as text, not as JSON."""

    __slots__ = ()


def value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return Plain(text)


def text_records(outcome: Outcome) -> list[dict[str, Any]]:
    """Each record of the answer's text, in order: the table's rows, then each block of lines."""
    return [record for record, _ in _records(outcome)]


def table_rows(outcome: Outcome) -> list[dict[str, Any]]:
    """The rows of the answer's tables alone: a text page's items (the `name: value` lines after its
    table, a total or a next page, are none)."""
    return [record for record, row in _records(outcome) if row]


def _records(outcome: Outcome) -> list[tuple[dict[str, Any], bool]]:
    """Each record of the answer's text, and whether it is a table's row."""
    lines = [line.removesuffix("\r") for line in outcome.text.split("\n")]  # only \n ends a line here
    found: list[tuple[dict[str, Any], bool]] = []
    block: dict[str, Any] = {}
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.lstrip().startswith("|") and index + 1 < len(lines) and _separator(lines[index + 1]):
            header = _cells(line)
            index += 2
            while index < len(lines) and lines[index].lstrip().startswith("|"):
                row = _cells(lines[index])
                found.append(({h: value(c) for h, c in zip(header, row, strict=False) if h and c}, True))
                index += 1
            continue
        match = LINE.match(line)
        if match is not None:
            block[match.group(1)] = value(match.group(2))
        elif block:
            found.append((block, False))
            block = {}
        index += 1
    if block:
        found.append((block, False))
    return found


def text_records_holding(outcome: Outcome, token: str) -> list[dict[str, Any]]:
    """The text records that hold `token` in one of their texts or lists of texts."""
    return [r for r in text_records(outcome) if any(
        token in t for v in r.values() for t in ([v] if isinstance(v, str) else v if isinstance(v, list) else [])
        if isinstance(t, str))]


def _separator(line: str) -> bool:
    return set(line.replace("|", "").strip()) <= set("-: ") and "-" in line


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [c.strip().replace("\\|", "|") for c in CELL.split(inner)]


def records_of(outcome: Outcome, token: str) -> list[dict[str, Any]]:
    """The records an answer shows holding `token`: its JSON objects, or where it has no JSON value,
    its text records."""
    if has_values(outcome):
        return records_holding(outcome, token)
    return text_records_holding(outcome, token)


def nested_objects(value: Any, depth: int = 0) -> list[dict[str, Any]]:
    """Every object in a JSON value, itself first, eight levels deep at most: a record may sit at any
    depth of an answer."""
    if isinstance(value, dict) and depth < 8:
        return [value, *(o for v in value.values() for o in nested_objects(v, depth + 1))]
    if isinstance(value, list) and depth < 8:
        return [o for v in value for o in nested_objects(v, depth + 1)]
    return []


def records_for(answer: Outcome, token: str) -> list[dict[str, Any]]:
    """The records an answer shows holding `token`: a marked text anywhere in one of their texts; a
    marker's number (a record with no text to mark: stateful.laws.model.numbered) as the whole value
    of one of their fields, or its whole part (the number was written with a fraction, which the store
    may have cut)."""
    if not token.isdigit():
        return records_of(answer, token)
    number = int(token)

    def holds(value: Any) -> bool:
        if isinstance(value, str):
            text = value.strip()
            return text == token or (text.startswith(f"{token}.") and text[len(token) + 1:].isdigit())
        return not isinstance(value, bool) and isinstance(value, int | float) and number <= value < number + 1

    found = [o for v in values_of(answer) for o in nested_objects(v)] if has_values(answer) else text_records(answer)
    return [r for r in found if any(holds(v) for v in r.values())]
