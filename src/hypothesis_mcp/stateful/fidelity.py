"""Round-trip fidelity: does a read show each written field as it was written?

Only fields the write set are compared, under the same name, in the object of the read that holds
one of the record's marked values; fields the server adds (ids, timestamps) are never looked at.
A loss (a text cut, a number clamped, list items dropped, a value emptied) is high confidence; a
pure normalisation (whitespace folded or trimmed, letter case, Unicode form, number formatting) is a
warning. A list of strings read back with its duplicates merged and its blank items dropped (tags
kept as a set) holds every value written: no change.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.rules.answers import records_holding


@dataclass(frozen=True)
class Change:
    field: str
    written: Any
    read: Any
    token: str
    loss: bool
    message: str


def changes(args: dict[str, Any], outcome: Outcome, value_tokens: set[str]) -> list[Change]:
    """Every written field a read shows with another value, losses first."""
    found: list[Change] = []
    for written in _objects(args):
        own = sorted(t for t in value_tokens if any(t in text for text in _texts(written)))
        for token in own:
            # Items of one write share its marker: a shown object is this item's record only when
            # one of its fields is exactly as written, and one such record shown unchanged is enough.
            candidates = [shown_record for shown_record in records_holding(outcome, token)
                          if any(shown_record.get(n) == v for n, v in written.items() if not _nested(v))]
            seen = [_record_changes(written, shown_record, token) for shown_record in candidates]
            if seen and all(seen):
                found.extend(c for c in seen[0] if c not in found)
            if seen:
                break
    return sorted(found, key=lambda c: not c.loss)


def _record_changes(written: dict[str, Any], shown_record: dict[str, Any], token: str) -> list[Change]:
    found = []
    for name, value in written.items():
        if name in shown_record and not _nested(value):
            change = _compare(name, value, shown_record[name], token)
            if change is not None:
                found.append(change)
    return found


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _objects(item)
    elif isinstance(value, list):
        for item in value:
            yield from _objects(item)


def _texts(obj: dict[str, Any]) -> list[str]:
    texts = [v for v in obj.values() if isinstance(v, str)]
    return texts + [i for v in obj.values() if isinstance(v, list) for i in v if isinstance(i, str)]


def _nested(value: Any) -> bool:
    return isinstance(value, dict) or (isinstance(value, list) and any(isinstance(i, dict | list) for i in value))


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _compare(name: str, written: Any, read: Any, token: str) -> Change | None:
    if written == read and (type(written) is type(read) or (_number(written) and _number(read))):
        return None
    if written is None or read is None or written in ("", []):
        # null or an empty value written asks for no value (an empty list or a default read back is
        # no change); null read is a field the reader leaves out (a listing of metadata), not a value it lost.
        return None
    if isinstance(written, str) and isinstance(read, str):
        if _normal(written) == _normal(read):
            return Change(name, written, read, token, False,
                          f"{name!r} read back normalised ({len(written)} characters written, {len(read)} shown)")
        if not read:
            return Change(name, written, read, token, True, f"{name!r} emptied ({len(written)} characters written)")
        if len(read) < len(written):
            return Change(name, written, read, token, True,
                          f"{name!r} cut from {len(written):,} to {len(read):,} characters")
        return Change(name, written, read, token, False, f"{name!r} read back changed")
    if _number(written):
        try:
            same = float(read) == float(written)
        except (TypeError, ValueError):
            same = False
        if same:
            return Change(name, written, read, token, False, f"{name!r} {written!r} read back as {read!r}")
        return Change(name, written, read, token, True, f"{name!r}: value {written!r} read back as {read!r}")
    if isinstance(written, list) and isinstance(read, list):
        if (labels := _meaningful(written)) is not None and labels == _meaningful(read):
            return None  # a list of labels read back as a set: duplicates merged, blank items dropped
        if len(read) < len(written):
            return Change(name, written, read, token, True, f"{name!r}: {len(written)} written, {len(read)} shown")
        if sorted(map(repr, written)) == sorted(map(repr, read)):
            return None  # the same items in another order: a list is no promise of order
        return Change(name, written, read, token, False, f"{name!r}: items read back changed")
    if read == "" or read == []:
        return Change(name, written, read, token, True, f"{name!r} emptied")
    return None


def _meaningful(items: list[Any]) -> set[str] | None:
    """The distinct items of a list of strings that are not blank; None for any other list."""
    if not all(isinstance(i, str) for i in items):
        return None
    return {i for i in items if _normal(i)}


def _normal(text: str) -> str:
    """The text with its whitespace folded: line breaks turned into spaces and runs of them merged
    change how it is laid out, not what it says."""
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()
