"""Law 6: a call has the same effect wherever it falls in a history. A write in a series of writes
keeps the records before it and stores its own, as the first write of an example does: a store
that drops its oldest records past a size, or answers a success and stores nothing past a
capacity, without a word, breaks it. A capacity that refuses (an error) keeps the law."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from hypothesis_mcp.stateful.laws.machine import MAX_RECORDS, Example, LawBroken, Run, Step
from hypothesis_mcp.stateful.watch import full_arguments

SERIES = 10
"""Writes of one series the store accepted, the first and last judged: past the sizes small stores
keep (a reproduction keeps only the writes a fresh server needs to show it)."""
TRIES = 2 * SERIES
"""Writes one series tries at most: a write the store refuses by its own rule is no write of the
series, so it goes on with the next (a store that refuses two in five would otherwise rarely store
enough to pass the size it keeps, and whether it did would follow the draws)."""
FIRST_TRIES = 3
"""Tries at its first write at most, each refused one judged by law 2 as a write of its own."""
SERIES_RUNS = 3
"""Series per round of the machine at most: each tries up to TRIES writes."""


def series_rules(run: Run) -> dict[str, Any]:
    creators = run.learned.creators
    done: list[Example] = []

    def ready(machine: Any) -> bool:
        return (len(machine.example.held) <= MAX_RECORDS - 2 and not machine.inert and not run.stop()
                and len(done) < SERIES_RUNS and machine.example not in done)

    @precondition(ready)
    @rule(which=st.sampled_from(range(len(creators))), data=st.data())
    def series(machine: Any, which: int, data: st.DataObject) -> None:
        """The first write is judged, then SERIES - 1 accepted writes in a row, the last judged with
        the first still held. Once law 6 broke on a tool, its series would only break it again."""
        example, (tool, seen) = machine.example, creators[which]
        if {("probe-data-lost", tool.name), ("probe-silent-noop", tool.name)} & run.quiet:
            return
        done.append(example)
        # Every try's arguments drawn at once: how many the series makes follows what the warm server
        # answered, and a replayed prefix of draws that drew otherwise is a flaky strategy to Hypothesis.
        drawn = iter([data.draw(full_arguments(tool)) for _ in range(TRIES)])
        if not any(example.create(tool, seen.identity, args) is not None
                   for args in itertools.islice(drawn, FIRST_TRIES)):
            return
        last, at, stored = None, -1, 1
        for args in drawn:
            made = example.create(tool, seen.identity, args, judge=False)
            if made is not None:  # the last write accepted is judged: a refused one is no step to blame
                last, at, stored = made, example.step_at, stored + 1
            if stored == SERIES:
                break
        if last is not None:
            example.held.append(last)
        try:
            example.check(Step("create", tool.name, last, (seen.fact,) if seen.fact else (), at))
        except LawBroken:
            breach = run.breaches[-1][0]
            if breach.tool == tool.name:
                breach.message = f"after {stored} accepted writes of {tool.name} in a row, {breach.message}"
            raise

    return {"series": series}
