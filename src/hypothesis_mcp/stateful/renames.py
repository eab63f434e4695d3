"""Renames and moves keep the record: a model-based state machine over the records one write tool
stored, moved to new identities by another tool.

A tool that gives a record another identity (`rename_note(title, new_title)`, `shelf.move(from_slot,
to_slot)`) is found by experiment, not by its name: a candidate takes a text for the identity
field's value and another text; the machine writes a record, calls the candidate with the record's
identity and a new one (the old value with a new marker, so a path keeps its folder), and reads the
new identity back. When a reader shows the record's values there, the call moved it: that call is
the fact every later verdict rests on. A candidate that shows nothing so is never judged.

After a move the server reported as done, every reader that showed the record's values under its
old identity just before shows them all under the new one (`probe-rename-lost-fields`), and shows
none of them under the old (`probe-rename-left-old`). Whether the tool moves or copies is what the
server says of it: its description opening with a move verb shows it, its name alone is a guess,
and a copy is never judged for leaving the old record. Only records this run wrote are moved.
Every example runs on a fresh server; a failure is then made smaller by fresh replays.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import event, target
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, consumes, initialize, multiple, rule

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.model.facts import Fact, fact_guessed, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.results import RuleId
from hypothesis_mcp.rules.answers import held_with
from hypothesis_mcp.stateful.calibrate import Calibration
from hypothesis_mcp.stateful.context import ProbeContext, Record
from hypothesis_mcp.stateful.deletes import deleting
from hypothesis_mcp.stateful.host import ProbeHost, ProbeOutput
from hypothesis_mcp.stateful.judge import ProbeFinding
from hypothesis_mcp.stateful.modelrun import marker_salt, run_model, surest
from hypothesis_mcp.stateful.readers import Reader, nouns, says_skipped
from hypothesis_mcp.stateful.reads import ReadsExample
from hypothesis_mcp.stateful.shrink import without_unpinned
from hypothesis_mcp.stateful.steps import shown_calls
from hypothesis_mcp.strategies import PLACEHOLDER, marked_arguments
from hypothesis_mcp.vocabulary import words

LEFT_OLD: RuleId = "probe-rename-left-old"
LOST: RuleId = "probe-rename-lost-fields"
STEPS = 8
SHRINK_RUNS = 10
REPLAYS = 8
"""Fresh replays that make a verified failure smaller, at most."""
MOVE_STEMS = ("renam", "move", "moving", "relocat", "retitl")
"""How a tool says it takes a record away from its old identity: in its description's opening word
that is said, in its name a guess. They never pick a candidate (the experiment does); they only
tell a move, which must leave nothing under the old identity, from a copy, which may."""


@dataclass(frozen=True)
class Candidate:
    """A tool that may move a record: `old` takes its identity, `new` the identity it gets."""

    tool: Tool
    old: str
    new: str


@dataclass
class Learned:
    """What the probe's calls showed about its candidates, shared by every example."""

    mover: Candidate | None = None
    moved: Fact | None = None
    tried: set[tuple[str, str, str]] = field(default_factory=set)
    """Candidates (tool, old, new) called once without being shown to move: never judged."""


def _texts(tool: Tool) -> list[str]:
    return [name for name in profile(tool).required
            if isinstance(s := tool.properties.get(name), dict) and s.get("type") == "string" and "enum" not in s]


def candidates(write: Tool, key_field: str, tools: list[Tool], excluded: set[str]) -> list[Candidate]:
    """Tools that may give a record of `write` another identity: not a read, a delete or a send,
    of the same records (a noun of the write's name), taking two required texts and nothing else
    required; the old identity goes where the identity field's own name is, else either way."""
    mine = nouns(write)
    found: list[Candidate] = []
    for tool in tools:
        if tool.name == write.name or tool.name in excluded or tool.is_read or deleting(tool) \
                or "send" in tool.reading.groups or not nouns(tool) & mine:
            continue
        texts = _texts(tool)
        if len(texts) != 2 or set(profile(tool).required) - set(texts):
            continue
        pairs = [(key_field, next(t for t in texts if t != key_field))] if key_field in texts \
            else [(texts[0], texts[1]), (texts[1], texts[0])]
        found.extend(Candidate(tool, old, new) for old, new in pairs)
    return found


