"""Law 4's second removal: removing a record the example already removed is a refusal or a no-op,
never a failure answered as a success (`probe-delete-again-succeeded`, as the removal probe names it).

The rule removes a record (a judged step, as the machine's own removal rule does), one with records
on either side where the example holds them, and then removes it again with the same call. Judged
against the server's own refusal: only where the remover refuses an identity never written with
isError (one control call per remover on the warm server, the record's marker swapped for one never
written) does a second removal answered as a success whose content says it failed break the law. A
second removal answered as a plain success removed something again: law 4 then judges that nothing
else went with it."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.results import Call, RuleId
from hypothesis_mcp.rules.expectations import FailsAsError
from hypothesis_mcp.stateful.laws.laws import Breach
from hypothesis_mcp.stateful.laws.machine import Example, Run, Step
from hypothesis_mcp.stateful.laws.model import REMOVED, Held
from hypothesis_mcp.stateful.laws.observe import Actor

AGAIN: RuleId = "probe-delete-again-succeeded"
LAW_4: tuple[RuleId, ...] = ("probe-delete-kept", "probe-delete-took-other", AGAIN)


def removals_rules(run: Run) -> dict[str, Any]:
    learned = run.learned
    if not learned.removers:
        return {}  # no rule at all: the machine of a server with no removal draws as it did without it
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

    def takers(held: Held) -> list[Actor]:
        """The removers that take `held`, but those whose removals law 4 already found broken on a fresh
        server: their breach, not raised again, would only leave the example unjudged."""
        return [a for a in learned.removers if held.value_of(a.arg) is not None
                and not any((r, a.tool.name) in run.quiet and (r, a.tool.name) not in run.missed for r in LAW_4)]

    def between(example: Example) -> Held | None:
        """The record to remove: one the example wrote between two others where it holds three, else its
        oldest (the machine's own removal draws the newest most), so a removal that takes a neighbour
        shows on the records after it as well as before."""
        live = [h for h in example.held if h.live and takers(h)]
        return live[1] if len(live) >= 3 else next(iter(live), None)

    @precondition(lambda machine: not machine.inert and not run.stop() and between(machine.example) is not None)
    @rule(which=st.integers(0, max(0, len(learned.removers) - 1)))
    def remove_twice(machine: Any, which: int) -> None:
        """A held record removed (a judged step) by a remover that takes it, then removed again with the
        same call."""
        example: Example = machine.example
        held = between(example)
        if held is None or example.spoiled:
            return
        takes = takers(held)
        actor = takes[which % len(takes)]
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

    return {"remove_twice": remove_twice}
