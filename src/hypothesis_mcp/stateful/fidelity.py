"""Round-trip fidelity: does a read show each written field as it was written?

Only fields the write set are compared, under the same name, in the object of the read that holds
one of the record's marked values; fields the server adds (ids, timestamps) are never looked at.
A loss (a text cut, a number clamped, list items dropped, a value emptied) is high confidence; a
pure normalisation (whitespace folded or trimmed, control characters stripped, letter case, Unicode
form, number formatting) is a warning. A list of strings read back with its duplicates merged and
its blank items dropped (tags kept as a set) holds every value written: no change.

Given the write's enum members (`typed`, the fields probe), every type is judged: a boolean read
back as the other one, an enum member read back as another, a nested object read back without a
field it was written with (each of its fields compared the same way), and a top-level field one
record lacks while the same answer shows it on another record of the same write (`dropped`). A
field written empty, zero or false and left out is a sparse encoding, a warning.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
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


def each_field(found: list[Change]) -> list[Change]:
    """The first change of each field, in order: two fields broken by one write are two causes."""
    return [c for n, c in enumerate(found) if all(c.field != before.field for before in found[:n])]


Enums = Mapping[str, Sequence[Any]]
"""Field name to the members its schema allows: given, the comparison judges every type."""


def changes(args: dict[str, Any], outcome: Outcome, value_tokens: set[str], typed: Enums | None = None) -> list[Change]:
    """Every written field a read shows with another value, losses first."""
    found: list[Change] = []
    for written in _objects(args):
        own = sorted(t for t in value_tokens if any(t in text for text in _texts(written)))
        for token in own:
            # Items of one write share its marker: a shown object is this item's record only when
            # one of its fields is exactly as written, and one such record shown unchanged is enough.
            candidates = [shown_record for shown_record in records_holding(outcome, token)
                          if any(shown_record.get(n) == v for n, v in written.items() if not _nested(v))]
            seen = [_record_changes(written, shown_record, token, typed) for shown_record in candidates]
            if seen and all(seen):
                found.extend(c for c in seen[0] if c not in found)
            if seen:
                break
    return sorted(found, key=lambda c: not c.loss)


def _record_changes(written: dict[str, Any], shown_record: dict[str, Any], token: str,
                    typed: Enums | None) -> list[Change]:
    found: list[Change] = []
    for name, value in written.items():
        if name not in shown_record:
            continue
        read = shown_record[name]
        if typed is not None and isinstance(value, dict) and isinstance(read, dict):
            found.extend(_object_changes(name, name, value, read, token, typed))
        elif not _nested(value) or (typed is not None and isinstance(value, list)):
            change = _compare(name, value, read, token, typed)
            if change is not None:
                found.append(change)
    return found


def _object_changes(field: str, path: str, written: dict[str, Any], read: dict[str, Any], token: str,
                    typed: Enums) -> Iterator[Change]:
    """A nested object's fields, each judged as a field; the change names the top-level `field`
    (the one a replay compares) and says where inside it the value changed."""
    for name, value in written.items():
        at = f"{path}.{name}"
        if value is None:
            continue
        if name not in read:
            if read:
                yield Change(field, written, read, token, bool(value), f"{at!r} left out of the nested object "
                             f"({_kind(value)} written{'' if value else ', a sparse encoding'})")
            continue
        if isinstance(value, dict) and isinstance(read[name], dict):
            yield from _object_changes(field, at, value, read[name], token, typed)
            continue
        change = _compare(at, value, read[name], token, typed, name)
        if change is not None:
            yield Change(field, written, read, token, change.loss, change.message)


def dropped(args: dict[str, Any], outcome: Outcome, tokens: Iterable[str], witnesses: Iterable[str]) -> list[Change]:
    """Written top-level fields the record (the objects holding one of `tokens`) shows without a
    value while the same answer shows a value for them on another record (one holding a witness
    token): the reader shows the field, and lost it for this record. Losses first."""
    held = [t for t in tokens if records_holding(outcome, t)]
    mine = [r for t in held for r in records_holding(outcome, t)]
    if not mine:
        return []
    theirs = [r for t in witnesses for r in records_holding(outcome, t) if r not in mine]
    found: list[Change] = []
    for name, value in args.items():
        if value is None or any(r.get(name) is not None for r in mine):
            continue
        if any(r.get(name) is not None for r in theirs):
            sparse = "" if value else ", a sparse encoding"
            found.append(Change(name, value, None, held[0], bool(value),
                                f"{name!r} left out ({_kind(value)} written{sparse}), though the same answer shows "
                                "it on another record"))
    return sorted(found, key=lambda c: not c.loss)


def _kind(value: Any) -> str:
    if isinstance(value, bool | int | float):
        return repr(value)
    return f"a {type(value).__name__}"


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


def is_number(value: Any) -> bool:
    """A JSON number: an int or a float, never a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _compare(name: str, written: Any, read: Any, token: str, typed: Enums | None = None,
             member: str | None = None) -> Change | None:
    if written == read and (type(written) is type(read) or (is_number(written) and is_number(read))):
        return None
    if typed is not None and isinstance(written, bool) and read is not None:
        return _flag(name, written, read, token)
    if typed is not None and isinstance(written, str) and written in typed.get(member or name, ()):
        if isinstance(read, str) and _normal(read) == _normal(written):
            return Change(name, written, read, token, False, f"{name!r} {written!r} read back as {read!r}")
        return Change(name, written, read, token, True, f"{name!r}: enum value {written!r} read back as {read!r}")
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
    if is_number(written):
        try:
            same = float(read) == float(written)
        except (TypeError, ValueError, OverflowError):
            same = False
        if same and is_number(read):
            return None  # one JSON number to a reader that holds it as a double (an integer past 2**53)
        if same:
            return Change(name, written, read, token, False, f"{name!r} {written!r} read back as {read!r}")
        return Change(name, written, read, token, True, f"{name!r}: value {written!r} read back as {read!r}")
    if isinstance(written, list) and isinstance(read, list):
        if (labels := _meaningful(written)) is not None and labels == _meaningful(read):
            return None  # a list of labels read back as a set: duplicates merged, blank items dropped
        if len(read) < len(written):
            return Change(name, written, read, token, True, f"{name!r}: {len(written)} written, {len(read)} shown")
        if any(isinstance(i, dict | list) for i in written):
            return None  # items that are objects may come back with what the server adds to them
        if sorted(map(repr, written)) == sorted(map(repr, read)):
            return None  # the same items in another order: a list is no promise of order
        return Change(name, written, read, token, False, f"{name!r}: items read back changed")
    if read == "" or read == []:
        return Change(name, written, read, token, True, f"{name!r} emptied")
    return None


