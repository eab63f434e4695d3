"""One example of the effect machine: the server it talks to, what it wrote and read, and the
judgements of each write and read. The state machine (machine.py) holds only the rules that
Hypothesis chooses; each rule asks its example to act and judge."""

from __future__ import annotations

import json
from typing import Any, NoReturn

from hypothesis_mcp.catalog import Bound, Tool
from hypothesis_mcp.connection import Connection, Outcome
from hypothesis_mcp.model.facts import Fact, fact_guessed, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.results import CONFIDENCE_ORDER, Call, Check, RuleId
from hypothesis_mcp.rules.answers import count_items, lines, shown
from hypothesis_mcp.stateful.bounds import bound_basis, bound_fact
from hypothesis_mcp.stateful.context import (
    MANY_EVERY,
    ProbeContext,
    Record,
    bound_range,
    get_path,
    set_path,
)
from hypothesis_mcp.stateful.continuation import page_full, pages_after
from hypothesis_mcp.stateful.fidelity import changes, each_field
from hypothesis_mcp.stateful.judge import ProbeFailure, ProbeFinding
from hypothesis_mcp.stateful.keys import top
from hypothesis_mcp.stateful.pages import paging_of
from hypothesis_mcp.stateful.readers import Reader, fill_reader_args, says_skipped, tokens
from hypothesis_mcp.stateful.resource_readers import resource_showing
from hypothesis_mcp.stateful.unmarked import RETRIES, merged, retried, unmarked
from hypothesis_mcp.stateful.watch import size
from hypothesis_mcp.strategies import find_markers, leading_marker, with_marker


