"""Room on the warm server. A store with a stated capacity refuses every write once the examples
before filled it (a refusal that keeps law 6), so the laws that judge records of their own (a walk
of pages over the records it wrote, a series of writes) find none stored and judge nothing. Where
an example's writes were all refused, the next example begins by removing records that earlier
examples wrote and left, oldest first, through a remover an experiment showed, before it reads
any count or listing: no law judges those records any more, and its own model starts from the
store as the removals left it. So does a store whose listing (its largest page, oldest first) the
records earlier examples left fill, so that it shows none of an example's own (`Run.hidden`). A
fresh replay holds only its reproduction's records, so it needs no such room."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection
from hypothesis_mcp.stateful.laws.model import REMOVED, Held
from hypothesis_mcp.stateful.laws.observe import Actor

ROOM = 12
"""Records removed at most each time: more than law 7 writes in one example (own_pages.MOST) with an
example's own records beside them."""
CROWDED = 2
"""Refused writes, with none accepted, that tell an example found the store full."""


def crowded(accepted: int, refused: int) -> bool:
    return accepted == 0 and refused >= CROWDED


def make_room(conn: Connection, removers: list[Actor], widest: Callable[[Tool], dict[str, Any]],
              left: list[Held]) -> int:
    """Removes up to ROOM of the records in `left` (oldest first) through a remover every fact of which
    an experiment showed, on records of the same creator (none that declares it only reads); those
    removed, and those no remover took, leave `left`. How many went."""
    shown = [a for a in removers if all(f.shown for f in a.facts) and not a.tool.read_only_hint]
    gone = 0
    while left and gone < ROOM and shown:
        held = left.pop(0)
        # Only a remover shown acting on this creator's records: another store's may hold the same id.
        for actor in (a for a in shown if any(c.tool == held.tool for f in a.facts for c in f.shown_by)):
            value = held.value_of(actor.arg)
            if value is not None and conn.call(actor.tool.name, {**widest(actor.tool), actor.arg: value}).ok:
                held.state = REMOVED
                gone += 1
                break
    return gone
