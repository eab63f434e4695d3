"""Readers agree, and overwrites follow calibration: a model-based state machine over the records
one write tool stored.

The machine writes records (a Bundle of them) and writes again to records it holds, with the same
identity and new values. After each write, every reader calibration showed for this write must
show the record as the model holds it: a reader that shows the old values while another shows the
new ones disagrees (a listing served from a cache, a search index updated late). After a write that
calibration showed replaces, no reader shows the old values beside the new ones, a listing shows
the identity once, and a search for an old value no longer finds the record. A count is learnt by
experiment, never by a tool's name: a number a reader without required parameters shows that moved
by one with each new record of this example; from then on it must equal the number the model
holds (an overwrite that bumps a counter, a total of stored versions). Such a number is a count
shown only where it also equalled the records a listing showed at two different sizes; else it may
be an id, a sequence or a total of something else, a count by guess, and a finding on it is low.
Every example runs on a fresh server; a finding is shrunk and replayed there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import event, target
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, multiple, rule

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.model.facts import Fact, fact_guessed, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.results import Call, RuleId
from hypothesis_mcp.rules.answers import numbers_in, shown
from hypothesis_mcp.rules.expectations import Expectation, ListedOnce, NumberAt, Replaced, ShowsNone
from hypothesis_mcp.stateful.calibrate import APPENDS, REPLACES, Calibration
from hypothesis_mcp.stateful.context import ProbeContext, Record, get_path, set_path
from hypothesis_mcp.stateful.example import Example
from hypothesis_mcp.stateful.host import ProbeHost, ProbeOutput
from hypothesis_mcp.stateful.judge import ProbeFinding
from hypothesis_mcp.stateful.modelrun import marker_salt, run_model, surest
from hypothesis_mcp.stateful.readers import Reader, fill_reader_args, says_skipped, tokens
from hypothesis_mcp.stateful.shrink import smaller
from hypothesis_mcp.stateful.steps import shown_calls
from hypothesis_mcp.stateful.watch import size, switch
from hypothesis_mcp.strategies import PLACEHOLDER, marked_arguments
from hypothesis_mcp.strategies.dialect import admits
from hypothesis_mcp.vocabulary import is_query

AGREE: RuleId = "probe-readers-disagree"
COUNT: RuleId = "probe-count-wrong"
OVERWRITE: RuleId = "probe-overwrite-kept-old"
STEPS = 6
"""Steps of one example after its opening (two records and one overwrite)."""
SHRINK_RUNS = 12
"""Examples Hypothesis may run after a failure: each one starts a fresh server."""


@dataclass
class Tally:
    """A reader without required parameters whose numbers may count the records: the numbers it
    showed before the first write, those still equal to that plus the records held, and the calls
    that showed it."""

    reader: Reader
    base: dict[str, float]
    live: set[str]
    calls: list[Call] = field(default_factory=list)
    learned: bool = False
    listed: dict[str, set[float]] = field(default_factory=dict)
    """Per number, the values at which it equalled the records a listing showed."""
    alike: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per number, the choices (a boolean, an enum member) every record shared while it was learnt:
    it may count only the records with one of them, until a record without it moved it too."""


def shared(tool: Tool, records: list[Record]) -> dict[str, Any]:
    """The choices (a boolean, an enum member: watch.switch) every record holds alike."""
    if not records:
        return {}
    return {k: v for k, v in records[0].args.items()
            if switch(tool, k, v) and all(r.args.get(k) == v for r in records[1:])}