def _moving(said: list[str]) -> bool:
    return any(word.startswith(MOVE_STEMS) for word in said)


def moves_fact(tool: Tool) -> Fact | None:
    """That `tool` moves the record rather than copying it: a guess from a move verb in its
    description or name, which no verdict rests on at more than low confidence (docs/architecture.md,
    Words order experiments); None when neither says so (a copy keeps the old record, and that is
    not judged)."""
    if _moving(words(tool.description or "")[:1]):
        return fact_guessed(f"{tool.name} moves the record rather than copying it", "a move verb in its description")
    if _moving(words(tool.name)):
        return fact_guessed(f"{tool.name} moves the record rather than copying it", "a move verb in its name")
    return None


class MovesExample(ReadsExample):
    """One example: records written and moved, each move judged by every reader that showed the
    record before it."""

    def __init__(self, ctx: ProbeContext, key_field: str, options: list[Candidate], learned: Learned,
                 tally: list[int]) -> None:
        super().__init__(ctx, key_field)
        self.field = key_field
        self.options = options
        self.learned = learned
        self.tally = tally

    def token(self, record: Record) -> str | None:
        """The marked token of the record's identity (`hm1234abcd-title`), when it has one."""
        key = f"{record.marker}-{self.field}"
        return key if isinstance(record.key, str) and key in record.key else None

    def keyed(self, reader: Reader, record: Record) -> bool:
        return record.key in self.reader_args(reader, record).values()

    def move(self, record: Record) -> Record | None:
        """Move the record with the learned mover, or with the next untried candidate."""
        if self.inert or self.model.get(record.marker) is not record or (old := self.token(record)) is None:
            return None
        values = sorted(record.value_tokens)
        before = [(r, shown) for r in self.ctx.readers
                  if (shown := held_with(self.read(r, record), old, values, self.keyed(r, record)))]
        if not before:
            return None  # no reader shows the record's values: a move of it cannot be judged
        if self.learned.mover is not None:
            return self.moved(record, old, self.learned.mover, before)
        for option in self.untried():
            if (moved := self.moved(record, old, option, before)) is not None:
                return moved
        return None

    def untried(self) -> list[Candidate]:
        return [o for o in self.options if (o.tool.name, o.old, o.new) not in self.learned.tried]

    def moved(self, record: Record, old: str, option: Candidate,
              before: list[tuple[Reader, set[str]]]) -> Record | None:
        values = sorted(record.value_tokens)
        new = f"{self.ctx.next_marker()}-{self.field}"
        key = record.key.replace(old, new)
        moved = Record(key, record.marker, {**record.args, self.field: key}, {new}, set(record.value_tokens))
        base = self.ctx.base_args.get(option.tool.name, {})
        start = len(self.calls)
        answer = self.call(option.tool.name, {**base, option.old: record.key, option.new: moved.key})
        self.reads.clear()
        if not answer.ok or says_skipped(answer):
            if self.learned.mover is None:
                self.learned.tried.add((option.tool.name, option.old, option.new))
            return None
        shown_new = [held_with(self.read(r, moved), new, values, self.keyed(r, moved)) for r, _ in before]
        if self.learned.mover is None:
            # Shown apart from the old identity: a call that only wrote the new text into the record
            # (an append, a tag) shows both in one item of a listing, and moved nothing.
            if not any(held_with(self.read(r, moved), new, values, self.keyed(r, moved), besides=old)
                       for r, _ in before):
                self.learned.tried.add((option.tool.name, option.old, option.new))
                return None  # not shown to move: this candidate is never judged
            self.learned.mover, self.learned.moved = option, fact_shown(
                f"{option.tool.name} gave a record of {self.ctx.write.name} a new identity: a read of the new one "
                "showed its values", calls=self.calls[start:], source="the probe's first move")
        del self.model[record.marker]
        self.model[moved.marker] = moved
        self.tally[0] += 1
        event(f"moved through {option.tool.name}")
        for (reader, kept), carried in zip(before, shown_new, strict=True):
            self.judge_new(reader, record, moved, option, sorted(kept - carried), nothing=not carried)
        for reader, kept in before:
            self.judge_old(reader, record, moved, option, sorted(kept))
        return moved

    def facts(self, reader: Reader, record: Record) -> tuple[Fact, ...]:
        shown_before = fact_shown(f"{reader.tool.name} showed the record's values under its old identity just "
                                  "before the move", marker=record.marker,
                                  tools=(self.ctx.write.name, reader.tool.name))
        return (shown_before, *filter(None, [self.learned.moved]))

    def judge_new(self, reader: Reader, record: Record, moved: Record, option: Candidate, lost: list[str],
                  nothing: bool) -> None:
        if not lost:
            return
        fields = sorted({name for name, value in record.args.items() if any(t in json.dumps(value) for t in lost)})
        named = ", ".join(map(repr, fields))
        shows = f"shows nothing of it there, though it showed {named} under the old key just before" if nothing \
            else f"shows it there without {named}, which it showed under the old key just before"
        self.call(reader.tool.name, self.reader_args(reader, moved))
        self.fail(LOST, f"{option.tool.name} moved the record with key {record.key!r} to {moved.key!r}, but "
                  f"{reader.tool.name} {shows}", reader,
                  {"moved": f"{record.marker}-{self.field}", "new": next(iter(moved.key_tokens)),
                   "tokens": lost, "carried": True, "whole": self.keyed(reader, moved)},
                  confidence="high", check="renames", tool=option.tool.name,
                  details={"fields": fields}, facts=self.facts(reader, record))

    def judge_old(self, reader: Reader, record: Record, moved: Record, option: Candidate, kept: list[str]) -> None:
        if (said := moves_fact(option.tool)) is None:
            return
        old, new = f"{record.marker}-{self.field}", next(iter(moved.key_tokens))
        answer = self.call(reader.tool.name, self.reader_args(reader, record))
        if not held_with(answer, old, kept, self.keyed(reader, record), besides=new):
            return
        self.fail(LEFT_OLD, f"{option.tool.name} moved the record with key {record.key!r} to {moved.key!r}, but "
                  f"{reader.tool.name} still shows it under the old key", reader,
                  {"moved": old, "new": new, "tokens": kept, "carried": False, "whole": self.keyed(reader, record)},
                  confidence="high", check="renames", tool=option.tool.name,
                  facts=(*self.facts(reader, record), said))


