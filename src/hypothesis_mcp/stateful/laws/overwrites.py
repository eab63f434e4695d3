"""Law 10: a write under a held record's identity, to a creator the experiments showed replacing,
replaces the record in every reader. It is judged as an update of that record (its values read back
as now written, and no number counts it as a new record, machine.py); then a search asked for a value
only the replaced write held finds the record no more (an index that keeps old values). That search is
judged only where the same words in another order find nothing: a search by words would find the
record by its other values.

A creator the experiments showed ignoring such a write (answered as a success, no snapshot changed)
is asked the same: a reader that shows the record must then show the new values. One that still
shows the record as first written (its own values of the fields the write set, not only its
identity) and none of the new values shows a write that stored nothing and said it did
(`probe-silent-noop`), sure only where its answer is shaped as the record's own write's was:
otherwise a refusal in a shape the run has not learned is not ruled out. A refusal is judged as any
refused call is."""

from __future__ import annotations

from functools import partial
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, precondition, rule

from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.results import RuleId
from hypothesis_mcp.rules.answers import NUMBER
from hypothesis_mcp.rules.expectations import ContainsAny, ShowsNone
from hypothesis_mcp.rules.text_records import text_records
from hypothesis_mcp.stateful.laws.laws import Breach, shows
from hypothesis_mcp.stateful.laws.machine import Duty, Example, Run, Step
from hypothesis_mcp.stateful.laws.model import REFUSED, Held
from hypothesis_mcp.stateful.laws.observe import Actor, Reader, search_field
from hypothesis_mcp.stateful.watch import all_marked, full_arguments, tokens_of
from hypothesis_mcp.strategies import with_marker
from hypothesis_mcp.strategies.markers import MARKER

OVERWRITE: RuleId = "probe-overwrite-kept-old"
NOOP: RuleId = "probe-silent-noop"


def overwrite_rules(run: Run) -> dict[str, Any]:
    writers = {tool.name: Actor(tool, seen.identity, tuple(f for f in (seen.overwrite_fact, seen.identity_fact)
                                                           if f is not None))
               for tool, seen in run.learned.creators
               if seen.overwrite == "replaces" and seen.identity is not None and seen.overwrite_fact is not None}

    ignoring = {tool.name: Actor(tool, seen.identity, tuple(f for f in (seen.overwrite_fact, seen.identity_fact)
                                                            if f is not None))
                for tool, seen in run.learned.creators
                if seen.overwrite == "ignored" and seen.identity is not None and seen.overwrite_fact is not None}

    taken: list[bool] = []
    """Whether the machine overwrote a record itself this round (first_overwrite)."""

    @precondition(lambda machine: bool(writers or ignoring) and not machine.inert and not run.stop())
    @rule(held=Bundle("records"), data=st.data())
    def overwrite(machine: Any, held: Held, data: st.DataObject) -> None:
        overwritten(machine.example, held, data)

    def first_overwrite(machine: Any, data: st.DataObject) -> None:
        """The first example of every round that holds a record of such a creator overwrites it:
        the law does not wait for the search to draw its rule, whose share moves with every other
        rule's."""
        if taken or machine.inert or run.stop():
            return
        held = next((h for h in machine.example.held if h.live and (h.tool in writers or h.tool in ignoring)), None)
        if held is not None:
            taken.append(True)
            overwritten(machine.example, held, data)

    def overwritten(example: Example, held: Held, data: st.DataObject) -> None:
        """A write of new values under `held`'s identity, through the tool that wrote it."""
        if held.tool in ignoring:
            tool = ignoring[held.tool].tool
            kept_first(example, ignoring[held.tool], held,
                       data.draw(full_arguments(tool).map(partial(all_marked, tool))))
            return
        actor = writers.get(held.tool)
        if actor is None or not held.live or held.value_of(actor.arg) is None:
            return
        old, at, first = dict(held.values), len(example.calls), held.at
        example.update(actor, held, data.draw(full_arguments(actor.tool)))
        if held.live and not example.spoiled and at < len(example.calls) and example.calls[at].tool == held.tool:
            if held.values != old:
                # A creator that replaces makes the whole record anew: this write, not the first, is
                # the one a reproduction needs (the first may then be shrunk away).
                held.at = at
            for reader in (r for r in example.learned.readers if r.kind == "search"):
                kept_old(example, reader, held, old, (first, at), actor.facts)

    return {"overwrite": overwrite, "first_overwrite": Duty(first_overwrite)}


def kept_old(example: Example, reader: Reader, held: Held, old: dict[str, Any], writes: tuple[int, int],
             facts: tuple[Fact, ...]) -> None:
    """`reader` asked for the replaced value of the field it searches must not find the record (the
    second of `writes` replaced what the first wrote)."""
    args = example.ask(reader, held)
    replaced = {k: v for k, v in old.items() if isinstance(v, str) and v != held.values.get(k)
                and "-" in v and any(t in v for t in held.stale)}
    name = search_field(reader, replaced, replaced)
    value = replaced.get(name or "")
    now = tuple(sorted(t for t in held.tokens.values() if value is not None and t not in value))
    if args is None or reader.arg is None or value is None or not now:
        return
    marker, rest = value.split("-", 1)
    start = len(example.calls)
    control = {**args, reader.arg: f"{rest}-{marker}"}
    asked = {**args, reader.arg: value}
    if not (example.valid(reader.tool, control) and example.valid(reader.tool, asked)):
        return
    if shows(example.call(reader.tool, control), now):
        example.checks.add(start)
        return
    words = fact_shown(f"{reader.tool.name} matches the text asked, not its words: the same words in another "
                       "order found nothing", calls=[example.calls[start]], source="experiment")
    example.checks.add(start)
    if shows(example.call(reader.tool, asked), now):
        example.report([Breach(
            OVERWRITE, reader.tool.name, f"after a write to the record's identity, which replaces it, "
            f"{reader.tool.name} still finds the record by its old {name} {value!r}", ShowsNone(now), start + 1,
            (*facts, reader.fact, words), pinned=writes)], start)


