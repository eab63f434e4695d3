"""Law 2's other half: a failed call is answered as a failure. An update of a record that is not
there (one the example removed, or an identity no call wrote) cannot change it; a store either
refuses the call, or makes the record (an upsert). Answered as a success, a reader must then show
what the call sent: where none does while a keyed read of the identity refuses it (or a listing
that holds the whole store lacks it), the success was false (`probe-silent-noop`, on the update).

The machine itself never updates a record it removed or never wrote, so nothing else shows this.
Judged only where the answer takes the shape the update's own successes take: a refusal in a shape
the run has not learned is not taken for a success. A store shown making records this way (a reader
shows the values sent) is not asked again, and the example, whose store now holds a record its
model does not, is judged no further."""

from __future__ import annotations

from functools import partial
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, precondition, rule

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.rules.expectations import ContainsAny, Finds
from hypothesis_mcp.stateful.laws.edges import renamed
from hypothesis_mcp.stateful.laws.laws import Breach, shows
from hypothesis_mcp.stateful.laws.machine import Example, Run
from hypothesis_mcp.stateful.laws.model import Held, marks, numbered
from hypothesis_mcp.stateful.laws.observe import Actor, Reader, identity_text
from hypothesis_mcp.stateful.laws.overwrites import NOOP, answered_alike, read_all
from hypothesis_mcp.stateful.watch import Seen, all_marked, full_arguments
from hypothesis_mcp.strategies import with_marker

REMOVED, UNWRITTEN = "removed", "unwritten"
REFUSALS = 2
"""Refused updates of an absent record after which that way is not tried again for the tool (a
store that refuses them keeps the law; more tries only cost calls)."""


