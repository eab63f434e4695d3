"""Law 10: a write under a held record's identity, to a creator the experiments showed replacing,
replaces the record in every reader. It is judged as an update of that record (its values read back
as now written, and no number counts it as a new record, machine.py); then a search asked for a value
only the replaced write held finds the record no more (an index that keeps old values). That search is
judged only where the same words in another order find nothing: a search by words would find the
record by its other values."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, precondition, rule

from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.results import RuleId
from hypothesis_mcp.rules.expectations import ShowsNone
from hypothesis_mcp.stateful.laws.laws import Breach, shows
from hypothesis_mcp.stateful.laws.machine import Example, Run
from hypothesis_mcp.stateful.laws.model import Held
from hypothesis_mcp.stateful.laws.observe import Actor, Reader, search_field
from hypothesis_mcp.stateful.watch import full_arguments

OVERWRITE: RuleId = "probe-overwrite-kept-old"


def overwrite_rules(run: Run) -> dict[str, Any]:
    writers = {tool.name: Actor(tool, seen.identity, tuple(f for f in (seen.overwrite_fact, seen.identity_fact)
                                                           if f is not None))
               for tool, seen in run.learned.creators
               if seen.overwrite == "replaces" and seen.identity is not None and seen.overwrite_fact is not None}

    @precondition(lambda machine: bool(writers) and not machine.inert and not run.stop())
    @rule(held=Bundle("records"), data=st.data())
    def overwrite(machine: Any, held: Held, data: st.DataObject) -> None:
        """A write of new values under `held`'s identity, through the tool that wrote it."""
        actor = writers.get(held.tool)
        if actor is None or not held.live or held.value_of(actor.arg) is None:
            return
        example: Example = machine.example
        old, at = dict(held.values), len(example.calls)
        example.update(actor, held, data.draw(full_arguments(actor.tool)))
        if held.live and not example.spoiled and at < len(example.calls) and example.calls[at].tool == held.tool:
            for reader in (r for r in example.learned.readers if r.kind == "search"):
                kept_old(example, reader, held, old, at, actor.facts)

    return {"overwrite": overwrite}


def kept_old(example: Example, reader: Reader, held: Held, old: dict[str, Any], at: int,
             facts: tuple[Fact, ...]) -> None:
    """`reader` asked for the replaced value of the field it searches must not find the record (the
    write at `at` replaced it)."""
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
            (*facts, reader.fact, words), pinned=(held.at, at))], start)
