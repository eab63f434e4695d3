"""A write whose marked fields no reader shows, told apart from one that stored nothing: a keyed read
of its identity answers its record, with the other values it sent as written and no marker at all.
The record was stored and the fields that carried the marker were dropped: the law broken is "every
field written is read back" (probe-value-changed), not "a success stores something" (silent noop)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.rules.answers import blank, values_of
from hypothesis_mcp.rules.text_records import Plain, nested_objects, text_records
from hypothesis_mcp.stateful.laws.patching import defaulted
from hypothesis_mcp.strategies.markers import MARKER


def dropped(answer: Outcome, asked: Any, key: str | None, values: dict[str, Any], tokens: tuple[str, ...],
            writer: Tool | None) -> tuple[str, ...]:
    """The marked fields (those of `values` that hold one of `tokens`) the record under `asked` lost,
    where the answer shows that record: an object that holds `asked` as a member's value, no marker
    anywhere, and beside it at least one field `values` set (not `key`, not marked) as written and
    neither blank nor the writer's schema default (a record made up for any id holds those). Every
    marked field it shows is blank or its default (stored as a default, not as written); any other
    field it shows holds what was written, so an older record under the same identity (another
    value) is not this one. Empty otherwise."""
    marked = {n for n, v in values.items() if any(t in json.dumps(v, ensure_ascii=False) for t in tokens)}
    if not answer.ok or not isinstance(asked, str | int) or isinstance(asked, bool) or not marked:
        return ()
    props = writer.properties if writer is not None else {}

    def default(name: str, value: Any) -> bool:
        return blank(value) or defaulted(props.get(name), value)

    for record in _records(answer):
        if MARKER.search(str(record)) or not any(_same(v, asked) for v in record.values()):
            continue
        lost = tuple(n for n in sorted(marked) if n not in record or default(n, record[n]))
        kept = [n for n, v in values.items() if n != key and n not in marked and n in record]
        if len(lost) == len(marked) \
                and all(_same(record[n], values[n]) for n in kept) \
                and any(not default(n, values[n]) for n in kept):
            return lost
    return ()


def _records(answer: Outcome) -> list[dict[str, Any]]:
    return [o for v in values_of(answer) for o in nested_objects(v)] + text_records(answer)


def _same(shown: Any, written: Any) -> bool:
    if isinstance(shown, Plain) or (isinstance(shown, str) and not isinstance(written, str)):
        return str(shown).strip() == (written if isinstance(written, str) else json.dumps(written, ensure_ascii=False))
    return bool(shown == written and type(shown) is type(written))
