"""The effect state machine: writes records, overwrites them by key, reads them back.

Hypothesis chooses and interleaves the steps and shrinks a failing sequence. Each example runs
on a fresh server from the pool, so a reproduction always starts from the initial state.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, multiple, precondition, rule

from hypothesis_mcp.catalog import Bound, Tool
from hypothesis_mcp.connection import Connection, Outcome
from hypothesis_mcp.results import CONFIDENCE_ORDER, Call
from hypothesis_mcp.rules.answers import count_items, lines, shown
from hypothesis_mcp.search.pool import ServerPool
from hypothesis_mcp.stateful.bounds import bound_basis
from hypothesis_mcp.stateful.fidelity import changes
from hypothesis_mcp.stateful.judge import ProbeFailure, ProbeFinding
from hypothesis_mcp.stateful.readers import Reader, fill_reader_args, says_skipped, tokens
from hypothesis_mcp.stateful.resource_readers import resource_showing
from hypothesis_mcp.stateful.steps import ShownChoice, shown_calls
from hypothesis_mcp.strategies import find_markers, marked_arguments

PLACEHOLDER = "hm00000000"
MANY = 10
"""Records one step stores in a row: enough for a store that evicts at its 5th, 7th or 9th."""
MANY_EVERY = 8
"""The first example, and one in this many after it, opens with a long batch; the others stay
short, since a long batch costs a dozen writes and their reads."""


@dataclass
class Record:
    key: Any
    marker: str
    args: dict[str, Any]
    key_tokens: set[str]
    value_tokens: set[str]
    confirmed_by: Reader | None = None
    shown_among: int = 0
    """Items (or lines) of the answer that showed the record."""

    @property
    def evidence(self) -> set[str]:
        """Tokens whose presence shows the record. Key tokens only when nothing else was marked:
        a reader that echoes its query ("no note titled X") shows the key without the record."""
        return self.value_tokens or self.key_tokens


@dataclass
class ProbeContext:
    """Everything the machine needs, shared by every example of one probe run."""

    pool: ServerPool
    write: Tool
    readers: list[Reader]
    key_path: str | None
    base_args: dict[str, dict[str, Any]]
    write_args: dict[str, Any] = field(default_factory=dict)
    bounds: list[tuple[Tool, Bound]] = field(default_factory=list)
    slices: bool = True
    salt: int = 0
    shrink_runs: int = 30
    give_up_after: int | None = 4
    runs: int = 0
    runs_after_failure: int = 0
    writes_ok: int = 0
    writes_unmarked: int = 0
    writes_refused: list[Outcome] = field(default_factory=list)
    confirmed: int = 0
    fields_judged: int = 0
    overwrites_judged: int = 0
    stop: Callable[[], bool] = lambda: False
    warm_shrink: bool = True
    open_many: bool = True
    """The first example and one in MANY_EVERY open with a long batch, chosen by the run's count of
    examples. A replay then meets other rules than the run that failed, which the probe run survives
    (it keeps the failure it saw) but a plain Hypothesis run does not: there a long batch is one
    rule among the others."""
    out_of_time: bool = False
    smallest: ProbeFinding | None = None
    persisted: list[tuple[str, list[str]]] = field(default_factory=list)
    """(reader, markers) a fresh server's first read showed from earlier examples: state persists."""
    candidates: list[ProbeFinding] = field(default_factory=list)
    resources_shown: set[str] = field(default_factory=set)
    """Resources that showed a record no read tool showed."""
    _counter: itertools.count[int] = field(default_factory=itertools.count)

    def next_marker(self) -> str:
        return f"hm{self.salt:04x}{next(self._counter) % 0x10000:04x}"

    def record_failure(self, finding: ProbeFinding) -> None:
        self.candidates.append(finding)
        best = self.smallest
        if best is None or (_rank(finding), len(finding.calls)) < (_rank(best), len(best.calls)):
            self.smallest = finding

    @property
    def spent(self) -> bool:
        if self.stop():
            self.out_of_time = True
            return True
        if self.smallest is not None:
            return self.runs_after_failure > self.shrink_runs
        # Every write refused in several examples: the generated values cannot work, and each further
        # example costs a server start for the same inconclusive answer.
        limit = self.give_up_after
        return limit is not None and self.writes_ok == 0 and self.runs > limit and len(self.writes_refused) >= limit