def pinned(finding: ProbeFinding, write: str) -> set[int]:
    """The calls a smaller reproduction keeps: the judged read, the move it judges, the write of the
    moved record and, for fields lost, the read that showed them under the old identity before the
    move (the fact the finding rests on; a record left under its old identity shows itself)."""
    calls, last = finding.calls, len(finding.calls) - 1
    expect = finding.expectation.to_dict()
    old = str(expect.get("moved", ""))
    moves = [i for i, c in enumerate(calls[:last]) if c.tool == finding.tool]
    keep = {last, *moves[-1:]}
    keep |= {i for i, c in enumerate(calls) if c.tool == write and old in json.dumps(c.arguments, ensure_ascii=False)}
    if moves and finding.rule == LOST:
        reader = calls[last].tool
        keep |= {max((i for i in range(moves[-1]) if calls[i].tool == reader and (
            calls[i] == calls[last] or old in json.dumps(calls[i].arguments, ensure_ascii=False))), default=last)}
    return keep


def build_renames_machine(ctx: ProbeContext, key_field: str, options: list[Candidate], learned: Learned,
                          tally: list[int]) -> type[RuleBasedStateMachine]:
    """A state machine class bound to one write tool, the tools that may move its records and its readers."""
    drawing = shown_calls(ctx.write.name, marked_arguments(ctx.write, PLACEHOLDER, ctx.write_args or None))

    class RenamesMachine(RuleBasedStateMachine):
        records = Bundle("records")

        def __init__(self) -> None:
            super().__init__()
            self.example = MovesExample(ctx, key_field, options, learned, tally)

        def teardown(self) -> None:
            target(float(len(self.example.model)), label="records held")
            self.example.close()

        @initialize(target=records, batch=st.lists(drawing, min_size=2, max_size=2))
        def first(self, batch: list[dict[str, Any]]) -> Any:
            """Two records and a move of the first (each candidate tried on a record of its own
            until one is shown to move), so even the shortest example judges a move beside a
            record it must leave alone."""
            stored = [r for drawn in batch if (r := self.example.put(drawn)) is not None]
            if stored:
                self.example.move(stored[0])
            return multiple(*self.example.model.values())

        @rule(target=records, drawn=drawing)
        def write(self, drawn: dict[str, Any]) -> Any:
            record = self.example.put(drawn)
            return multiple() if record is None else record

        @rule(target=records, record=consumes(records))
        def move(self, record: Record) -> Any:
            moved = self.example.move(record)
            return multiple() if moved is None else moved

    RenamesMachine.__name__ = f"Renames_{ctx.write.name}"
    return RenamesMachine