class Example:
    """The state of one example and what it judges; a new one for every example Hypothesis runs."""

    def __init__(self, ctx: ProbeContext, key_field: str | None) -> None:
        self.ctx = ctx
        self.key_field = key_field
        self.ctx.runs += 1
        if self.ctx.smallest is not None:
            self.ctx.runs_after_failure += 1
        self.inert = self.ctx.spent
        # Exploration runs on fresh servers (on the warm one where the context says so); once a
        # failure is known, shrinking candidates run on one warm server (markers keep them apart)
        # and the result is verified fresh later.
        self.fresh = not self.ctx.warm and (self.ctx.smallest is None or not self.ctx.warm_shrink)
        self.conn: Connection | None = None
        self.calls: list[Call] = []
        self.answered: dict[int, int] = {}
        """Each answer's object id, to the number of calls made up to and with its own."""
        self.model: dict[str, Record] = {}
        self.reads: dict[tuple[str, str], Outcome] = {}
        self.proven: dict[str, str] = {}
        """Readers that showed a record of this example, with that record's marker."""
        # Shrinking a failure may keep or drop a long batch anywhere; exploring, only the
        # examples picked for it hold one, and they open with it.
        self.many = not self.ctx.open_many or self.ctx.smallest is not None or self.ctx.runs % MANY_EVERY == 1
        self.owes_many = self.ctx.open_many and self.many and self.ctx.smallest is None
        self.markers: set[str] = set()
        self.isolation_checked = not self.fresh or self.ctx.pool.shared
        self.looked_before_writing = self.isolation_checked
        self.retries = RETRIES
        self.unjudged: Record | None = None
        """After a step's writes, the record read back last: the kept-records invariant skips it."""

    def close(self) -> None:
        if self.conn is not None and self.fresh:
            self.ctx.pool.release(self.conn)

    def connect(self) -> Connection:
        """The example's server, taken at its first call: an example Hypothesis rejects before
        any call (a few in every run) costs no server start."""
        if self.conn is None:
            self.conn = self.ctx.pool.acquire() if self.fresh else self.ctx.pool.warm()
        return self.conn

    def call(self, tool: str, args: dict[str, Any]) -> Outcome:
        self.calls.append(Call(tool, json.loads(json.dumps(args))))
        outcome = self.connect().call(tool, args)
        self.answered[id(outcome)] = len(self.calls)
        return outcome

    def fail(self, rule_id: RuleId, message: str, reader: Reader, expect: dict[str, Any],
             confidence: str | None = None, check: Check = "round-trip", tool: str | None = None,
             details: dict[str, Any] | None = None, facts: tuple[Fact, ...] = (), *,
             stop: bool = True, judged: Outcome | None = None) -> ProbeFinding:
        """Record the finding and end the example; with `stop=False` only record it (`stopped`
        ends the example later), so each cause one answer shows (every field it changed) is kept.
        `judged`: the answer the finding rests on, where calls made after it (a next page tried and
        found wanting) are not part of the reproduction, whose last read must be that answer's."""
        end = self.answered.get(id(judged), len(self.calls)) if judged is not None else len(self.calls)
        finding = ProbeFinding(
            rule=rule_id, tool=tool or self.ctx.write.name, message=message,
            confidence=confidence or reader.confidence, basis=reader.basis,
            calls=self.calls[:end], expect=expect, check=check, fresh=self.fresh, details=details or {},
            facts=(*facts, *self.ctx.refusals),
        )
        self.ctx.record_failure(finding)
        if stop:
            self.stopped(finding)
        return finding

    def stopped(self, finding: ProbeFinding) -> NoReturn:
        raise ProbeFailure(finding, self.ctx.shown(finding) if self.ctx.shown else None)

    def showed(self, reader: str, marker: str) -> Fact:
        """That `reader` shows this write's records, shown by the write of `marker` and a read after it."""
        write = self.ctx.write.name
        return fact_shown(f"{reader} shows the records {write} writes", marker=marker, tools=(write, reader))

    def replaces(self) -> Fact:
        """That a second write with the same key replaces the first: calibrated, stated, or guessed."""
        if self.ctx.overwrite is not None:
            return self.ctx.overwrite
        write = self.ctx.write.name
        return fact_guessed(f"a second write to {write} with the same {self.key_field} replaces the first",
                            f"the key {self.key_field!r} chosen from the schema and the field's name")

    def distinct(self, record: Record) -> Fact:
        """That the writes after `record` made other records. Shown by the calls when none of them
        filled a text or number field with the value `record` has there (then no field can be an
        identity they share); otherwise it rests on what tells records apart."""
        write = self.ctx.write.name
        marker = json.dumps(record.marker)[1:-1]
        start = next((i for i, c in enumerate(self.calls) if c.tool == write
                      and marker in json.dumps(c.arguments)), len(self.calls))
        plain = {k: v for k, v in record.args.items() if isinstance(v, str | int) and not isinstance(v, bool)}
        shared = sorted({k for c in self.calls[start + 1:] if c.tool == write
                         for k, v in plain.items() if c.arguments.get(k) == v})
        if not shared:
            return fact_shown(f"the writes to {write} after it share no text or number with it, so they made "
                              "other records whatever field is the identity", marker=record.marker, tools=(write,))
        if self.ctx.identity is not None:
            return self.ctx.identity
        return fact_guessed(f"{self.key_field or 'the marker'} tells {write}'s records apart (a later write had "
                            f"the same {', '.join(shared)})", "the key chosen from the schema and the field's name")

    def reader_args(self, reader: Reader, record: Record) -> dict[str, Any]:
        args = fill_reader_args(reader, record.args, record.key, self.ctx.base_args.get(reader.tool.name, {}))
        return by_marker(args) if record.by_marker else args

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
            self.ctx.persisted.append((reader.tool.name, earlier))

    def write(self, args: dict[str, Any]) -> Outcome:
        self.reads.clear()
        return self.call(self.ctx.write.name, args)

    def send(self, args: dict[str, Any], marker: str) -> tuple[dict[str, Any], Outcome]:
        """A write, with the fields the run learnt to leave unmarked left so; refused, it is tried
        again with fewer marked fields (the key keeps its marker). The reproduction keeps only the
        last try: a refused write changed nothing a later call depends on."""
        tool = self.ctx.write
        learned = self.ctx.unmarked
        fewer = unmarked(tool, learned, args, marker) if learned is not None else None
        if fewer is not None:
            args = fewer
        outcome = self.write(args)
        if not outcome.rejected or self.retries <= 0:
            return args, outcome
        key = top(self.ctx.key_path) if self.ctx.key_path else None
        for plan, fewer in retried(tool, args, marker, key)[:self.retries]:
            self.retries -= 1
            self.calls.pop()
            again = self.write(fewer)
            if again.ok:
                self.ctx.unmarked = merged(self.ctx.unmarked, plan)
                return fewer, again
            self.ctx.retries_refused.append((plan, again.slim()))
            if not again.rejected:
                return fewer, again
        return args, outcome

    def keyed(self, reader: Reader, record: Record) -> bool:
        """The reader is asked for this record (by its key or its values), not for everything."""
        base = self.ctx.base_args.get(reader.tool.name, {})
        return self.reader_args(reader, record) != fill_reader_args(reader, {}, None, base)

    def confirm(self, record: Record, reader: Reader, outcome: Outcome, own: bool = True) -> None:
        """`reader` showed the record in `outcome`; `own` where it was asked as judge_kept asks it again
        (not for a larger or a later page): only then is a shorter answer later one that lost records."""
        record.confirmed_by = reader
        record.shown_among = records_in(outcome) if own else 0
        self.ctx.confirmed += 1
        self.proven[reader.tool.name] = record.marker
        self.judge_fields(record, reader, outcome)

    def observe(self, record: Record) -> None:
        """Find a reader that shows the new record; the first one becomes its witness. A keyed
        reader that already showed this tool's records and misses the new one is proof enough."""
        wanted = record.evidence
        answered: list[Reader] = []
        missed_by_proven: Reader | None = None
        for reader in self.ctx.readers:
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
            args = self.reader_args(reader, record)
            # Earlier records were found by their plain values; this one's may hold characters the
            # store rewrites (stripped controls, folded case). Asked by its marker alone, a reader that
            # then shows it stored the write: how the value was kept is the field checks' finding.
            marked = by_marker(args)
            if marked != args:
                found = self.call(reader.tool.name, marked)
                if found.ok and any(t in shown(found) for t in wanted):
                    record.by_marker = True
                    self.confirm(record, reader, found)
                    return
            again = self.call(reader.tool.name, args)
            if again.ok and any(t in shown(again) for t in wanted):
                self.confirm(record, reader, again)
                return
            if again.kind == "result":
                self.fail("probe-write-not-observable",
                          f"a write to key {record.key!r} reported success but {reader.tool.name}, which "
                          "showed this tool's earlier records, does not show it", reader,
                          {"contains_any": sorted(wanted), "answered": True}, confidence="high",
                          facts=(self.showed(reader.tool.name, self.proven[reader.tool.name]),))
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
                self.ctx.confirmed += 1
                self.ctx.resources_shown.add(uri)
                return
            if not self.keyed(best, record):
                whole = self.largest_page(best, record, again)
                if whole is None:
                    return
                if any(t in shown(whole) for t in wanted):
                    self.confirm(record, best, whole, own=whole is again)
                    return
                later = pages_after(self.call, best.tool, self.reader_args(best, record), again)
                if later is not None:
                    # One page of a longer listing: a later page that shows the record confirms it;
                    # none judges a loss here (the page probe walks such listings).
                    page = next((p for p in later.pages if any(t in shown(p) for t in wanted)), None)
                    if page is not None:
                        self.confirm(record, best, page, own=False)
                    return
                if paging_of(best.tool) is not None or (page_limit(best) is None and page_full(best.tool, again)):
                    return  # a page of a listing this run cannot walk or ask for more shows not all of it
            self.fail("probe-write-not-observable",
                      f"a write to key {record.key!r} reported success but no read tool shows it "
                      f"(read: {', '.join(r.tool.name for r in answered)})",
                      best, {"contains_any": sorted(wanted)}, facts=(best.shows(self.ctx.write.name),))

    def judge_fields(self, record: Record, reader: Reader, outcome: Outcome) -> None:
        """Each written field the read shows under its name must come back as written."""
        found = changes(record.args, outcome, record.value_tokens)
        self.ctx.fields_judged += 1
        if not found:
            return
        first, *_ = [self.fail("probe-value-changed",
                               f"a read by {reader.tool.name} shows the record with key {record.key!r} but "
                               f"{change.message}", reader,
                               {"field_equals": change.field, "value": change.written, "marker": change.token},
                               confidence="high" if change.loss else "medium",
                               details={"field": change.field, "written": change.written, "read": change.read},
                               facts=(self.showed(reader.tool.name, record.marker),), stop=False)
                     for change in each_field(found)]
        self.stopped(first)

    def judge_kept(self) -> None:
        """After a step that wrote, re-read the oldest and newest records seen so far, apart from
        the one just read back (at most six reads per step, so a long example stays linear;
        eviction shows on the oldest, overwriting on the newest). A step that only read owes none."""
        skip, self.unjudged = self.unjudged, None
        if skip is None:
            return
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
                          {"contains_any": sorted(wanted), "answered": True}, confidence="high",
                          facts=(self.showed(reader.tool.name, record.marker), self.distinct(record)),
                          judged=outcome)

    def read_all(self, reader: Reader, record: Record, answer: Outcome) -> Outcome | None:
        """A list as long as the one that showed the record may be a window of the newest
        items: it is asked for more through its limit parameter, and without one not judged."""
        count = records_in(answer)
        if count < record.shown_among:
            return answer
        limit = page_limit(reader)
        if limit is None:
            return None
        wanted = limit.maximum if limit.maximum is not None else count + len(self.model)
        args = {**self.reader_args(reader, record), limit.param: wanted}
        most = self.call(reader.tool.name, args)
        if not most.ok or any(t in shown(most) for t in record.evidence):
            return most
        # The largest page may still be one page of more: the record may sit on a later one.
        later = pages_after(self.call, reader.tool, args, most)
        if later is None:
            # A page as long as was asked, with no way to the next one, may hold the record after it.
            return None if paging_of(reader.tool) is not None or records_in(most) >= wanted else most
        page = next((p for p in later.pages if any(t in shown(p) for t in record.evidence)), None)
        return page if page is not None else most if later.ended else None

    def largest_page(self, reader: Reader, record: Record, answer: Outcome) -> Outcome | None:
        """A listing with a limit parameter may hold the new record past its first page: it is asked
        for its largest page, which judges the write only when it is not full (None when it is)."""
        limit = page_limit(reader)
        if limit is None:
            return answer
        asked = limit.maximum if limit.maximum is not None else count_items(answer)[0] + len(self.model) + 1
        whole = self.call(reader.tool.name, {**self.reader_args(reader, record), limit.param: asked})
        if not whole.ok:
            return answer
        return None if count_items(whole)[0] >= asked else whole

    def make_args(self, drawn: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        marker = self.ctx.next_marker()
        self.markers.add(marker)
        return marker, with_marker(drawn, marker)

    def store_all(self, batch: list[dict[str, Any]]) -> list[Record | None]:
        """Each record written and looked for; the records kept are judged once, after the step."""
        return [self.store(drawn) for drawn in batch]

    def look_before_writing(self) -> None:
        """Before this example's first write, one read that lists (a reader without required
        parameters, if there is one): on a new process it can show only earlier examples' records.
        Not part of the reproduction: a read changes nothing a later call could depend on."""
        self.looked_before_writing = True
        reader = min(self.ctx.readers, key=lambda r: bool(profile(r.tool).required))
        outcome = self.connect().call(reader.tool.name, self.ctx.base_args.get(reader.tool.name, {}))
        if outcome.ok:
            self.check_isolation(reader, outcome)

    def store(self, drawn: dict[str, Any]) -> Record | None:
        if self.inert:
            return None
        if not self.looked_before_writing:
            self.look_before_writing()
        marker, args = self.make_args(drawn)
        args, outcome = self.send(args, marker)
        if not outcome.ok:
            self.ctx.writes_refused.append(outcome)
            return None
        self.ctx.writes_ok += 1
        key = get_path(args, self.ctx.key_path) if self.ctx.key_path else marker
        key_tokens = tokens({self.key_field: key}, marker) if self.key_field else set()
        record = Record(key, marker, args, key_tokens, tokens(args, marker) - key_tokens)
        # A write to a key already stored replaces that record (a key the user fixed is one
        # record for every write): the old values are not expected to stay. Where calibration
        # showed that such a write adds a record, both stay, under the marker of each.
        if self.ctx.appends:
            key = (key, marker)
        self.model.pop(json.dumps(key, sort_keys=True), None)
        if not record.evidence:
            # Every value was given (--arg, a strategy): nothing marks this record in a read.
            self.ctx.writes_unmarked += 1
            return None
        self.observe(record)
        self.unjudged = record
        self.model[json.dumps(key, sort_keys=True)] = record
        return record

    def judge_overwrite(self, record: Record, drawn: dict[str, Any]) -> None:
        """A second write to a record's key shows its new values, not the old ones."""
        current = self.model.get(json.dumps(record.key, sort_keys=True))
        if current is None or current.confirmed_by is None or self.ctx.appends:
            return
        marker, args = self.make_args(drawn)
        assert self.ctx.key_path is not None
        set_path(args, self.ctx.key_path, current.key)
        args, outcome = self.send(args, marker)
        new_tokens = tokens(args, marker)
        if not outcome.ok or says_skipped(outcome) or not new_tokens:
            return
        reader = current.confirmed_by
        # The reader asks for the record as now written: its arguments come from this write only.
        old_tokens, old_marker = current.value_tokens, current.marker
        current.marker, current.args, current.value_tokens = marker, args, new_tokens
        after = self.read(reader, current)
        if not after.ok:
            return
        self.ctx.overwrites_judged += 1

        def unchanged(answer: Outcome) -> bool:
            text = shown(answer)
            return not any(t in text for t in new_tokens) and any(t in text for t in old_tokens)

        if unchanged(after):
            message = f"a second write to key {current.key!r} reported success; state unchanged"
            listing = self.listing(current)
            if listing is not None and listing is not reader:
                seen = self.call(listing.tool.name, self.reader_args(listing, current))
                if seen.ok and any(t in shown(seen) for t in new_tokens):
                    return  # the new record is stored: the keyed reader shows the first of two
                # The listing judges instead only where it shows the old values themselves, not
                # just the key (a list of names shows neither value and proves nothing).
                key_text = current.key if isinstance(current.key, str) else json.dumps(current.key)
                if seen.ok and unchanged(seen) and any(t in shown(seen) for t in old_tokens if t not in key_text):
                    reader = listing
                else:
                    # Read through the reader again: the last call, the one a replay judges, is its.
                    again = self.call(reader.tool.name, self.reader_args(reader, current))
                    if not again.ok or not unchanged(again):
                        return
            if not self.keyed(reader, current):
                facts = (self.showed(reader.tool.name, old_marker),
                         fact_shown(f"{reader.tool.name} is asked for no record in particular, so it would show a "
                                    "record with the new values, replacing or added", marker=old_marker,
                                    tools=(self.ctx.write.name, reader.tool.name)))
            else:
                facts = (self.showed(reader.tool.name, old_marker), self.replaces())
            self.fail("probe-silent-noop", message, reader, {"contains_any": sorted(new_tokens)}, confidence="high",
                      facts=facts)
        self.unjudged = current

    def listing(self, record: Record) -> Reader | None:
        """A reader asked for no record in particular that has shown this write's records (in this
        example, or in calibration)."""
        return next((r for r in self.ctx.readers if (r.tool.name in self.proven or r.fact is not None)
                     and not self.keyed(r, record)), None)

    def judge_bound(self, tool: Tool, bound: Bound, n: int) -> None:
        """A limit of n returns at most n items, and all of them when fewer are stored."""
        lo, hi = bound_range(bound)
        n = min(max(n, lo), max(lo, hi))
        base = dict(self.ctx.base_args.get(tool.name, {}))
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
        facts = (bound_fact(tool.name, bound.param, reader.basis),)
        if got > n:
            self.fail("probe-bound-exceeded",
                      f"{bound.param}={n} returned {got} {unit} (at most {n} allowed)",
                      reader, {"max_items": n, "unit": unit}, check="bound", tool=tool.name, facts=facts)
        if not bound.required and got < min(n, everything):
            self.fail("probe-bound-short",
                      f"{bound.param}={n} returned {got} {unit}; {min(n, everything)} expected "
                      f"(min({n}, {everything}))",
                      reader, {"exact_of": n, "unit": unit}, check="bound",
                      tool=tool.name, facts=facts)

    def judge_slice(self, reader: Reader, bound: Bound, record: Record, n: int | None) -> None:
        """head/tail on a record this example wrote: the first/last n lines of the full read
        (without n, half of them)."""
        base = self.ctx.base_args.get(reader.tool.name, {})
        args = {k: v for k, v in fill_reader_args(reader, record.args, record.key, base).items()
                if k not in {b.param for b in profile(reader.tool).bounds if b.kind in ("head", "tail")}}
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
        rule_id: RuleId = ("probe-bound-exceeded" if len(got) > len(want)
                   else "probe-bound-short" if len(got) < len(want) else "probe-slice-mismatch")
        basis = bound_basis(reader.tool, bound)
        self.fail(rule_id, f"{bound.param}: {n} returned {len(got)} line(s); the {len(want)} "
                  f"{'first' if bound.kind == 'head' else 'last'} line(s) of the full content expected",
                  Reader(reader.tool, "medium", basis),
                  {"slice": bound.kind, "n": n}, check="bound", tool=reader.tool.name,
                  facts=(bound_fact(reader.tool.name, bound.param, basis),))


def records_in(outcome: Outcome) -> int:
    """How many records a listing shows, to tell a listing that shrank from a window that moved on:
    its items where it answers JSON, else its table rows or the markers it shows (watch.size). Never
    its lines: a value's own line breaks (U+0085 in a field the write drew unmarked) add lines, and a
    window of as many records then looks shorter once that record has left it."""
    count, unit = count_items(outcome)
    return count if unit == "items" else size(outcome)


def page_limit(reader: Reader) -> Bound | None:
    """The optional limit-like parameter through which a listing is asked for more of its items."""
    return next((b for b in profile(reader.tool).bounds if b.kind == "limit" and not b.required), None)


def by_marker(args: dict[str, Any]) -> dict[str, Any]:
    """Read arguments with each marked text cut to its marker, the part every store keeps."""
    return {k: (leading_marker(v) or v) if isinstance(v, str) else v for k, v in args.items()}
