"""Reads change nothing: a model-based state machine over the records one write tool stored.

The machine writes records (a Bundle of them, the first in `@initialize`) and, between writes,
calls one of its readers for one record; every other reader that showed the record just before
the call must show it just after. Every example opens with one record per reader, each judged
around a call of its reader. A search that archives what it finds, a fetch that moves
an entry out of the listing, a get that consumes a message: each breaks it. The reproduction shows
the judged reader showing the record before the call (facts before verdicts), and a reader that
called itself read-only (annotation or description) is held to it for sure; one read-only by its
name alone makes the finding a low warning. Every example runs on a fresh server, so Hypothesis's
shrunk sequence is already a reproduction from the initial state; `smaller` then drops what it
does not need.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import event, target
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, multiple, rule

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.results import RuleId
from hypothesis_mcp.rules.answers import shown
from hypothesis_mcp.stateful.context import ProbeContext, Record, get_path
from hypothesis_mcp.stateful.example import Example
from hypothesis_mcp.stateful.host import ProbeHost, ProbeOutput
from hypothesis_mcp.stateful.modelrun import marker_salt, run_model, surest
from hypothesis_mcp.stateful.readers import Reader, read_only_fact, says_skipped, tokens
from hypothesis_mcp.stateful.shrink import smaller
from hypothesis_mcp.stateful.steps import shown_calls
from hypothesis_mcp.strategies import PLACEHOLDER, marked_arguments

RULE: RuleId = "probe-read-changed-state"
STEPS = 10
"""Steps of one example: a few writes and reads are enough; each example is a fresh server."""
SHRINK_RUNS = 12
"""Examples Hypothesis may run after a failure: each one starts a fresh server."""


class ReadsExample(Example):
    """One example: records written without the effect judgements, and reads judged by the others."""

    def put(self, drawn: dict[str, Any]) -> Record | None:
        if self.inert:
            return None
        marker, args = self.make_args(drawn)
        args, outcome = self.send(args, marker)
        if not outcome.ok or says_skipped(outcome):
            return None
        key = get_path(args, self.ctx.key_path) if self.ctx.key_path else marker
        key_tokens = tokens({self.key_field: key}, marker) if self.key_field else set()
        record = Record(key, marker, args, key_tokens, tokens(args, marker) - key_tokens)
        if not record.evidence:
            return None
        self.model[marker] = record
        return record

    def judge_read(self, reading: Reader, record: Record) -> None:
        """Call `reading` for the record; each other reader that showed the record just before
        shows it just after."""
        if self.inert:
            return
        wanted = record.evidence
        before = [r for r in self.ctx.readers if r.tool.name != reading.tool.name]
        showed = [r for r in before if (answer := self.read(r, record)).ok and any(t in shown(answer) for t in wanted)]
        if not showed:
            return
        event(f"read by {reading.tool.name}")
        self.call(reading.tool.name, self.reader_args(reading, record))
        self.reads.clear()
        for other in showed:
            after = self.call(other.tool.name, self.reader_args(other, record))
            if after.kind != "result" or (after.ok and any(t in shown(after) for t in wanted)):
                continue
            said = "answers with an error" if not after.ok else "no longer shows it"
            self.fail(RULE, f"after a call of {reading.tool.name}, which should change nothing, {other.tool.name} "
                      f"{said}: it showed the record with key {record.key!r} just before", other,
                      {"contains_any": sorted(wanted), "answered": True}, confidence="high", check="reads",
                      tool=reading.tool.name,
                      facts=(self.shown_before(other, reading, record), read_only_fact(reading.tool)))

    def shown_before(self, other: Reader, reading: Reader, record: Record) -> Fact:
        """That `other` showed the record after its write and before the call of `reading`."""
        return fact_shown(f"{other.tool.name} showed the record before the call of {reading.tool.name}",
                          marker=record.marker, tools=(self.ctx.write.name, other.tool.name))


def build_reads_machine(ctx: ProbeContext) -> type[RuleBasedStateMachine]:
    """A state machine class bound to one write tool and the readers calibration showed."""
    drawing = shown_calls(ctx.write.name, marked_arguments(ctx.write, PLACEHOLDER, ctx.write_args or None))
    key_field = ctx.key_path.replace("[]", "").split(".")[-1] if ctx.key_path else None

    class ReadsMachine(RuleBasedStateMachine):
        records = Bundle("records")

        def __init__(self) -> None:
            super().__init__()
            self.example = ReadsExample(ctx, key_field)

        def teardown(self) -> None:
            # Once per example (Hypothesis allows one observation per label): toward fuller stores.
            target(float(len(self.example.model)), label="records held")
            self.example.close()

        @initialize(target=records, batch=st.lists(drawing, min_size=len(ctx.readers), max_size=len(ctx.readers)))
        def first(self, batch: list[dict[str, Any]]) -> Any:
            """Even the shortest example judges every reader once, each on a record of its own: a read
            made as another's witness may already have changed what a record shows."""
            stored = [self.example.put(drawn) for drawn in batch]
            for reading, record in zip(ctx.readers, stored, strict=True):
                if record is not None:
                    self.example.judge_read(reading, record)
            return multiple(*(r for r in stored if r is not None))

        @rule(target=records, drawn=drawing)
        def write(self, drawn: dict[str, Any]) -> Any:
            record = self.example.put(drawn)
            return multiple() if record is None else record

        @rule(reading=st.sampled_from(ctx.readers), record=records)
        def read(self, reading: Reader, record: Record) -> None:
            self.example.judge_read(reading, record)

    ReadsMachine.__name__ = f"Reads_{ctx.write.name}"
    return ReadsMachine


def reads_probe(run: ProbeHost, tool: Tool, readers: list[Reader], key_path: str | None,
                given: dict[str, Any]) -> Iterator[ProbeOutput]:
    """The invariant for one write tool with two readers or more: a finding, verified and shrunk, or
    nothing (the round trip reports the write's own pass). Every chosen reader takes part, not only
    those calibration showed: a reader that consumes what it reads can hide the record from the
    others during calibration itself, and each judged reader shows the record in the reproduction
    before it misses it."""
    if len(readers) < 2 or run.stop():
        return
    examples = max(2, run.profile.probe_examples // 4)
    ctx = ProbeContext(
        pool=run.pool, write=tool, readers=readers, key_path=key_path,
        base_args={r.tool.name: run.base(r.tool) for r in readers}, write_args=given,
        salt=marker_salt(run, "reads", tool),
        shrink_runs=SHRINK_RUNS, stop=run.stop, warm_shrink=False, open_many=False,
    )
    run.pool.expect(examples, together=True)  # no spares for a shrink that a passing run never needs
    error = run_model(run, ctx, build_reads_machine(ctx), examples, STEPS, "reads", tool)
    found = surest(ctx.candidates)
    if found is not None:
        yield smaller(found, tool.name, run.reproduces)
    elif error is not None:
        yield run.result(tool.name, "reads", "inconclusive", RULE, f"the reads probe could not run: {error}",
                         confidence="low")