def renames_probe(run: ProbeHost, tool: Tool, readers: list[Reader], key_path: str | None,
                  given: dict[str, Any], calibration: Calibration) -> Iterator[ProbeOutput]:
    """The invariant for one write tool whose identity is a text field of its own: a finding,
    verified and made smaller, a pass, or nothing when no tool was shown to move its records."""
    shown_readers = [r for r in readers if r.fact is not None]
    if not shown_readers or key_path is None or "." in key_path or "[]" in key_path or key_path in given \
            or calibration.identity is None or run.stop():
        return
    options = candidates(tool, key_path, run.tools, set(run.config.exclude))
    if not options:
        return
    learned, tally = Learned(), [0]
    ctx = ProbeContext(
        pool=run.pool, write=tool, readers=shown_readers, key_path=key_path,
        base_args={t.name: run.base(t) for t in [*(r.tool for r in shown_readers), *(o.tool for o in options)]},
        write_args=given, refusals=tuple(fact for _, fact in run.refusal_facts()),
        salt=marker_salt(run, "renames", tool), shrink_runs=SHRINK_RUNS, stop=run.stop,
        warm_shrink=False, open_many=False,
    )
    examples = max(2, run.profile.probe_examples // 4)
    run.pool.expect(examples + SHRINK_RUNS)
    error = run_model(run, ctx, build_renames_machine(ctx, key_path, options, learned, tally), examples, STEPS,
                      "renames", tool)
    found = surest(ctx.candidates)
    mover = learned.mover
    if found is not None:
        if run.pool.shared:
            yield replace(found, fresh=False)
        elif run.reproduces(found):
            yield without_unpinned(found, lambda f: pinned(f, tool.name), run.reproduces, REPLAYS)
        else:
            yield run.result(found.tool, "renames", "inconclusive", found.rule,
                             f"{found.message}, but a replay on a fresh server did not show it again", confidence="low")
    elif error is not None and mover is not None:
        yield run.result(mover.tool.name, "renames", "inconclusive", LOST, f"the renames probe could not run: {error}",
                         confidence="low")
    elif mover is not None and tally[0]:
        old = "none under the old" if moves_fact(mover.tool) is not None else \
            "the old one not judged: neither its description nor its name says it moves rather than copies"
        yield run.result(mover.tool.name, "renames", "pass", "renames",
                         f"each move of a record {tool.name} wrote showed its values under the new identity, {old} "
                         f"({tally[0]} move(s), {ctx.runs} fresh-process example(s))",
                         basis=f"records written by {tool.name}, moved through {mover.tool.name}")