class AgreeExample(Example):
    """One example: writes and overwrites, each judged against every reader and count."""

    def __init__(self, ctx: ProbeContext, key_field: str | None, calibration: Calibration) -> None:
        super().__init__(ctx, key_field)
        self.calibration = calibration
        self.replacing = calibration.overwrite == REPLACES
        self.tallies: list[Tally] | None = None

    def identity(self, record: Record) -> str:
        return json.dumps(record.key, sort_keys=True) if self.replacing else record.marker

    def put(self, drawn: dict[str, Any], over: Record | None = None) -> Record | None:
        """A write of new values; with `over`, to the identity of that record."""
        if self.inert:
            return None
        if self.tallies is None:
            self.start_tallies()
        marker, args = self.make_args(drawn)
        if over is not None:
            assert self.ctx.key_path is not None
            set_path(args, self.ctx.key_path, over.key)
        args, outcome = self.send(args, marker)
        if not outcome.ok or says_skipped(outcome):
            return None
        key = get_path(args, self.ctx.key_path) if self.ctx.key_path else marker
        key_tokens = tokens({self.key_field: key}, marker) if self.key_field else set()
        if over is not None:
            key_tokens = over.key_tokens
        record = Record(key, marker, args, key_tokens, tokens(args, marker) - key_tokens)
        old = self.model.get(self.identity(record))
        self.model[self.identity(record)] = record
        self.reads.clear()
        self.judge_tallies()
        # Where a write with the same key adds a record, a get by that key may show either one:
        # such a write judges only the counts.
        if record.value_tokens and (over is None or self.replacing):
            self.judge_readers(record, old if self.replacing else None)
        return record

    def start_tallies(self) -> None:
        """Before the first write: the numbers each reader without required parameters shows."""
        self.tallies = []
        for reader in self.ctx.readers:
            if profile(reader.tool).required:
                continue
            answer = self.call(reader.tool.name, self.unasked(reader))
            found = numbers_in(answer) if answer.ok else {}
            if found:
                self.tallies.append(Tally(reader, found, set(found), [self.calls[-1]]))

    def unasked(self, reader: Reader) -> dict[str, Any]:
        """A reader asked for no record in particular, with its largest page: a count of one page
        stops growing at the page's size."""
        return fill_reader_args(reader, {}, None, self.ctx.base_args.get(reader.tool.name, {}))

    def judge_tallies(self) -> None:
        """A number learnt as a count equals what it showed first plus the records held; until it is
        learnt, each write keeps the numbers that still do."""
        held = len(self.model)
        answers: dict[str, Outcome] = {}
        for tally in self.tallies or []:
            if not tally.live:
                continue
            answer = answers[tally.reader.tool.name] = self.call(tally.reader.tool.name, self.unasked(tally.reader))
            if not answer.ok:
                continue
            found = numbers_in(answer)
            tally.calls.extend([self.last_write(), self.calls[-1]])
            self.list_against(tally, found, answers)
            records = list(self.model.values())
            if not tally.learned:
                tally.live = {p for p in tally.live if found.get(p) == tally.base[p] + held}
                tally.alike = {p: shared(self.ctx.write, records) for p in tally.live}
                tally.learned = held >= 2 and bool(tally.live)
                if tally.learned:
                    event(f"count learnt: {tally.reader.tool.name}")
                continue
            # A count shown by a listing first: a guessed one failing first would hide it.
            for path in sorted(tally.live, key=lambda p: (len(tally.listed.get(p, ())) < 2, p)):
                expected = tally.base[path] + held
                # Each choice the learning records shared is another count this number may be: those
                # records with it. A record without it that moved the number rules it out.
                alike = tally.alike.get(path, {})
                narrower = {k: tally.base[path] + sum(r.args.get(k) == v for r in records) for k, v in alike.items()}
                if found.get(path) == expected:
                    tally.alike[path] = {k: v for k, v in alike.items() if narrower[k] == expected}
                    continue
                if found.get(path, expected) != expected and found.get(path) not in narrower.values():
                    self.fail(COUNT, count_message(tally.reader.tool.name, path, tally.base[path], expected),
                              tally.reader,
                              {NumberAt.key: path, "value": expected}, confidence="high", check="agree",
                              tool=tally.reader.tool.name,
                              details={"base": tally.base[path], "path": path},
                              facts=(self.count_fact(tally, path), *self.overwrite_facts()))

    def list_against(self, tally: Tally, found: dict[str, float], answers: dict[str, Outcome]) -> None:
        """Where a live number equals the records a listing (a reader asked for nothing in
        particular) shows now, note it: at two sizes, that rules out an id or a sequence."""
        for path in tally.live:
            value = found.get(path)
            if value is None or len(tally.listed.get(path, set())) >= 2:
                continue
            for reader in self.ctx.readers:
                if profile(reader.tool).required:
                    continue
                name = reader.tool.name
                if name not in answers:
                    answers[name] = self.call(name, self.unasked(reader))
                    tally.calls.append(self.calls[-1])
                if answers[name].ok and size(answers[name]) == value:
                    tally.listed.setdefault(path, set()).add(value)
                    break

    def count_fact(self, tally: Tally, path: str) -> Fact:
        """That a number counts this write's records: shown where it also equalled the records a
        listing showed at two sizes, else a guess (an id, a sequence, a total of something else
        move by one with each new record too)."""
        name, write = tally.reader.tool.name, self.ctx.write.name
        what = f"{name} counts the records {write} writes: its number at {path} moved by one with each new record"
        sizes = sorted(tally.listed.get(path, set()))
        if len(sizes) >= 2:
            return fact_shown(f"{what} and equalled the records a listing showed at {sizes[0]:g} and {sizes[-1]:g}",
                              calls=tally.calls, source="this example")
        return fact_guessed(what, "no listing showed as many records at two sizes: it may be an id, a sequence "
                            "or a total of something else")

    def last_write(self) -> Call:
        return self.last_call(self.ctx.write.name)

    def last_call(self, tool: str) -> Call:
        return next(c for c in reversed(self.calls) if c.tool == tool)

    def overwrite_facts(self) -> tuple[Fact, ...]:
        c = self.calibration
        return tuple(f for f in (c.overwrite_fact, c.identity_fact) if f is not None)

    def judge_readers(self, record: Record, old: Record | None) -> None:
        """Every calibrated reader shows the record as now written once one of them does; after a
        replacing write, none shows the old values beside it or lists the identity twice, and a
        search for an old value no longer finds it."""
        readers = [r for r in self.ctx.readers if r.fact is not None]
        new = record.value_tokens
        answers = {r.tool.name: self.read(r, record) for r in readers}
        showing = [r for r in readers if answers[r.tool.name].ok and any(t in shown(answers[r.tool.name]) for t in new)]
        if not showing:
            return
        witness = showing[0]
        # Shown by its own calls: the shrunk reproduction keeps the disagreeing reader, not the witness.
        seen = fact_shown(f"{witness.tool.name} shows the record as now written",
                          calls=[self.last_write(), self.last_call(witness.tool.name)], source="this example")
        old_tokens = old.value_tokens if old is not None else set()
        for reader in readers:
            answer = answers[reader.tool.name]
            if reader in showing or answer.kind != "result":
                continue
            stale = answer.ok and any(t in shown(answer) for t in old_tokens)
            if not (stale or self.keyed(reader, record)):
                continue  # a listing may be a window of the newest: missing is no disagreement
            if self.asked_by_unkept(reader, record, answers[witness.tool.name]):
                continue
            asked = self.reader_args(reader, record)
            if not admits(reader.tool.input_schema or {"type": "object"}, asked):
                continue  # asked outside its schema (a query longer than it takes): a refusal is its right
            again = self.call(reader.tool.name, asked)
            if again.kind != "result" or (again.ok and any(t in shown(again) for t in new)):
                continue
            said = ("still shows its old values" if stale and again.ok
                    else "answers with an error" if not again.ok else "does not show it")
            self.fail(AGREE, f"after a write to key {record.key!r}, {witness.tool.name} shows the record as "
                      f"written but {reader.tool.name} {said}", reader,
                      {"contains_any": sorted(new), "answered": True}, confidence="high", check="agree",
                      tool=reader.tool.name, facts=(seen, reader.shows(self.ctx.write.name)))
        if old is None or not old_tokens:
            return
        for reader in showing:
            text = shown(answers[reader.tool.name])
            if any(t in text for t in old_tokens):
                self.judge_old(reader, record, Replaced(tuple(sorted(old_tokens)), tuple(sorted(new))),
                               "still shows its old values beside the new ones")
            if not self.keyed(reader, record) and record.key_tokens:
                once = ListedOnce(sorted(record.key_tokens)[0])
                if not once.holds(answers[reader.tool.name]):
                    self.judge_old(reader, record, once, "lists that key twice")
        for reader in readers:
            self.judge_search(reader, record, old)

    def asked_by_unkept(self, reader: Reader, record: Record, witnessed: Outcome) -> bool:
        """The reader is asked with a written value besides the identity (a filter by tag) that the
        witness does not show as written: a store that normalised or dropped the value finds
        nothing under it, and that is no disagreement between readers."""
        text = shown(witnessed)
        key = self.ctx.key_path.split(".")[0] if self.ctx.key_path else None
        return any(isinstance(value, str) and value not in text and json.dumps(value)[1:-1] not in text
                   for name, value in self.reader_args(reader, record).items()
                   if name != key and value == record.args.get(name))

    def judge_old(self, reader: Reader, record: Record, expect: Expectation, said: str,
                  args: dict[str, Any] | None = None, extra: tuple[Fact, ...] = ()) -> None:
        """Read through `reader` once more, as the reproduction's last call, and judge it."""
        again = self.call(reader.tool.name, args if args is not None else self.reader_args(reader, record))
        if expect.holds(again):
            return
        self.fail(OVERWRITE, f"after a second write to key {record.key!r}, which replaces the first, "
                  f"{reader.tool.name} {said}", reader, expect.to_dict(), confidence="high", check="agree",
                  tool=reader.tool.name, facts=(*self.overwrite_facts(), reader.shows(self.ctx.write.name), *extra))

    def judge_search(self, reader: Reader, record: Record, old: Record) -> None:
        """A search asked for an old value (a token only the replaced values held) must not find the
        record as now written. Judged only where the same words in another order find nothing: a
        search that matches words, not text, would find it by the identity's words alone."""
        query = query_parameter(reader.tool)
        if query is None:
            return
        asked = sorted(old.value_tokens)[0]
        marker, name = asked.split("-", 1)
        control = self.call(reader.tool.name, {**self.reader_args(reader, record), query: f"{name}-{marker}"})
        if not control.ok or any(t in shown(control) for t in record.value_tokens):
            return
        words = fact_shown(f"{reader.tool.name} matches the text asked, not its words: the same words in "
                           "another order found nothing", calls=[self.calls[-1]], source="this example")
        self.judge_old(reader, record, ShowsNone(tuple(sorted(record.value_tokens))),
                       f"still finds the record by its old value {asked!r}",
                       {**self.reader_args(reader, record), query: asked}, (words,))