def change(name: str, written: Any, read: Any, typed: Enums | None = None) -> Change | None:
    """How field `name`'s value read back differs from the one written (None: it does not); with
    `typed`, an enum member read back as another member is a loss."""
    if isinstance(written, bool):
        return None if read is None or read is written else _flag(name, written, read, "")
    return _compare(name, written, read, "", typed)


def lost(written: Any, read: Any) -> bool:
    """A value read back lost (cut, emptied, items dropped, a number or a boolean changed), not
    only normalised or spelt another way."""
    if isinstance(written, bool):
        return read is not None and read is not written and _flag("", written, read, "").loss
    change = _compare("", written, read, "")
    return change is not None and change.loss


def _flag(name: str, written: bool, read: Any, token: str) -> Change:
    """A boolean read back: as the other boolean (a loss), or spelt another way (`"true"`, 1)."""
    if not isinstance(read, bool) and str(read).strip().lower() in ({"true", "1", "yes"} if written else
                                                                    {"false", "0", "no"}):
        return Change(name, written, read, token, False, f"{name!r} {written!r} read back as {read!r}")
    return Change(name, written, read, token, True, f"{name!r}: {written!r} read back as {read!r}")


def _meaningful(items: list[Any]) -> set[str] | None:
    """The distinct items of a list of strings that are not blank; None for any other list."""
    if not all(isinstance(i, str) for i in items):
        return None
    return {i for i in items if _normal(i)}


def _normal(text: str) -> str:
    """The text without its whitespace and control characters, in one Unicode form and letter case:
    a line break folded or dropped, spaces merged and a bell or escape stripped change how it is laid
    out, not what it says."""
    return "".join(c for c in unicodedata.normalize("NFC", text)
                   if not c.isspace() and unicodedata.category(c) != "Cc").casefold()
