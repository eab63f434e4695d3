"""Law 1 on a listing's window: a read changes nothing a listing shows, whoever wrote the records it
shows. The machine judges a listing's order on the example's own records (machine.py, `reordered`);
a listing that takes only a limit, oldest first, on a store the experiments filled past that limit
shows none of them, ever: its window holds the run's earliest records. So once per keyed reader and
listing of a run, where a check's listing shows none of the example's live records but two or more
that earlier writes of the run made (the experiments', earlier examples'), the first of them the
reader was shown reading is read by its identity between two listings: a listing that then shows
those records otherwise (another order, one gone from the window) was changed by the read.

The listing is asked twice before the read: one that answers otherwise with no call between says
nothing of a read. The reproduction is the two records' writes, the read and the listing, which a
fresh store's window holds (`Breach.replay`), judged by their order before the read (InOrder); a
fresh replay without the read must keep the law (confirm.read_is_cause), so a listing whose order a
fresh store sets otherwise is never blamed on the read. Calls are made inside a check, so the
machine's draws stay as they were; only records the run wrote are read, none written."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.results import Binding, Call
from hypothesis_mcp.rules.answers import shown
from hypothesis_mcp.rules.expectations import InOrder
from hypothesis_mcp.stateful.laws.laws import Breach, short, shows
from hypothesis_mcp.stateful.laws.machine import READ_CHANGED, Check, Example, Run
from hypothesis_mcp.stateful.laws.observe import Reader


@dataclass(frozen=True)
class Earlier:
    """A record an earlier write of the run made: its write, the values its answer gave it (a
    server-made id), and a marked text only it holds."""

    tool: str
    args: dict[str, Any]
    ids: tuple[tuple[str, Any], ...]
    mark: str

    def value_of(self, name: str) -> Any:
        return self.args[name] if name in self.args else next((v for m, v in self.ids if m == name), None)

    def write(self) -> Call:
        """Its write again; a later call of a fresh replay takes the id that server gives it."""
        return Call(self.tool, self.args, binds=tuple(Binding(v, (m,)) for m, v in self.ids[:2]))


def read_order_rules(run: Run) -> dict[str, Any]:
    """No rule of its own: a judgement at every check, until each keyed reader and listing was judged."""
    return {"read_order": Check(window_reads)}


def earlier(example: Example) -> list[Earlier]:
    """The run's records written before this example, oldest first: the experiments' live ones, then
    those earlier examples left. Each is found by a marked text of its own (its marker in it)."""
    found = [Earlier(r.tool, r.args, tuple(r.ids), mark) for r in example.learned.records if r.alive and r.answer.ok
             and (mark := min((t for t in r.tokens if r.marker in t), default=None)) is not None]
    found += [Earlier(h.tool, h.args, tuple(h.ids), mark) for h in example.run.left if h.live
              and (mark := min((t for t in h.tokens.values() if h.marker in t), default=None)) is not None]
    return found


def window_reads(example: Example) -> list[Breach]:
    """Each keyed reader and listing not judged yet, judged where the check's listing shows the run's
    earlier records and none of the example's own."""
    readers = [r for r in example.learned.readers if r.kind == "key" and not r.guessed and r.arg and r.field]
    records = earlier(example)
    own = tuple(m for h in example.held if h.live and (m := h.mark()) is not None)
    for lister in example.learned.listers:
        if lister.tool.name not in example.listings or shows(answer := example.listings[lister.tool.name][1], own):
            continue  # the machine judges the order of the example's own records
        window = in_window(answer, records)
        for reader in readers:
            key = (reader.tool.name, lister.tool.name)
            if key in example.run.ordered or not any(readable(reader, r) for r in window[:-1]):
                continue
            example.run.ordered.add(key)
            breach = read_between(example, reader, lister, records)
            if breach is not None:
                return [breach]
    return []


def in_window(answer: Outcome, records: list[Earlier]) -> list[Earlier]:
    """The earlier records a listing shows, in its order."""
    text = shown(answer) if answer.ok else ""
    at = {id(r): text.find(r.mark) for r in records}
    return sorted((r for r in records if at[id(r)] >= 0), key=lambda r: at[id(r)])


def readable(reader: Reader, record: Earlier) -> bool:
    """The reader was shown reading this writer's records, by a field the write sent or its answer gave."""
    return reader.field is not None and record.value_of(reader.field) is not None and \
        any(c.tool == record.tool for c in reader.fact.shown_by)


def read_between(example: Example, reader: Reader, lister: Reader, records: list[Earlier]) -> Breach | None:
    """The first earlier record the listing's window shows that `reader` reads, read between two
    listings of that window; a breach where the listing shows the earlier records otherwise after the
    read than twice before it."""
    assert reader.arg is not None and reader.field is not None
    widest = example.learned.widest(lister.tool)
    window = in_window(example.call(lister.tool, widest), records)
    if in_window(example.call(lister.tool, widest), records) != window:
        return None  # the listing answers otherwise with no call between: it says nothing of a read
    first = next((r for r in window[:-1] if readable(reader, r)), None)
    if first is None:
        return None
    args = {**example.learned.widest(reader.tool), reader.arg: first.value_of(reader.field)}
    if not example.valid(reader.tool, args) or not shows(example.call(reader.tool, args), (first.mark,)):
        return None  # the read did not show the record: another record holds the identity now
    after = in_window(example.call(lister.tool, widest), records)
    if after == window:
        return None
    pair = (first, window[window.index(first) + 1])
    writes = sorted(pair, key=records.index)
    how = "no longer shows it" if first not in after else "shows the records it showed in another order"
    return Breach(READ_CHANGED, reader.tool.name, f"a record an earlier write made was read by {reader.tool.name} "
                  f"({reader.arg}={short(first.value_of(reader.field))}): {lister.tool.name}, which showed it among "
                  f"{len(window)} of the run's records twice before the read, {how} after it",
                  InOrder(tuple(r.mark for r in pair)), len(example.calls) - 1, (reader.fact, lister.fact),
                  "medium", pinned=(0, 1, 2),
                  replay=(*(r.write() for r in writes), Call(reader.tool.name, args),
                          Call(lister.tool.name, widest)))
