"""Reading an answer: its text, its list of items, its lines. Every judgement reads answers the same way."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.connection import Outcome, text_lines


def shown(outcome: Outcome) -> str:
    """Everything a read returned, as one searchable text."""
    parts = [outcome.text]
    if outcome.has_structured:
        parts.append(json.dumps(outcome.structured, ensure_ascii=False))
    return "\n".join(parts)


def count_items(outcome: Outcome, unit: str = "auto") -> tuple[int, str]:
    """Items from structuredContent (a list, or an object with one list field), then from a JSON
    result of that shape, otherwise text lines."""
    if unit in ("auto", "items"):
        for value in (outcome.structured if outcome.has_structured else None, _json(outcome.text)):
            items = _items(value)
            if items is not None:
                return len(items), "items"
    return len(lines(outcome)), "lines"


def items_of(outcome: Outcome) -> list[Any] | None:
    for value in (outcome.structured if outcome.has_structured else None, _json(outcome.text)):
        items = _items(value)
        if items is not None:
            return items
    return None


def lines(outcome: Outcome) -> list[str]:
    """The lines a read returned: a list of strings in structuredContent when there is one (text
    loses trailing empty lines), else the text split into lines."""
    items = _items(outcome.structured) if outcome.has_structured else None
    if items is not None and all(isinstance(i, str) for i in items):
        return list(items)
    text = outcome.text
    if outcome.has_structured and isinstance(outcome.structured, dict):
        strings = [v for v in outcome.structured.values() if isinstance(v, str)]
        if len(strings) == 1 and not text:
            text = strings[0]
    return text_lines(text)


def held_with(outcome: Outcome, key: str, tokens: Iterable[str], whole: bool,
              besides: str | None = None) -> set[str]:
    """The `tokens` an answer shows in the same record as `key`: with `whole` (a read asked for that
    one record) anywhere in it; otherwise in the objects, else the lines, that hold `key`. Parts
    that also hold `besides` (a moved record that names where it came from) are not that record."""
    if not outcome.ok:
        return set()
    if whole:
        parts = [shown(outcome)]
    else:
        parts = [json.dumps(o, ensure_ascii=False) for o in records_holding(outcome, key)]
        parts = parts or [line for line in lines(outcome) if key in line]
    parts = [p for p in parts if besides is None or besides not in p]
    return {t for t in tokens if any(t in p for p in parts)}


def records_holding(outcome: Outcome, token: str) -> list[dict[str, Any]]:
    """The objects of a structured answer (structuredContent, or JSON text) that hold `token` in one
    of their own texts or lists of texts: the records a read shows for a marked write."""
    found: list[dict[str, Any]] = []
    for obj, texts in _read(outcome).objects:
        if any(token in t for t in texts) and obj not in found:
            found.append(obj)
    return found


def has_values(outcome: Outcome) -> bool:
    """Whether the answer has a JSON value (`values_of` is not empty)."""
    return _read(outcome).has_values


@dataclass
class _Read:
    """An answer's objects with their texts, read once: a judgement asks one answer for the records
    of many markers (a listing after every write, for each record the run holds), and walking and
    parsing the answer again for each was about half of the client's profiled time in a laws machine's run."""

    outcome: Outcome
    content: list[dict[str, Any]]
    structured: Any
    text: str
    has_values: bool
    objects: list[tuple[dict[str, Any], list[str]]]


_READS: dict[int, _Read] = {}
_KEPT = 64
_LOCK = threading.Lock()


def _read(outcome: Outcome) -> _Read:
    """The answer read, kept for the last few answers asked about (by identity: an entry holds its
    answer, so the identity is not reused while kept; one whose parts were replaced is read again)."""
    text = outcome.text
    kept = _READS.get(id(outcome))
    if kept is not None and kept.outcome is outcome and kept.content is outcome.content \
            and kept.structured is outcome.structured and kept.text == text:
        return kept
    parsed = _json(text)
    objects = []
    for value in (outcome.structured if outcome.has_structured else None, parsed):
        for obj in _objects(value):
            texts = [v for v in obj.values() if isinstance(v, str)]
            texts += [i for v in obj.values() if isinstance(v, list) for i in v if isinstance(i, str)]
            objects.append((obj, texts))
    read = _Read(outcome, outcome.content, outcome.structured, text,
                 outcome.has_structured or parsed is not None, objects)
    with _LOCK:  # lanes (--workers) read answers in threads of their own
        _READS[id(outcome)] = read
        if len(_READS) > _KEPT:
            del _READS[next(iter(_READS))]
    return read


def _objects(value: Any, depth: int = 0) -> list[dict[str, Any]]:
    if depth > 8:
        return []
    if isinstance(value, dict):
        return [value, *(o for v in value.values() for o in _objects(v, depth + 1))]
    if isinstance(value, list):
        return [o for v in value for o in _objects(v, depth + 1)]
    return []


def values_of(outcome: Outcome) -> list[Any]:
    """The answer's JSON values: its structuredContent, then its text when that parses as JSON."""
    found = [outcome.structured] if outcome.has_structured else []
    parsed = _json(outcome.text)
    if parsed is not None:
        found.append(parsed)
    return found


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _items(value: Any) -> list[Any] | None:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        lists = [v for v in value.values() if isinstance(v, list)]
        if len(lists) == 1:
            return lists[0]
    return None


