"""Law 9: references stay whole. A record written with a held record's identity in one of its text
fields holds a reference to it; once the held record is removed, a read of the referring record no
longer shows the removed one's values as live (a copy kept from when it was written, a join that
ignores the removal). A warning, unless a read of the removed record by its own identity shows it
gone: then two readers contradict each other, a failure. Reported on the removing tool, as a
removal that left a record behind is."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, precondition, rule

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.model.facts import Fact
from hypothesis_mcp.rules.answers import shown
from hypothesis_mcp.rules.expectations import ShowsNone
from hypothesis_mcp.stateful.laws.laws import Breach, shows
from hypothesis_mcp.stateful.laws.machine import MAX_RECORDS, Example, Run, Step
from hypothesis_mcp.stateful.laws.model import Held
from hypothesis_mcp.stateful.laws.observe import Reader, identity_text
from hypothesis_mcp.stateful.watch import Seen, full_arguments
from hypothesis_mcp.strategies import with_marker


def references_rules(run: Run) -> dict[str, Any]:
    learned = run.learned
    identities = {tool.name: seen.identity for tool, seen in learned.creators if seen.identity is not None}
    keyed = {tool.name: reader for tool, seen in learned.creators for reader in learned.readers
             if reader.kind == "key" and seen.identity is not None and reader.field == seen.identity
             and any(c.tool == tool.name for c in reader.fact.shown_by)}
    fields = [(tool, seen, name) for tool, seen in learned.creators if tool.name in keyed
              for name, schema in sorted(tool.properties.items())
              if name != seen.identity and isinstance(schema, dict) and schema.get("type") == "string"]
    plain: set[tuple[str, str]] = set()
    """(tool, field) whose record, given an identity there, did not show the named record's values."""

    @precondition(lambda machine: bool(fields) and bool(learned.removers) and len(plain) < len(fields)
                  and len(machine.example.held) < MAX_RECORDS and not machine.inert and not run.stop())
    @rule(held=Bundle("records"), which=st.integers(0, max(0, len(fields) - 1)), data=st.data())
    def refer(machine: Any, held: Held, which: int, data: st.DataObject) -> None:
        """A record naming `held` in one text field; where its read shows `held`'s values (the server
        resolves the name), `held` is removed and the naming record read again."""
        example = machine.example
        left = [f for f in fields if (f[0].name, f[2]) not in plain]
        tool, seen, name = left[which % len(left)]
        value = held.value_of(identities.get(held.tool, ""))
        remover = next((r for r in learned.removers if held.value_of(r.arg) is not None), None)
        if not held.live or held.tool not in keyed or not isinstance(value, str) or remover is None:
            return
        other = referring(example, held, value, tool, seen, name, data.draw(full_arguments(tool)))
        asked = example.ask(keyed[tool.name], other) if other is not None else None
        if other is None or asked is None:
            return
        example.check(Step("create", tool.name, other, (seen.fact,) if seen.fact else ()))
        example.checks.add(len(example.calls))
        values = tuple(sorted(set(held.tokens.values()) - held.shared))
        answer = example.call(keyed[tool.name].tool, asked)
        if not shows(answer, values):
            plain.add((tool.name, name))
            return
        joined = tuple(t for t in values if t in shown(answer))
        held.shared.update(joined)
        example.remove(remover, held)
        if not held.live:
            dangling(example, held, other, joined, (keyed[held.tool], keyed[tool.name]), remover.facts)

    return {"refer": refer}


def referring(example: Example, held: Held, value: str, tool: Tool, seen: Seen, name: str,
              drawn: dict[str, Any]) -> Held | None:
    """A new record of `tool` whose `name` holds `held`'s identity, held by the example."""
    marker = example.run.marker()
    args = {**with_marker(drawn, marker), name: value}
    key = identity_text(args.get(seen.identity or ""))
    if not example.valid(tool, args) or key in example.learned.used:
        return None
    example.learned.used.add(key)
    answer = example.call(tool, args)
    other = Held.written(tool.name, args, marker, answer)
    if answer.ok:
        example.made(tool.name, +1)
    example.untracked = example.untracked or (answer.ok and not other.tokens)
    if not answer.ok or not other.tokens:
        example.check(Step("create" if answer.ok else "refused", tool.name, None, (seen.fact,) if seen.fact else ()))
        return None
    other.at = example.step_at
    example.bind(other)
    example.held.append(other)
    held.shared.update(t for t in held.tokens.values() if t in value)
    return other


def dangling(example: Example, removed: Held, holder: Held, values: tuple[str, ...], readers: tuple[Reader, Reader],
             facts: tuple[Fact, ...]) -> None:
    """After `removed` went, a read of `holder` that still shows `values`, which it showed of `removed`."""
    own, theirs = readers
    asked, again = example.ask(own, removed), example.ask(theirs, holder)
    if not values or asked is None or again is None:
        return
    start = len(example.calls)
    gone = not shows(example.call(own.tool, asked), values)
    answer = example.call(theirs.tool, again)
    if shows(answer, values) and removed.removed is not None:
        remover, at = removed.removed
        example.report([Breach(
            "probe-reference-dangling", remover,
            f"{remover} removed a record that a record of {holder.tool} names, yet {theirs.tool.name} asked for the "
            f"naming record still shows the removed one's values" + (
                f", while {own.tool.name} asked for the removed one shows it gone" if gone else ""),
            ShowsNone(values), len(example.calls) - 1,
            (*facts, own.fact, *((theirs.fact,) if theirs.fact is not own.fact else ())), "high" if gone else "medium",
            pinned=(removed.at, holder.at, at))], start)