def absent_rules(run: Run) -> dict[str, Any]:
    learned = run.learned
    updaters = [a for a in learned.updaters if not a.guessed]
    if not updaters:
        return {}  # no rule at all: the machine of a server with no update draws as it did without this law
    identities = {tool.name: seen.identity for tool, seen in learned.creators if seen.identity is not None}
    refused: dict[tuple[str, str], int] = {}
    makes: set[str] = set()
    """Updates a reader showed making the record they were asked to change: upserts, not asked again."""

    def open_to(actor: Actor) -> bool:
        return actor.tool.name not in makes and (NOOP, actor.tool.name) not in run.quiet

    def tried(example: Example, actor: Actor, args: dict[str, Any], way: str) -> Outcome | None:
        """The update's answer; None where it was refused, counted against that way of trying."""
        answer = example.call(actor.tool, args)
        if not answer.ok:
            refused[(actor.tool.name, way)] = refused.get((actor.tool.name, way), 0) + 1
            return None
        return answer

    @precondition(lambda machine: any(open_to(a) for a in updaters) and not machine.inert and not run.stop())
    @rule(held=Bundle("records"), which=st.integers(0, max(0, len(updaters) - 1)), data=st.data())
    def update_absent(machine: Any, held: Held, which: int, data: st.DataObject) -> None:
        """An update of `held` once removed, or of an identity like its own that no call wrote."""
        example: Example = machine.example
        actor = updaters[which % len(updaters)]
        if not open_to(actor) or not held.live or example.spoiled or held.value_of(actor.arg) is None:
            return
        patches = full_arguments(actor.tool).map(partial(all_marked, actor.tool))
        if actor.tool.name not in run.answers:
            # No success of this update seen yet: one on the live record shows the shape they take.
            example.update(actor, held, data.draw(patches))
            if actor.tool.name not in run.answers or not held.live or example.spoiled:
                return
        ways = [w for w in (REMOVED, UNWRITTEN) if refused.get((actor.tool.name, w), 0) < REFUSALS
                and (w == UNWRITTEN or learned.removers)]
        if not ways:
            return
        way = data.draw(st.sampled_from(ways))
        ghost = removed(example, held) if way == REMOVED else unwritten(example, held, actor,
                                                                         identities.get(held.tool))
        if ghost is None:
            return
        marker = run.marker()
        value = ghost.value_of(actor.arg)
        args = numbered(actor.tool, {**with_marker(data.draw(patches), marker), actor.arg: value}, marker, actor.arg)
        tokens = tuple(sorted(t for name, t in marks(args, marker).items() if name != actor.arg))
        if value is None or not tokens or not example.valid(actor.tool, args):
            return
        if (answer := tried(example, actor, args, way)) is None:
            return
        at = len(example.calls) - 1
        ghost.args = {**ghost.args, **args}
        ghost.tokens, ghost.values, ghost.marker = marks(args, marker), dict(args), marker
        start = len(example.calls)
        reads = read_all(example, ghost)
        kept = [bin_read(example, r) for r in learned.bins]
        example.checks.update(range(start, len(example.calls)))
        if any(shows(a, example.unasked(i, tokens)) for _, i, a in reads) or any(shows(a, tokens) for a in kept):
            makes.add(actor.tool.name)  # an upsert: the store holds a record the model does not
            example.spoiled = True
            return
        gone = [(r, i) for r, i, a in reads if r.kind == "key" and a.kind == "result" and not a.ok] or [
            (r, i) for r, i, a in reads if r.kind == "list" and example.whole(r, a)]
        if not gone or not answered_alike(answer, *run.answers[actor.tool.name], args):
            example.spoiled = True  # what the call did is not known: the example is judged no further
            return
        reader, read_at = gone[0]
        facts = (*actor.facts, *removal_facts(learned.removers, held), reader.fact)
        how = "the example had removed" if way == REMOVED else "no call had written"
        then = "refuses it" if reader.kind == "key" else "does not show it"
        example.report([Breach(
            NOOP, actor.tool.name, f"{actor.tool.name} answered an update of a record {how} as a success, as it "
            f"answers an update it stores, yet {reader.tool.name} then {then} and no reader shows what it sent: "
            "a failed update answered as a success", ContainsAny(tokens, answered=True), read_at, facts,
            "high" if all(f.shown for f in facts) else "low", details={"identity": value, "absent": way},
            pinned=(held.at, held.removed[1], at) if way == REMOVED and held.removed else (at,))], start)

    @precondition(lambda machine: not machine.example.held and any(open_to(a) for a in updaters)
                  and not machine.inert and not run.stop())
    @rule(which=st.integers(0, max(0, len(updaters) - 1)), data=st.data())
    def update_absent_bare(machine: Any, which: int, data: st.DataObject) -> None:
        """Where the example holds no record (no marker fits the store's values), the same law on a
        record of the rule's own, told by its identity alone: a keyed read of it must answer."""
        example: Example = machine.example
        actor = updaters[which % len(updaters)]
        found = keyed_creator(example, actor)
        if not open_to(actor) or example.spoiled or found is None:
            return
        (creator, seen), reader = found
        patches = full_arguments(actor.tool).map(partial(all_marked, actor.tool))
        record = bare(example, creator, seen.identity, data.draw(full_arguments(creator)))
        value = record.value_of(actor.arg) if record is not None else None
        if record is None or value is None:
            return
        if actor.tool.name not in run.answers:
            shaping = {**data.draw(patches), actor.arg: value}
            shaped = example.call(actor.tool, shaping)
            if not shaped.ok:
                return
            run.answers[actor.tool.name] = (shaped, shaping)
        ways = [w for w in (REMOVED, UNWRITTEN) if refused.get((actor.tool.name, w), 0) < REFUSALS
                and (w == UNWRITTEN or learned.removers)]
        if not ways:
            return
        way = data.draw(st.sampled_from(ways))
        ghost = removed(example, record) if way == REMOVED else unwritten(example, record, actor, seen.identity)
        value = ghost.value_of(actor.arg) if ghost is not None else None
        args = {**data.draw(patches), actor.arg: value}
        asked = example.ask(reader, ghost) if ghost is not None else None
        if ghost is None or value is None or asked is None or not example.valid(actor.tool, args):
            return
        if (answer := tried(example, actor, args, way)) is None:
            return
        at = len(example.calls) - 1
        start = len(example.calls)
        read = example.call(reader.tool, asked)
        if read.ok:
            makes.add(actor.tool.name)  # an upsert: the store holds a record the example does not count
        if read.ok or read.kind != "result" or not answered_alike(answer, *run.answers[actor.tool.name], args):
            example.spoiled = True  # what the call did is not known: the example is judged no further
            return
        facts = (*actor.facts, *removal_facts(learned.removers, record), reader.fact)
        how = "the example had removed" if way == REMOVED else "no call had written"
        example.report([Breach(
            NOOP, actor.tool.name, f"{actor.tool.name} answered an update of a record {how} as a success, as it "
            f"answers an update it stores, yet {reader.tool.name} then refuses the record: a failed update answered "
            "as a success", Finds(str(value)), start, facts, "high" if all(f.shown for f in facts) else "low",
            details={"identity": value, "absent": way},
            pinned=(record.at, record.removed[1], at) if way == REMOVED and record.removed else (at,))], start)

    return {"update_absent": update_absent, "update_absent_bare": update_absent_bare}


