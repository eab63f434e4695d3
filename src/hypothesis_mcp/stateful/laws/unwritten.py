"""Law 2 on reads: a read of a record that is not there is answered as a failure. The machine asks a
keyed read only for records it holds, and law 4 (machine.py) asks it for a record it removed; a store
with no removal was never asked for a record that is not there. So once per keyed reader of a run,
when a check has read a live record by an identity its write sent, the same read is asked for that
identity spelt anew (one no call of the run used: edges.renamed). A success showing a record under
it, in the shape the reader showed stored records in (or with members enough to be one), is a record
made up for a failed read (`read-missing-as-success`), unless a listing then shows the identity: a
store that makes a record on its first read keeps the law.

It rests on what the run showed: the reader's binding is the experiments' (never guessed), the
record's shape its own reads of live records, the identity the run's own spelling of one it wrote.
The call is made inside a check, so the machine's draws stay as they were."""

from __future__ import annotations

from typing import Any

from hypothesis_mcp.rules.answers import shown
from hypothesis_mcp.rules.expectations import NoRecordFor
from hypothesis_mcp.stateful.laws.edges import renamed
from hypothesis_mcp.stateful.laws.laws import Breach, short, shows
from hypothesis_mcp.stateful.laws.machine import Check, Example, Run
from hypothesis_mcp.stateful.laws.model import Held
from hypothesis_mcp.stateful.laws.observe import Reader, identity_text
from hypothesis_mcp.strategies.markers import MARKER

TRIES = 3
"""Turns of spelling tried per reader: a turn may leave no free spelling, or one that holds a record
the run wrote after all."""


def unwritten_rules(run: Run) -> dict[str, Any]:
    """No rule of its own: a judgement at every check, until each keyed reader was asked once."""
    return {"unwritten": Check(unwritten_reads)}


def unwritten_reads(example: Example) -> list[Breach]:
    """Each keyed reader not yet asked for an identity no call wrote, asked now where a live record
    of the example shows how (its shape known, its identity one its write sent)."""
    found = []
    for reader in example.learned.readers:
        if reader.kind != "key" or reader.guessed or reader.tool.name in example.run.unwritten:
            continue
        held = next((h for h in example.held if h.live and askable(example, reader, h)), None)
        if held is None:
            continue
        example.run.unwritten.add(reader.tool.name)
        for turn in range(TRIES):
            answer = read_unwritten(example, reader, held, turn)
            if not isinstance(answer, Again):
                found += [answer] if answer is not None else []
                break
    return found


def askable(example: Example, reader: Reader, held: Held) -> bool:
    """The reader takes an identity `held`'s write sent (not one the server made), and was shown
    reading that writer's records, whose shape its reads showed."""
    return reader.field is not None and reader.field in held.args and reader.tool.name in example.run.shapes \
        and example.ask(reader, held) is not None


class Again:
    """No spelling of this turn is free, or the one read holds a record the run wrote (a write the
    machine's `used` did not follow): the read says nothing of a record that is not there."""


def read_unwritten(example: Example, reader: Reader, held: Held, turn: int) -> Breach | Again | None:
    """The read of `held`'s identity spelt anew (the `turn`-th spelling from now); a breach where it
    answers a record under it that none of the run's writes made."""
    asked, creator = example.ask(reader, held), next(
        (t for t, _ in example.learned.creators if t.name == held.tool), None)
    if asked is None or creator is None or reader.arg is None or reader.field is None:
        return None
    used = example.learned.used
    fresh = renamed(creator, held.args, reader.field, example.run.count + turn, lambda v: identity_text(v) in used)
    if fresh is None:
        return Again()
    value: Any = fresh[reader.field]
    args = {**asked, reader.arg: value}
    if not example.valid(reader.tool, args):
        return None
    used.add(identity_text(value))
    answer = example.call(reader.tool, args)
    at = len(example.calls) - 1
    expect = NoRecordFor((str(value),), tuple(sorted(example.run.shapes.get(reader.tool.name, ()))),
                         tuple(sorted(example.run.flags.get(reader.tool.name, ()))))
    if expect.holds(answer):
        return None
    if set(MARKER.findall(shown(answer))) - set(MARKER.findall(str(value))):
        return Again()
    listed = [(r, example.call(r.tool, example.learned.widest(r.tool))) for r in example.learned.listers]
    if any(shows(a, (identity_text(value),)) for _, a in listed):
        example.spoiled = True  # made on its first read: the store holds a record the example does not
        return None
    # Where no listing shows the whole store, one made on its first read may sit past its window.
    whole = any(example.whole(r, a) for r, a in listed)
    return Breach(
        "read-missing-as-success", reader.tool.name, f"{reader.tool.name} answered a read of {reader.arg}="
        f"{short(value)}, an identity no call wrote, with a success showing a record under it, in the shape "
        f"of the records it reads, and {'a listing of the whole store' if whole else 'no listing'} then "
        "shows no record under it: a failure answered as a success",
        expect, at, (reader.fact,), "medium" if whole else "low", details={"identity": value, "absent": "unwritten"})