def query_parameter(tool: Tool) -> str | None:
    """The parameter a search is asked by, as its name says: words choose which experiment runs;
    the control call of `judge_search` decides what it shows."""
    return next((p for p in tool.properties if is_query(p)), None)


def build_agree_machine(ctx: ProbeContext, calibration: Calibration) -> type[RuleBasedStateMachine]:
    """A state machine class bound to one write tool, its calibrated readers and identity."""
    drawing = shown_calls(ctx.write.name, marked_arguments(ctx.write, PLACEHOLDER, ctx.write_args or None))
    key_field = ctx.key_path.replace("[]", "").split(".")[-1] if ctx.key_path else None
    overwrites = calibration.overwrite in (REPLACES, APPENDS) and ctx.key_path is not None

    class AgreeMachine(RuleBasedStateMachine):
        records = Bundle("records")

        def __init__(self) -> None:
            super().__init__()
            self.example = AgreeExample(ctx, key_field, calibration)

        def teardown(self) -> None:
            target(float(len(self.example.model)), label="records held")
            self.example.close()

        @initialize(target=records, batch=st.lists(drawing, min_size=3, max_size=3))
        def first(self, batch: list[dict[str, Any]]) -> Any:
            """Two records (a count is learnt on the second) and an overwrite of the first: even the
            shortest example judges every reader, count and overwrite once."""
            stored = [r for r in (self.example.put(d) for d in batch[:2]) if r is not None]
            if overwrites and stored:
                self.example.put(batch[2], over=stored[0])
            return multiple(*stored)

        @rule(target=records, drawn=drawing)
        def write(self, drawn: dict[str, Any]) -> Any:
            record = self.example.put(drawn)
            return multiple() if record is None else record

        @rule(record=records, drawn=drawing)
        def overwrite(self, record: Record, drawn: dict[str, Any]) -> None:
            if overwrites:
                self.example.put(drawn, over=record)

    AgreeMachine.__name__ = f"Agree_{ctx.write.name}"
    return AgreeMachine


