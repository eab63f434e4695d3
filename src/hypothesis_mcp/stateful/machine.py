"""The effect state machine: writes records, overwrites them by key, reads them back.

Hypothesis chooses and interleaves the steps and shrinks a failing sequence. After every step that
wrote, an invariant re-reads the records shown earlier: none may be lost. Each example runs
on a fresh server from the pool, so a reproduction always starts from the initial state.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, multiple, precondition, rule

from hypothesis_mcp.catalog import Bound, Tool
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.stateful.context import MANY, ProbeContext, Record, bound_range
from hypothesis_mcp.stateful.example import Example
from hypothesis_mcp.stateful.readers import Reader
from hypothesis_mcp.stateful.steps import ShownChoice, shown_calls
from hypothesis_mcp.strategies import PLACEHOLDER, marked_arguments


def build_machine(ctx: ProbeContext) -> type[RuleBasedStateMachine]:
    """A RuleBasedStateMachine class bound to one write tool and its readers."""
    write_strategy = shown_calls(ctx.write.name, marked_arguments(ctx.write, PLACEHOLDER, ctx.write_args or None))
    key_field = ctx.key_path.replace("[]", "").split(".")[-1] if ctx.key_path else None
    long_strategy = shown_calls(ctx.write.name, marked_arguments(
        ctx.write, PLACEHOLDER, ctx.write_args or None, long=True, short=frozenset({key_field} if key_field else ())))
    bound_choices = [ShownChoice((tool, bound)) for tool, bound in ctx.bounds]
    slice_readers = [ShownChoice((r, b)) for r in ctx.readers for b in profile(r.tool).bounds
                     if b.kind in ("head", "tail")
                     and ctx.slices]

    class EffectMachine(RuleBasedStateMachine):
        records = Bundle("records")

        def __init__(self) -> None:
            super().__init__()
            self.example = Example(ctx, key_field)

        def teardown(self) -> None:
            self.example.close()

        @invariant()
        def records_kept(self) -> None:
            self.example.judge_kept()

        @precondition(lambda self: not self.example.owes_many)
        @rule(target=records, drawn=write_strategy)
        def write_new(self, drawn: dict[str, Any]) -> Any:
            record = self.example.store(drawn)
            return multiple() if record is None else record

        @precondition(lambda self: not self.example.owes_many)
        @rule(target=records, batch=st.lists(write_strategy, min_size=2, max_size=6))
        def write_several(self, batch: list[dict[str, Any]]) -> Any:
            """Several records in a row: bugs that need a fuller store (eviction, large bounds)."""
            return multiple(*(r for r in self.example.store_all(batch) if r is not None))

        @precondition(lambda self: self.example.many and len(self.example.model) < 2)
        @rule(target=records, batch=st.lists(write_strategy, min_size=MANY - 1, max_size=MANY + 1),
              long=long_strategy, again=write_strategy)
        def write_many(self, batch: list[dict[str, Any]], long: dict[str, Any], again: dict[str, Any]) -> Any:
            """Ten or more records early in an example before the oldest is read again: a store that
            keeps only a few records has lost one by then. The newest holds long texts of numbered
            lines; every head/tail reader is asked for half of its lines, every bounded reader for
            one item fewer than the records stored (where an off-by-one shows), and the newest is
            overwritten with shorter values, then with its long ones under a new marker. Each of
            these is also a rule of its own, which an example may never draw."""
            self.example.owes_many = False
            stored = self.example.store_all([*batch, long])
            newest = stored[-1]
            if newest is not None:
                for reader, bound in slice_readers:
                    self.example.judge_slice(reader, bound, newest, None)
            for tool, bound in bound_choices:
                self.example.judge_bound(tool, bound, len(self.example.model) - 1)
            if newest is not None and ctx.key_path is not None:
                self.example.judge_overwrite(newest, again)
                self.example.judge_overwrite(newest, long)
            return multiple(*(r for r in stored if r is not None))

        @precondition(lambda self: ctx.key_path is not None and not self.example.inert)
        @rule(record=records, drawn=write_strategy)
        def overwrite(self, record: Record, drawn: dict[str, Any]) -> None:
            self.example.judge_overwrite(record, drawn)

        @precondition(lambda self: bool(bound_choices) and bool(self.example.model) and not self.example.inert)
        @rule(choice=st.sampled_from(bound_choices) if bound_choices else st.nothing(), data=st.data())
        def bounded_read(self, choice: tuple[Tool, Bound], data: st.DataObject) -> None:
            tool, bound = choice
            lo, hi = bound_range(bound)
            stored = len(self.example.model)
            near = [v for v in (1, 2, stored - 1, stored) if lo <= v <= hi] or [lo]
            n = data.draw(st.one_of(st.sampled_from(sorted(set(near))), st.integers(lo, max(lo, hi))),
                          label=bound.param)
            self.example.judge_bound(tool, bound, n)

        @precondition(lambda self: bool(slice_readers) and bool(self.example.model) and not self.example.inert)
        @rule(choice=st.sampled_from(slice_readers) if slice_readers else st.nothing(),
              record=records, n=st.one_of(st.sampled_from([0, 1, 2, 3]), st.integers(0, 12)))
        def sliced_read(self, choice: tuple[Reader, Bound], record: Record, n: int) -> None:
            self.example.judge_slice(*choice, record, n)

    EffectMachine.__name__ = f"Effect_{ctx.write.name}"
    return EffectMachine