NUMBER = re.compile(r"(?<![\w.-])\d+(?![\w.])")
SHAPE = 120
"""Characters of a line up to a number that name its place."""


def numbers_in(outcome: Outcome) -> dict[str, float]:
    """The numbers an answer shows outside any list, each by its place: a dotted path through the
    objects of a JSON answer (`stats.total`), or the line of a plain text that shows it. Numbers
    inside lists belong to records, not to the answer: they are left out."""
    value = outcome.structured if outcome.has_structured else _json(outcome.text)
    if isinstance(value, dict):
        return dict(_numbers(value, ""))
    if value is None:
        return dict(_text_numbers(outcome.text))
    return {}


def _text_numbers(text: str) -> Iterator[tuple[str, float]]:
    """Each number of a text by its line up to it, numbers blanked (`'total: #'`), not by its rank
    in the text: a number a record's value holds (a row of a table) would shift every rank after it,
    while a line that shows a record's values before a number changes with the record and so is no
    one place. What follows a number (`1 note`, `2 notes`) leaves its place as it was."""
    seen: dict[str, int] = {}
    for line in text_lines(text):
        for m in NUMBER.finditer(line):
            place = NUMBER.sub("#", line[:m.end()]).strip()[:SHAPE]
            seen[place] = seen.get(place, 0) + 1
            yield f"'{place}'" + (f" @{seen[place]}" if seen[place] > 1 else ""), float(m.group())


def _numbers(value: dict[str, Any], prefix: str, depth: int = 0) -> Iterator[tuple[str, float]]:
    for name, item in value.items():
        path = f"{prefix}{name}"
        if isinstance(item, int | float) and not isinstance(item, bool):
            yield path, float(item)
        elif isinstance(item, dict) and depth < 4:
            yield from _numbers(item, f"{path}.", depth + 1)


def claimed_record(value: Any, asked: Iterable[str]) -> dict[str, Any] | None:
    """The record an answer shows for an id it was asked for: an object (or the one object a list or
    a lone member wraps) that carries the asked id as a member's value beside at least two other
    members that are not null. An empty answer (null, [], {}, `{"item": null}`) or an object that
    does not claim the id is no record: how a server says "nothing there"."""
    value = _unwrapped(value)
    if not isinstance(value, dict):
        return None
    echoed = _echoed(value, asked)
    others = [k for k, v in value.items() if v is not None and k not in echoed]
    return value if echoed and len(others) >= 2 else None


def shaped_record(value: Any, asked: Iterable[str], members: Iterable[str],
                  flags: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """The record an answer shows for an id it was asked for, in a record shape known from elsewhere:
    an object (unwrapped as claimed_record does) that carries the asked id as a member's value and no
    member outside `members` (those a stored record carries, or a write takes). A record made up
    on the spot may hold only the id and a default, too little for claimed_record: the known shape,
    not the count of members, tells it from an answer about the id. The object an envelope holds
    beside its flags (`{"ok": true, "value": {...}}`) is read too. `flags` are members every stored
    record showed true: one false here is the answer saying no record is there (`{"id": ..., "found":
    false}` where stored records carried `"found": true`), whatever the member is called."""
    known = set(members)
    if not known:
        return None
    return next((v for v in records_under(value, asked) if set(v) <= known
                 and not any(v.get(f) is False for f in flags)), None)


def records_under(value: Any, asked: Iterable[str]) -> list[dict[str, Any]]:
    """The objects an answer shows under an id it was asked for, unwrapped as shaped_record reads
    them: a stored record's own members, where a marked value sits deeper (in a nested object)."""
    return [v for v in _enveloped(_unwrapped(value)) if _echoed(v, asked)]


def _enveloped(value: Any) -> list[dict[str, Any]]:
    """An object, and the one object it holds beside flags that say it succeeded (`{"ok": true,
    "value": {...}}`), unwrapped as deep as it goes. Beside any other plain member (`{"status":
    "not_found", "query": {"id": ...}}`) the inner object may be the question, not a record; beside a
    false flag (`{"ok": false, "error": {...}}`) the answer is no success."""
    if not isinstance(value, dict):
        return []
    inner = [v for v in value.values() if isinstance(v, dict | list)]
    if len(inner) != 1 or len(value) == 1 or any(v is not True for v in value.values() if v is not inner[0]):
        return [value]
    return [value, *_enveloped(_unwrapped(inner[0]))]


def _unwrapped(value: Any) -> Any:
    """The object a lone member or a one-item list wraps, as deep as it goes."""
    while isinstance(value, dict) and len(value) == 1 and isinstance(next(iter(value.values())), dict | list):
        value = next(iter(value.values()))
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    return value


def _echoed(value: dict[str, Any], asked: Iterable[str]) -> list[str]:
    ids = {str(a) for a in asked}
    return [k for k, v in value.items() if isinstance(v, str | int) and not isinstance(v, bool) and str(v) in ids]


def blank(value: Any) -> bool:
    """A default: an empty text, zero, false, an empty list or object, null."""
    return value is None or value is False or value == 0 or value in ("", [], {}) or \
        (isinstance(value, str) and not value.strip())