def kept_first(example: Example, actor: Actor, held: Held, drawn: dict[str, Any]) -> None:
    """A write of new values under `held`'s identity through a creator shown ignoring such writes:
    refused, it is judged as any refused call; answered a success, every reader that shows the record
    is asked for it, and one must show a new value (then the write stored: judged as an update)."""
    value = held.value_of(actor.arg)
    if value is None or not held.live or example.spoiled:
        return
    marker = example.run.marker()
    args = {**with_marker(drawn, marker), actor.arg: value}
    new = tuple(sorted(tokens_of(args, marker)))
    if not new:
        return
    answer = example.call(actor.tool, args)
    at = len(example.calls) - 1
    if not answer.ok:
        refused = Held.written(actor.tool.name, args, marker, answer, REFUSED)
        refused.ids, refused.args, refused.at = held.ids, {**held.args, **args}, at
        if refused.tokens:
            example.held.append(refused)
        example.check(Step("refused", actor.tool.name, refused, actor.facts))
        return
    start = len(example.calls)
    reads = read_all(example, held)
    example.checks.update(range(start, len(example.calls)))
    if any(shows(answer_, new) for _, _, answer_ in reads):
        held.before = {k: held.values[k] for k in args if k != actor.arg and k in held.values}
        held.updated(args, marker, actor.arg)
        held.agreed.clear()
        example.check(Step("update", actor.tool.name, held, actor.facts, at))
        return
    # The record as first written: its own values of the fields the write set (a reader that shows only
    # the identity cannot tell a replace from a write kept out).
    old = tuple(sorted(t for k, t in held.tokens.items() if f"{marker}-{k}" in new and k != actor.arg))
    keeping = sorted(((r, i) for r, i, a in reads if shows(a, example.unasked(i, old))),
                     key=lambda ri: ri[0].kind != "key")
    if not keeping:
        example.spoiled = True  # the record is gone as well: what the write did is not known
        return
    reader, read_at = keeping[0]
    # The example's refused writes through the tool are no part of this law, and a replay in which a
    # call of the tool is refused shows nothing (rules.expectations.premise_refused): tried without first.
    example.checks.update(h.at for h in example.held if h.state == REFUSED and h.tool == actor.tool.name)
    alike = answered_alike(answer, held.answer, held.args, args)
    sure = alike and all(f.shown for f in (*actor.facts, reader.fact))
    how = "the write stored nothing and said it did" if alike else (
        "the write stored nothing, and its answer is not shaped as the record's own write's was (a refusal in a "
        "shape the run has not learned is not ruled out)")
    example.report([Breach(
        NOOP, actor.tool.name, f"{actor.tool.name} answered a second write to a record's {actor.arg} as a "
        f"success, yet {reader.tool.name} still shows the record as first written and none of the new values: "
        f"{how}", ContainsAny(new, answered=True), read_at,
        (*actor.facts, reader.fact), "high" if sure else "low", pinned=(held.at, at))], start)


def read_all(example: Example, held: Held) -> list[tuple[Reader, int, Outcome]]:
    """Every reader shown to show `held`'s records, asked for it: its answer and where it is."""
    found = []
    for reader in example.learned.readers:
        if reader.kind == "list":
            if not any(c.tool == held.tool for c in reader.fact.shown_by):
                continue
            answer = example.listing(reader, example.call(reader.tool, example.learned.widest(reader.tool)))
        elif (args := example.ask(reader, held)) is not None:
            answer = example.call(reader.tool, args)
        else:
            continue
        found.append((reader, len(example.calls) - 1, answer))
    return found


def answered_alike(answer: Outcome, other: Outcome, *sent: dict[str, Any]) -> bool:
    """Two writes answered in one shape: the same members (a JSON answer), the same names of its
    `name: value` records (a text of records), else the same text once markers and numbers are blanked.
    A member below the top named inside an object either call `sent` is left out: a store that echoes
    a nested object as sent answers a call that sent more of it with more members, not otherwise."""
    echoed = {k for args in sent for v in args.values() for k in inner_keys(v)}
    return bool(shape(answer, echoed) == shape(other, echoed))


def inner_keys(value: Any) -> set[str]:
    """The member names of every object inside `value`, at any depth."""
    if isinstance(value, dict):
        return {str(k) for k in value} | {k for v in value.values() for k in inner_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in inner_keys(v)}
    return set()


def shape(answer: Outcome, echoed: set[str]) -> Any:
    value = answer.value()
    if not isinstance(value, str):
        return form(value, echoed)
    if records := text_records(answer):
        return tuple(tuple(sorted(r)) for r in records)
    return NUMBER.sub("0", MARKER.sub("", value))


def form(value: Any, echoed: set[str], depth: int = 0) -> Any:
    """A value's shape without its values: an object's members, each with its value's shape; below
    the top, members named in `echoed` left out."""
    if isinstance(value, dict) and depth < 8:
        return tuple(sorted((str(k), form(v, echoed, depth + 1)) for k, v in value.items()
                            if not depth or str(k) not in echoed))
    return "list" if isinstance(value, list) else "value"