def _rank(finding: ProbeFinding) -> int:
    return CONFIDENCE_ORDER[finding.confidence]


def get_path(args: Any, path: str) -> Any:
    value = args
    for part in path.replace("[]", ".[]").split("."):
        if not part:
            continue
        if part == "[]":
            if not isinstance(value, list) or not value:
                return None
            value = value[0]
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value


def set_path(args: Any, path: str, new: Any) -> None:
    parts = [p for p in path.replace("[]", ".[]").split(".") if p]
    value = args
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "[]":
            if not isinstance(value, list) or not value:
                return
            if last:
                value[0] = new
                return
            value = value[0]
        elif isinstance(value, dict):
            if last:
                value[part] = new
                return
            value = value.get(part)
        else:
            return


def bound_range(bound: Bound) -> tuple[int, int]:
    """The limits a bounded read is tried with: within the schema's, at most 50."""
    return max(1, bound.minimum or 1), bound.maximum if bound.maximum is not None else 50


def build_machine(ctx: ProbeContext) -> type[RuleBasedStateMachine]:
    """A RuleBasedStateMachine class bound to one write tool and its readers."""
    write_strategy = shown_calls(ctx.write.name, marked_arguments(ctx.write, PLACEHOLDER, ctx.write_args or None))
    key_field = ctx.key_path.replace("[]", "").split(".")[-1] if ctx.key_path else None
    long_strategy = shown_calls(ctx.write.name, marked_arguments(
        ctx.write, PLACEHOLDER, ctx.write_args or None, long=True, short=frozenset({key_field} if key_field else ())))
    bound_choices = [ShownChoice((tool, bound)) for tool, bound in ctx.bounds]
    slice_readers = [ShownChoice((r, b)) for r in ctx.readers for b in r.tool.bounds if b.kind in ("head", "tail")
                     and ctx.slices]

    class EffectMachine(RuleBasedStateMachine):
        records = Bundle("records")

        def __init__(self) -> None:
            super().__init__()
            ctx.runs += 1
            if ctx.smallest is not None:
                ctx.runs_after_failure += 1
            self.inert = ctx.spent
            # Exploration runs on fresh servers; once a failure is known, shrinking candidates run
            # on one warm server (markers keep them apart) and the result is verified fresh later.
            self.fresh = ctx.smallest is None or not ctx.warm_shrink
            self.conn: Connection | None = None
            self.calls: list[Call] = []
            self.model: dict[str, Record] = {}
            self.reads: dict[tuple[str, str], Outcome] = {}
            self.proven: set[str] = set()
            # Shrinking a failure may keep or drop a long batch anywhere; exploring, only the
            # examples picked for it hold one, and they open with it.
            self.many = not ctx.open_many or ctx.smallest is not None or ctx.runs % MANY_EVERY == 1
            self.owes_many = ctx.open_many and self.many and ctx.smallest is None
            self.markers: set[str] = set()
            self.isolation_checked = not self.fresh or ctx.pool.shared
            self.looked_before_writing = self.isolation_checked

        def teardown(self) -> None:
            if self.conn is not None and self.fresh:
                ctx.pool.release(self.conn)

        def connect(self) -> Connection:
            """The example's server, taken at its first call: an example Hypothesis rejects before
            any call (a few in every run) costs no server start."""
            if self.conn is None:
                self.conn = ctx.pool.acquire() if self.fresh else ctx.pool.warm()
            return self.conn

        def call(self, tool: str, args: dict[str, Any]) -> Outcome:
            self.calls.append(Call(tool, json.loads(json.dumps(args))))
            return self.connect().call(tool, args)

        def fail(self, rule_id: str, message: str, reader: Reader, expect: dict[str, Any],
                 confidence: str | None = None, check: str = "round-trip", tool: str | None = None,
                 details: dict[str, Any] | None = None) -> None:
            finding = ProbeFinding(
                rule=rule_id, tool=tool or ctx.write.name, message=message,
                confidence=confidence or reader.confidence, basis=reader.basis,
                calls=list(self.calls), expect=expect, check=check, fresh=self.fresh, details=details or {},
            )
            ctx.record_failure(finding)
            raise ProbeFailure(finding)

        def reader_args(self, reader: Reader, record: Record) -> dict[str, Any]:
            return fill_reader_args(reader, record.args, record.key, ctx.base_args.get(reader.tool.name, {}))

        def read(self, reader: Reader, record: Record) -> Outcome:
            """A read tool's answer for this record; the same read is made once between writes."""
            args = self.reader_args(reader, record)
            key = (reader.tool.name, json.dumps(args, sort_keys=True))
            if key in self.reads:
                return self.reads[key]
            outcome = self.call(reader.tool.name, args)
            self.reads[key] = outcome
            if outcome.ok:
                self.check_isolation(reader, outcome)
            return outcome

        def check_isolation(self, reader: Reader, outcome: Outcome) -> None:
            """A new process must not show records this example did not write: if a read does (the
            first that shows any), the server keeps its data outside the process and examples are
            not isolated."""
            if self.isolation_checked:
                return
            earlier = sorted(set(find_markers(shown(outcome))) - self.markers)
            if earlier:
                self.isolation_checked = True
                ctx.persisted.append((reader.tool.name, earlier))

        def write(self, args: dict[str, Any]) -> Outcome:
            self.reads.clear()
            return self.call(ctx.write.name, args)

        def keyed(self, reader: Reader, record: Record) -> bool:
            """The reader is asked for this record (by its key or its values), not for everything."""
            base = ctx.base_args.get(reader.tool.name, {})
            return self.reader_args(reader, record) != fill_reader_args(reader, {}, None, base)

        def confirm(self, record: Record, reader: Reader, outcome: Outcome) -> None:
            record.confirmed_by = reader
            record.shown_among = count_items(outcome)[0]
            ctx.confirmed += 1
            self.proven.add(reader.tool.name)
            self.judge_fields(record, reader, outcome)

        def observe(self, record: Record) -> None:
            """Find a reader that shows the new record; the first one becomes its witness. A keyed
            reader that already showed this tool's records and misses the new one is proof enough."""
            wanted = record.evidence
            answered: list[Reader] = []
            missed_by_proven: Reader | None = None
            for reader in ctx.readers:
                outcome = self.read(reader, record)
                proven = reader.tool.name in self.proven and self.keyed(reader, record)
                if not outcome.ok:
                    if proven and outcome.kind == "result" and missed_by_proven is None:
                        missed_by_proven = reader
                    continue
                answered.append(reader)
                if any(t in shown(outcome) for t in wanted):
                    self.confirm(record, reader, outcome)
                    return
                if proven and missed_by_proven is None:
                    missed_by_proven = reader
            if missed_by_proven is not None:
                reader = missed_by_proven
                again = self.call(reader.tool.name, self.reader_args(reader, record))
                if again.ok and any(t in shown(again) for t in wanted):
                    self.confirm(record, reader, again)
                    return
                if again.kind == "result":
                    self.fail("probe-write-not-observable",
                              f"a write to key {record.key!r} reported success but {reader.tool.name}, which "
                              "showed this tool's earlier records, does not show it", reader,
                              {"contains_any": sorted(wanted), "answered": True}, confidence="high")
            if answered:
                best = min(answered, key=lambda r: CONFIDENCE_ORDER[r.confidence])
                # Read once more through the surest reader, so that the last call of the reproduction,
                # the one a replay judges, is its answer and not whichever reader came last.
                again = self.call(best.tool.name, self.reader_args(best, record))
                if not again.ok:
                    return
                if any(t in shown(again) for t in wanted):
                    self.confirm(record, best, again)
                    return
                if self.conn is not None and (uri := resource_showing(self.conn, wanted)) is not None:
                    ctx.confirmed += 1
                    ctx.resources_shown.add(uri)
                    return
                self.fail("probe-write-not-observable",
                          f"a write to key {record.key!r} reported success but no read tool shows it "
                          f"(read: {', '.join(r.tool.name for r in answered)})",
                          best, {"contains_any": sorted(wanted)})

        def judge_fields(self, record: Record, reader: Reader, outcome: Outcome) -> None:
            """Each written field the read shows under its name must come back as written."""
            found = changes(record.args, outcome, record.value_tokens)
            ctx.fields_judged += 1
            if not found:
                return
            change = found[0]
            self.fail("probe-value-changed",
                      f"a read by {reader.tool.name} shows the record with key {record.key!r} but {change.message}",
                      reader, {"field_equals": change.field, "value": change.written, "marker": change.token},
                      confidence="high" if change.loss else "medium",
                      details={"field": change.field, "written": change.written, "read": change.read})

        def check_kept(self, skip: Record | None = None) -> None:
            """Re-read the oldest and newest records seen so far (at most six reads per step, so a
            long example stays linear; eviction shows on the oldest, overwriting on the newest)."""
            seen = [r for r in self.model.values() if r is not skip and r.confirmed_by is not None]
            for record in seen[:3] + seen[3:][-3:]:
                reader = record.confirmed_by
                assert reader is not None
                outcome = self.read(reader, record)
                wanted = record.evidence
                # A reader that showed the record and now answers with an error ("not found") says
                # it is gone as surely as an answer without it; a timeout or a crash says nothing.
                if outcome.kind != "result":
                    continue
                if outcome.ok and not any(t in shown(outcome) for t in wanted) and not self.keyed(reader, record):
                    more = self.read_all(reader, record, outcome)
                    if more is None:
                        continue
                    outcome = more
                if not outcome.ok or not any(t in shown(outcome) for t in wanted):
                    said = "answers with an error" if not outcome.ok else "no longer shows it"
                    self.fail("probe-data-lost",
                              f"record with key {record.key!r}, shown earlier by {reader.tool.name}, is gone "
                              f"after a later write ({reader.tool.name} {said})", reader,
                              {"contains_any": sorted(wanted), "answered": True}, confidence="high")

        def read_all(self, reader: Reader, record: Record, answer: Outcome) -> Outcome | None:
            """A list as long as the one that showed the record may be a window of the newest
            items: it is asked for more through its limit parameter, and without one not judged."""
            count = count_items(answer)[0]
            if count < record.shown_among:
                return answer
            limit = next((b for b in reader.tool.bounds if b.kind == "limit" and not b.required), None)
            if limit is None:
                return None
            wanted = limit.maximum if limit.maximum is not None else count + len(self.model)
            return self.call(reader.tool.name, {**self.reader_args(reader, record), limit.param: wanted})

        def make_args(self, drawn: dict[str, Any]) -> tuple[str, dict[str, Any]]:
            marker = ctx.next_marker()
            self.markers.add(marker)
            return marker, json.loads(json.dumps(drawn).replace(PLACEHOLDER, marker))

        @precondition(lambda self: not self.owes_many)
        @rule(target=records, drawn=write_strategy)
        def write_new(self, drawn: dict[str, Any]) -> Any:
            record = self.store(drawn)
            return multiple() if record is None else record

        @precondition(lambda self: not self.owes_many)
        @rule(target=records, batch=st.lists(write_strategy, min_size=2, max_size=6))
        def write_several(self, batch: list[dict[str, Any]]) -> Any:
            """Several records in a row: bugs that need a fuller store (eviction, large bounds)."""
            return multiple(*(r for r in self.store_all(batch) if r is not None))

        @precondition(lambda self: self.many and len(self.model) < 2)
        @rule(target=records, batch=st.lists(write_strategy, min_size=MANY - 1, max_size=MANY + 1),
              long=long_strategy, again=write_strategy)
        def write_many(self, batch: list[dict[str, Any]], long: dict[str, Any], again: dict[str, Any]) -> Any:
            """Ten or more records early in an example before the oldest is read again: a store that
            keeps only a few records has lost one by then. The newest holds long texts of numbered
            lines; every head/tail reader is asked for half of its lines, every bounded reader for
            one item fewer than the records stored (where an off-by-one shows), and the newest is
            overwritten with shorter values, then with its long ones under a new marker. Each of
            these is also a rule of its own, which an example may never draw."""
            self.owes_many = False
            stored = self.store_all([*batch, long])
            newest = stored[-1]
            if newest is not None:
                for reader, bound in slice_readers:
                    self.judge_slice(reader, bound, newest, None)
            for tool, bound in bound_choices:
                self.judge_bound(tool, bound, len(self.model) - 1)
            if newest is not None and ctx.key_path is not None:
                self.judge_overwrite(newest, again)
                self.judge_overwrite(newest, long)
            return multiple(*(r for r in stored if r is not None))

        def store_all(self, batch: list[dict[str, Any]]) -> list[Record | None]:
            """Each record written and looked for; the records kept are judged once, after the batch."""
            stored = [self.store(drawn, judge_kept=False) for drawn in batch]
            if not self.inert:
                # The newest was read right after its write; the others are re-read once, here.
                written = [r for r in stored if r is not None]
                self.check_kept(skip=written[-1] if written else None)
            return stored

        def look_before_writing(self) -> None:
            """Before this example's first write, one read that lists (a reader without required
            parameters, if there is one): on a new process it can show only earlier examples' records.
            Not part of the reproduction: a read changes nothing a later call could depend on."""
            self.looked_before_writing = True
            reader = min(ctx.readers, key=lambda r: bool(r.tool.required))
            outcome = self.connect().call(reader.tool.name, ctx.base_args.get(reader.tool.name, {}))
            if outcome.ok:
                self.check_isolation(reader, outcome)

        def store(self, drawn: dict[str, Any], judge_kept: bool = True) -> Record | None:
            if self.inert:
                return None
            if not self.looked_before_writing:
                self.look_before_writing()
            marker, args = self.make_args(drawn)
            outcome = self.write(args)
            if not outcome.ok:
                ctx.writes_refused.append(outcome)
                return None
            ctx.writes_ok += 1
            key = get_path(args, ctx.key_path) if ctx.key_path else marker
            key_tokens = tokens({key_field: key}, marker) if key_field else set()
            record = Record(key, marker, args, key_tokens, tokens(args, marker) - key_tokens)
            # A write to a key already stored replaces that record (a key the user fixed is one
            # record for every write): the old values are not expected to stay.
            self.model.pop(json.dumps(key, sort_keys=True), None)
            if not record.evidence:
                # Every value was given (--arg, a strategy): nothing marks this record in a read.
                ctx.writes_unmarked += 1
                return None
            self.observe(record)
            if judge_kept:
                self.check_kept(skip=record)
            self.model[json.dumps(key, sort_keys=True)] = record
            return record

        @precondition(lambda self: ctx.key_path is not None and not self.inert)
        @rule(record=records, drawn=write_strategy)
        def overwrite(self, record: Record, drawn: dict[str, Any]) -> None:
            self.judge_overwrite(record, drawn)

        def judge_overwrite(self, record: Record, drawn: dict[str, Any]) -> None:
            """A second write to a record's key shows its new values, not the old ones."""
            current = self.model.get(json.dumps(record.key, sort_keys=True))
            if current is None or current.confirmed_by is None:
                return
            marker, args = self.make_args(drawn)
            assert ctx.key_path is not None
            set_path(args, ctx.key_path, current.key)
            new_tokens = tokens(args, marker)
            outcome = self.write(args)
            if not outcome.ok or says_skipped(outcome) or not new_tokens:
                return
            reader = current.confirmed_by
            # The reader asks for the record as now written: its arguments come from this write only.
            old_tokens = current.value_tokens
            current.marker, current.args, current.value_tokens = marker, args, new_tokens
            after = self.read(reader, current)
            if not after.ok:
                return
            ctx.overwrites_judged += 1
            text = shown(after)
            if not any(t in text for t in new_tokens) and any(t in text for t in old_tokens):
                self.fail("probe-silent-noop",
                          f"a second write to key {current.key!r} reported success; state unchanged",
                          reader, {"contains_any": sorted(new_tokens)}, confidence="high")
            self.check_kept(skip=current)

        @precondition(lambda self: bool(bound_choices) and bool(self.model) and not self.inert)
        @rule(choice=st.sampled_from(bound_choices) if bound_choices else st.nothing(), data=st.data())
        def bounded_read(self, choice: tuple[Tool, Bound], data: st.DataObject) -> None:
            tool, bound = choice
            lo, hi = bound_range(bound)
            stored = len(self.model)
            near = [v for v in (1, 2, stored - 1, stored) if lo <= v <= hi] or [lo]
            n = data.draw(st.one_of(st.sampled_from(sorted(set(near))), st.integers(lo, max(lo, hi))),
                          label=bound.param)
            self.judge_bound(tool, bound, n)

        def judge_bound(self, tool: Tool, bound: Bound, n: int) -> None:
            """A limit of n returns at most n items, and all of them when fewer are stored."""
            lo, hi = bound_range(bound)
            n = min(max(n, lo), max(lo, hi))
            base = dict(ctx.base_args.get(tool.name, {}))
            base.pop(bound.param, None)
            full = self.call(tool.name, base)
            limited = self.call(tool.name, {**base, bound.param: n})
            if not (full.ok and limited.ok):
                return
            everything, unit = count_items(full)
            got, _ = count_items(limited)
            if unit != "items":
                return  # text lines are no count of items: a prose answer is not judged
            reader = Reader(tool, "medium", bound_basis(tool, bound))
            if got > n:
                self.fail("probe-bound-exceeded",
                          f"{bound.param}={n} returned {got} {unit} (at most {n} allowed)",
                          reader, {"max_items": n, "unit": unit}, check="bound", tool=tool.name)
            if not bound.required and got < min(n, everything):
                self.fail("probe-bound-short",
                          f"{bound.param}={n} returned {got} {unit}; {min(n, everything)} expected "
                          f"(min({n}, {everything}))",
                          reader, {"exact_of": n, "unit": unit}, check="bound",
                          tool=tool.name)

        @precondition(lambda self: bool(slice_readers) and bool(self.model) and not self.inert)
        @rule(choice=st.sampled_from(slice_readers) if slice_readers else st.nothing(),
              record=records, n=st.one_of(st.sampled_from([0, 1, 2, 3]), st.integers(0, 12)))
        def sliced_read(self, choice: tuple[Reader, Bound], record: Record, n: int) -> None:
            self.judge_slice(*choice, record, n)

        def judge_slice(self, reader: Reader, bound: Bound, record: Record, n: int | None) -> None:
            """head/tail on a record this example wrote: the first/last n lines of the full read
            (without n, half of them)."""
            base = ctx.base_args.get(reader.tool.name, {})
            args = {k: v for k, v in fill_reader_args(reader, record.args, record.key, base).items()
                    if k not in {b.param for b in reader.tool.bounds if b.kind in ("head", "tail")}}
            full = self.call(reader.tool.name, args)
            if n is None:
                if not full.ok:
                    return
                n = len(lines(full)) // 2
            limited = self.call(reader.tool.name, {**args, bound.param: n})
            if not (full.ok and limited.ok):
                return
            whole, got = lines(full), lines(limited)
            want = whole[:n] if bound.kind == "head" else (whole[-n:] if n else [])
            if got == want:
                return
            rule_id = ("probe-bound-exceeded" if len(got) > len(want)
                       else "probe-bound-short" if len(got) < len(want) else "probe-slice-mismatch")
            self.fail(rule_id, f"{bound.param}: {n} returned {len(got)} line(s); the {len(want)} "
                      f"{'first' if bound.kind == 'head' else 'last'} line(s) of the full content expected",
                      Reader(reader.tool, "medium", bound_basis(reader.tool, bound)),
                      {"slice": bound.kind, "n": n}, check="bound", tool=reader.tool.name)

    EffectMachine.__name__ = f"Effect_{ctx.write.name}"
    return EffectMachine