def keyed_creator(example: Example, actor: Actor) -> tuple[tuple[Tool, Seen], Reader] | None:
    """A creator whose records a keyed read was shown reading, with that read: one whose records the
    update was shown acting on first."""
    acted = {c.tool for f in actor.facts for c in f.shown_by}
    for creator, seen in sorted(example.learned.creators, key=lambda c: c[0].name not in acted):
        for reader in example.learned.readers:
            shown = any(c.tool == creator.name for c in reader.fact.shown_by)
            if reader.kind == "key" and not reader.guessed and shown:
                return (creator, seen), reader
    return None


def bare(example: Example, creator: Tool, identity: str | None, drawn: dict[str, Any]) -> Held | None:
    """A record the rule writes and the example does not hold (it holds no marked value): counted as
    made, so counts stay judged, but by no value of its fields."""
    marker = example.run.marker()
    args = with_marker(drawn, marker)
    used = example.learned.used
    if identity is not None and identity_text(args.get(identity)) in used:
        fresh = renamed(creator, args, identity, example.run.count, lambda v: identity_text(v) in used)
        if fresh is None:
            return None
        args = fresh
    if identity is not None:
        used.add(identity_text(args.get(identity)))
    answer = example.call(creator, args)
    if not answer.ok:
        return None
    example.run.writes += 1
    example.made(creator.name, +1)
    example.untracked = True  # a record the example does not hold: counts per value are not judged
    record = Held.written(creator.name, args, marker, answer)
    record.at = len(example.calls) - 1
    example.bind(record)
    return record


def removed(example: Example, held: Held) -> Held | None:
    """`held` removed by the first remover that takes a value it holds (a judged step), as the record
    to update: None where no removal took."""
    remover = next((r for r in example.learned.removers if held.value_of(r.arg) is not None), None)
    if remover is None:
        return None
    example.remove(remover, held)
    if held.live or example.spoiled:
        return None
    return Held(held.tool, dict(held.args), held.answer, held.marker, {}, {}, ids=list(held.ids), at=held.at)


def unwritten(example: Example, held: Held, actor: Actor, identity: str | None) -> Held | None:
    """A record of `held`'s creator under an identity no call wrote, spelt as `held`'s is: only where the
    update names records by that identity, a value the creator's call sent."""
    if identity is None or identity not in held.args or held.value_of(actor.arg) != held.args[identity]:
        return None
    creator = next(t for t, _ in example.learned.creators if t.name == held.tool)
    used = example.learned.used
    fresh = renamed(creator, held.args, identity, example.run.count, lambda v: identity_text(v) in used)
    if fresh is None:
        return None
    used.add(identity_text(fresh[identity]))
    return Held(held.tool, {identity: fresh[identity]}, held.answer, held.marker, {}, {})


def removal_facts(removers: list[Actor], held: Held) -> tuple[Any, ...]:
    if held.removed is None:
        return ()
    return next((r.facts for r in removers if r.tool.name == held.removed[0]), ())


def bin_read(example: Example, reader: Reader) -> Outcome:
    """A listing of removed records, asked for its widest page."""
    return example.call(reader.tool, example.learned.widest(reader.tool))
