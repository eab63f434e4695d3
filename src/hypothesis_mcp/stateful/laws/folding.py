"""Law 8: distinct identities stay distinct. A write whose identity differs from a held record's
only by case, surrounding spaces or Unicode form makes a record of its own, is refused, or folds
into the held one in plain sight. Folding is a warning (some stores mean to fold keys): the new
write answered a success, its own read shows the held record. It is a failure when it loses data:
the held record, asked for by its own identity, shows the new write's values instead of its own.
An identity that only starts with a held one (one character more) is always another record: a store
that files it as the held one matches by prefix, a failure either way."""

from __future__ import annotations

from typing import Any

from hypothesis import reject
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, precondition, rule

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.model.facts import Fact
from hypothesis_mcp.rules.answers import shown
from hypothesis_mcp.rules.expectations import ContainsAny, ShowsNone
from hypothesis_mcp.stateful.laws.laws import Breach, shows
from hypothesis_mcp.stateful.laws.machine import MAX_RECORDS, Example, Run, Step
from hypothesis_mcp.stateful.laws.model import Held, beside, marks
from hypothesis_mcp.stateful.laws.observe import Reader, identity_text
from hypothesis_mcp.stateful.variants import FOLDED, FOLDS, PREFIX, variant
from hypothesis_mcp.stateful.watch import full_arguments
from hypothesis_mcp.strategies import with_marker


def folding_rules(run: Run) -> dict[str, Any]:
    learned = run.learned
    folders = {tool.name: (tool, seen.identity, (seen.fact, seen.identity_fact), reader)
               for tool, seen in learned.creators for reader in learned.readers
               if seen.identity is not None and seen.fact is not None and seen.identity_fact is not None
               and reader.kind == "key" and reader.field == seen.identity
               and any(c.tool == tool.name for c in reader.fact.shown_by)}

    varied: dict[str, int] = {}
    """The variant kinds written so far, by kind: the kinds written least go first (a store may fold
    by one kind alone, and a few draws of the rules may all draw others)."""

    # Either rule writes the kind written least, its own first among equals: the machine's search draws
    # each rule rarely where a server has many tools, and one of the two may go undrawn for a whole run.
    @precondition(lambda machine: bool(folders) and len(machine.example.held) < MAX_RECORDS and not machine.inert
                  and not run.stop())
    @rule(held=Bundle("records"), kind=st.sampled_from(sorted(FOLDS)), data=st.data())
    def fold(machine: Any, held: Held, kind: str, data: st.DataObject) -> None:
        vary(machine, held, kind, data)

    @precondition(lambda machine: bool(folders) and len(machine.example.held) < MAX_RECORDS and not machine.inert
                  and not run.stop())
    @rule(held=Bundle("records"), data=st.data())
    def prefix(machine: Any, held: Held, data: st.DataObject) -> None:
        vary(machine, held, LONGER, data)

    def vary(machine: Any, held: Held, kind: str, data: st.DataObject) -> None:
        if held.tool in folders and held.live:
            tool, identity, facts, reader = folders[held.tool]
            # A loss already confirmed is not raised again, and the example cannot go on without it: it
            # ends as an invalid example. Left with no rule to run, it raised Hypothesis's "no progress"
            # error, which Hypothesis shrank as a failure on the warm server (hundreds of examples).
            if twin(machine.example, held, kind, data.draw(full_arguments(tool)), tool, identity,
                    tuple(f for f in facts if f is not None), reader, varied):
                reject()

    return {"fold": fold, "prefix": prefix}


LONGER = "longer"
"""The prefix variant the law writes: the held identity with one character more."""
VARIANTS = (*sorted(FOLDS), LONGER)


