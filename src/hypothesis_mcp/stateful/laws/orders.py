"""Law 1 on a listing's order: a read changes nothing, not even where a listing shows its record. A
read that moves its record to one end of a listing (the most recently read first, or last) shows
only on a record that was not at that end already; the machine's reads draw their record from the
held ones, mostly the newest, which an oldest-first listing already shows last. This rule reads the
record a listing showed first or last among the example's live records, and the check judges the
listing's order after it (machine.reordered)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from hypothesis_mcp.stateful.laws.machine import READ_CHANGED, Run
from hypothesis_mcp.stateful.laws.model import Held


def orders_rules(run: Run) -> dict[str, Any]:
    learned = run.learned
    keyed = [r for r in learned.readers if r.kind != "list"]

    def ordered(machine: Any) -> list[Held]:
        """The example's live records in the order a listing showed them last (the listing showing most)."""
        orders = machine.example.orders.values()
        return max(([h for h in order if h.live] for order in orders), key=len, default=[])

    def ready(machine: Any) -> bool:
        return bool(keyed) and not machine.inert and not run.stop() and len(ordered(machine)) > 1 and any(
            (READ_CHANGED, r.tool.name) not in run.quiet for r in keyed)

    @precondition(ready)
    @rule(which=st.integers(0, max(0, len(keyed) - 1)), last=st.booleans())
    def reread(machine: Any, which: int, last: bool) -> None:
        reader = keyed[which % len(keyed)]
        records = ordered(machine)
        machine.example.read(reader, records[-1 if last else 0])

    return {"reread": reread}