def count_message(reader: str, path: str, base: float, expected: float) -> str:
    return (f"{reader}'s number at {path}, which moved by one with each new record, is not {expected:g}: "
            f"{base:g} before the first write plus the records the writes before it made")


def writes_model(calls: list[Call], write: str, key_path: str | None, replaces: bool) -> int:
    """The records a sequence of writes makes: one per identity where a write replaces, else one each."""
    written = [c for c in calls if c.tool == write]
    if not replaces or key_path is None:
        return len(written)
    return len({json.dumps(get_path(c.arguments, key_path), sort_keys=True) for c in written})


def fewer_counted(finding: ProbeFinding, write: str, key_path: str | None, replaces: bool,
                  run: ProbeHost) -> ProbeFinding:
    """A count finding with every call it does not need dropped, one at a time, each candidate
    replayed fresh. The count expected is the model's own for the calls that remain, so dropping a
    write never makes a correct count look wrong (`smaller` keeps the expected value fixed)."""
    base = float(finding.details.get("base", 0))
    best = finding
    index = 0
    while index < len(best.calls) - 1:
        calls = best.calls[:index] + best.calls[index + 1:]
        expected = base + writes_model(calls, write, key_path, replaces)
        path = str(finding.details.get("path", ""))
        candidate = replace(best, calls=calls, expect=NumberAt(path, expected),
                            message=count_message(finding.tool, path, base, expected))
        if any(c.tool == write for c in calls) and run.reproduces(candidate):
            best = candidate
        else:
            index += 1
    return best