def twin(example: Example, held: Held, kind: str, drawn: dict[str, Any], tool: Tool, identity: str,
         facts: tuple[Fact, ...], reader: Reader, kinds_written: dict[str, int]) -> bool:
    """A write under a variant of `held`'s identity, then both asked for by their identities; whether
    `held` was lost to it."""
    key = held.args.get(identity)
    own = tuple(t for name, t in sorted(held.tokens.items()) if name != identity)
    # Only what the reader shows of the record now can show it gone later (a store may drop a field).
    if (asked := example.ask(reader, held)) is not None and own:
        example.checks.add(len(example.calls))
        own = tuple(t for t in own if t in shown(example.call(reader.tool, asked)))
    marker = example.run.marker()
    kinds = list(VARIANTS)
    # The kinds written least first, the drawn one first among them: a key whose schema refuses
    # spaces may still fold by case, and a store may fold by one kind alone.
    turned = kinds[kinds.index(kind):] + kinds[:kinds.index(kind)]
    tried = [(k, variant(key, k)) for k in sorted(turned, key=lambda k: kinds_written.get(k, 0))] \
        if isinstance(key, str) else []
    kind, varied = next(((k, v) for k, v in tried if v is not None and identity_text(v) not in example.learned.used
                         and example.valid(tool, {**with_marker(drawn, marker), identity: v})), (kind, None))
    if varied is None or not own:
        return False
    args = {**with_marker(drawn, marker), identity: varied}
    if not set(marks(args, marker)) - {identity}:
        # Its only marked text is the identity, which the variant shares: a mark of its own elsewhere
        # tells the two records apart (model.numbered does the same for the held record).
        args = beside(tool, args, identity, marker) or args
    example.learned.used.add(identity_text(varied))
    kinds_written[kind] = kinds_written.get(kind, 0) + 1
    answer = example.call(tool, args)
    if not answer.ok:
        if kind in FOLDS:
            refused(example, held, key, varied, kind, own, tool.name, identity, (*facts, reader.fact), reader)
        else:
            example.check(Step("refused", tool.name, None, facts))
        return False
    written = example.step_at
    other = Held.written(tool.name, args, marker, answer)
    other.at = written
    # The variant holds the first record's identity token: a listing that shows the variant shows it.
    held.shared.update(t for t in held.tokens.values() if t in varied)
    theirs = tuple(t for name, t in sorted(other.tokens.items()) if name != identity)
    asked, again = example.ask(reader, held), example.ask(reader, other)
    if asked is None or again is None or not theirs:
        example.uncounted = True
        example.check(Step("create", tool.name, None, facts))
        return False
    start = len(example.calls)
    first, second = example.call(reader.tool, asked), example.call(reader.tool, again)
    said = f"{tool.name} wrote {varied!r} after {key!r}"
    rule, how = (FOLDED, "two identities made one record") if kind in FOLDS else (
        PREFIX, "an identity that only starts with another was filed as that one")
    if not shows(first, own):
        example.report([Breach(
            rule, tool.name, f"{said}: {reader.tool.name} asked for {key!r} no longer shows its record "
            f"(it shows {'the later write' if shows(first, theirs) else 'neither'}); {how} and the first one's "
            "data was lost", ContainsAny(own, answered=True), start, (*facts, reader.fact),
            details={"identity": identity, "variant": kind}, pinned=(held.at, written))], start)
        return True
    if not shows(second, theirs) and shows(second, own):
        example.report([Breach(
            rule, tool.name, f"{said}: both answered a success, and {reader.tool.name} asked for {varied!r} "
            f"shows the record of {key!r}: {how}", ContainsAny(theirs, answered=True), start + 1,
            (*facts, reader.fact), "medium" if kind in FOLDS else "high",
            {"identity": identity, "variant": kind}, pinned=(held.at, written))], start)
    if shows(second, theirs):
        example.made(tool.name, +1, written)
        example.held.append(other)
    else:
        example.uncounted = True  # folded or unplaced: a record the example does not hold
    example.check(Step("create", tool.name, other if shows(second, theirs) else None, facts))
    return False


def refused(example: Example, held: Held, key: Any, varied: str, kind: str, own: tuple[str, ...], tool: str,
            identity: str, facts: tuple[Fact, ...], reader: Reader) -> None:
    """A write under the variant refused (a duplicate, say): two identities are one where a read
    asked for the variant shows `held`'s record, a warning, as a fold in plain sight is. Said of the
    read, which shows the fold with or without the refused write (a refused call changes nothing), so
    a reproduction may leave the write out. Only the record's values the variant does not hold tell:
    a record written under the variant (where a replay lost what gave `held` its identity) shows the
    identity's token inside its own."""
    example.check(Step("refused", tool, None, facts))
    asked = example.ask(reader, held)
    theirs = tuple(t for t in own if t not in varied)
    if asked is None or reader.arg is None or example.spoiled or not theirs:
        return
    start = len(example.calls)
    if shows(example.call(reader.tool, {**asked, reader.arg: varied}), theirs):
        example.report([Breach(
            FOLDED, reader.tool.name, f"{reader.tool.name} asked for {varied!r} shows the record of {key!r}: the "
            f"store folds the two identities into one (the run's {tool} refused a write under {varied!r} after "
            f"{key!r})", ShowsNone(theirs), start, facts, "medium", {"identity": identity, "variant": kind},
            pinned=(held.at,))], start)
