"""Law 4's second removal: removing a record the example already removed is a refusal or a no-op,
never a failure answered as a success (`probe-delete-again-succeeded`, as the removal probe names it).

This law takes the machine's removal rule's place, with the same draws (another rule would move
every other law's draws): after each removal the same call is made again. Judged against the
server's own refusal: only where the remover refuses an identity never written with isError (one
control call per remover on the warm server, the record's marker swapped for one never written)
does a second removal answered as a success whose content says it failed break the law. A second
removal answered as a plain success removed something again: law 4 then judges that nothing else
went with it. The remover is one that takes the record, and one law 4 already found broken is
passed over while another is left."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, consumes, precondition, rule

from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.results import Call, RuleId
from hypothesis_mcp.rules.expectations import FailsAsError
from hypothesis_mcp.stateful.laws.laws import Breach
from hypothesis_mcp.stateful.laws.machine import Duty, Example, Run, Step
from hypothesis_mcp.stateful.laws.model import REMOVED, Held
from hypothesis_mcp.stateful.laws.observe import Actor
from hypothesis_mcp.stateful.watch import all_marked, full_arguments

AGAIN: RuleId = "probe-delete-again-succeeded"
LAW_4: tuple[RuleId, ...] = ("probe-delete-kept", "probe-delete-took-other", AGAIN)


def removals_rules(run: Run) -> dict[str, Any]:
    learned = run.learned
    if not learned.removers:
        return {}  # the machine's own `remove` stays: enabled only once a removal is learned in the run
    controls: dict[str, Fact | None] = {}
    """Per remover, the fact that it refuses an identity never written with isError (None: it does not)."""

    def refusal(actor: Actor, args: dict[str, Any], marker: str) -> Fact | None:
        """That the remover refuses, with isError, the same call for an identity never written."""
        name = actor.tool.name
        text = json.dumps(args, ensure_ascii=False)
        if name not in controls and marker in text:
            unknown: dict[str, Any] = json.loads(text.replace(marker, run.marker()))
            answer = run.conn.call(name, unknown)
            controls[name] = fact_shown(f"{name} refuses a removal of an identity never written with isError",
                                        calls=[Call(name, unknown)]) if answer.kind == "result" and answer.is_error \
                else None
        return controls.get(name)

    def judged(actor: Actor) -> bool:
        """Law 4 already found the remover's removals broken on a fresh server: its breach, not raised
        again, would only leave each example that calls it unjudged."""
        return any((r, actor.tool.name) in run.quiet and (r, actor.tool.name) not in run.missed for r in LAW_4)

    taken: list[bool] = []
    """Whether the machine removed a record beside another itself this round (first_removal)."""

    @precondition(lambda machine: bool(learned.removers) and not machine.inert)
    @rule(held=consumes(Bundle("records")), which=st.integers(0, max(0, len(learned.removers) - 1)))
    def remove(machine: Any, held: Held, which: int) -> None:
        removed(machine.example, held, which)

    def first_removal(machine: Any, data: st.DataObject) -> None:
        """The first example of every round whose record a remover not yet found broken takes writes
        a second record of the same creator and removes the first: a removal that takes another
        record shows only where another is held, which the search's draws leave to chance."""
        example: Example = machine.example
        held = next((h for h in example.held if h.live), None)
        if taken or held is None or machine.inert or run.stop() or example.spoiled:
            return
        maker = next((t for t, _ in learned.creators if t.name == held.tool), None)
        seen = next((s for t, s in learned.creators if t.name == held.tool), None)
        if maker is None or seen is None or not any(
                held.value_of(a.arg) is not None and not judged(a) for a in learned.removers):
            return
        taken.append(True)
        if example.create(maker, seen.identity, data.draw(full_arguments(maker).map(partial(all_marked, maker)))):
            removed(example, held, 0)

    def removed(example: Example, held: Held, which: int) -> None:
        """The machine's removal (the same draws), through a remover that takes the record and is not yet
        found broken where there is one, then the same call again."""
        takes = [a for a in learned.removers if held.value_of(a.arg) is not None and not judged(a)] or [
            a for a in learned.removers if held.value_of(a.arg) is not None] or learned.removers
        actor = takes[(which + run.examples) % len(takes)]
        example.remove(actor, held)
        value = held.value_of(actor.arg)
        if held.state != REMOVED or held.removed is None or value is None or example.spoiled:
            return
        args = {**learned.widest(actor.tool), actor.arg: value}
        control = refusal(actor, args, held.marker)
        if control is None:
            return
        answer = example.call(actor.tool, args)
        at = len(example.calls) - 1
        name = actor.tool.name
        if answer.error_shaped:
            example.report([Breach(
                AGAIN, name, f"a second removal of a record through {name} answered as a success whose content "
                f"says it failed ({answer.failure}), though {name} refuses an identity never written with isError",
                FailsAsError(), at, (*actor.facts, control), pinned=(held.at, held.removed[1]))], at + 1)
        elif answer.ok:
            example.check(Step("remove", name, held, actor.facts, at))

    return {"remove": remove, "first_removal": Duty(first_removal)}