def focused(finding: ProbeFinding, write: str, run: ProbeHost) -> ProbeFinding:
    """The finding with only the writes and the judged reader's own calls, if that still fails
    fresh: one replay that drops the other readers and the counts at once (a cache or an index
    the bug lives in is filled by the write and by the judged reader alone)."""
    calls = [c for c in finding.calls[:-1] if c.tool in (write, finding.tool)] + finding.calls[-1:]
    if len(calls) == len(finding.calls):
        return finding
    candidate = replace(finding, calls=calls)
    return candidate if run.reproduces(candidate) else finding


def agreement_probe(run: ProbeHost, tool: Tool, readers: list[Reader], key_path: str | None,
                    given: dict[str, Any], calibration: Calibration) -> Iterator[ProbeOutput]:
    """The invariants for one write tool whose records calibration showed through a reader: a
    finding, verified and shrunk, or nothing (the round trip reports the write's own pass)."""
    if not calibration.readers or run.stop():
        return
    examples = max(2, run.profile.probe_examples // 4)
    ctx = ProbeContext(
        pool=run.pool, write=tool, readers=readers, key_path=key_path,
        base_args={r.tool.name: run.base(r.tool) for r in readers}, write_args=given,
        overwrite=calibration.overwrite_fact, identity=calibration.identity_fact,
        appends=calibration.overwrite == APPENDS,
        salt=marker_salt(run, "agree", tool),
        shrink_runs=SHRINK_RUNS, stop=run.stop, warm_shrink=False, open_many=False,
    )
    run.pool.expect(examples, together=True)
    error = run_model(run, ctx, build_agree_machine(ctx, calibration), examples, STEPS, "agree", tool)
    found = surest(ctx.candidates)
    if found is not None and found.rule == COUNT:
        yield fewer_counted(found, tool.name, key_path, calibration.overwrite == REPLACES, run)
    elif found is not None:
        yield smaller(focused(found, tool.name, run), tool.name, run.reproduces)
    elif error is not None:
        yield run.result(tool.name, "agree", "inconclusive", AGREE, f"the agreement probe could not run: {error}",
                         confidence="low")
