"""Deletes delete: a model-based state machine over the records one write tool stored (--allow-deletes).

The machine writes records (a Bundle of them; `@initialize` writes three and deletes the middle one,
so a neighbour on either side is judged) and
deletes them through a tool that deletes the write's records (`delete_note`, `cards.drop`), each
delete addressed by the record's own key. After a delete the server reported as done, no reader
that showed the record still shows it (one that shows it only after the delete lists the deleted,
a trash) and every other record is still shown by the reader that showed it; a second
delete of the same record is a refusal or a no-op, never an error reported as success.

Only records this run wrote are ever deleted: a delete is sent only when its arguments carry the
record's key, and that key holds the run's marker, so nothing the server held before can match.
Every example runs on a fresh server; a failure is then made smaller by fresh replays that keep
the delete, the judged read and what the finding rests on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from hypothesis import event, target
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    multiple,
    rule,
)

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.model.facts import Fact, fact_guessed, fact_shown
from hypothesis_mcp.results import Call, RuleId
from hypothesis_mcp.rules.answers import shown
from hypothesis_mcp.stateful.calibrate import Calibration, calibrated_readers
from hypothesis_mcp.stateful.context import ProbeContext, Record
from hypothesis_mcp.stateful.host import ProbeHost, ProbeOutput
from hypothesis_mcp.stateful.judge import ProbeFinding
from hypothesis_mcp.stateful.modelrun import marker_salt, run_model, surest
from hypothesis_mcp.stateful.readers import Reader, choose_readers, fill_reader_args, nouns
from hypothesis_mcp.stateful.reads import ReadsExample
from hypothesis_mcp.stateful.roles import updated_id
from hypothesis_mcp.stateful.shrink import without_unpinned
from hypothesis_mcp.stateful.steps import shown_calls
from hypothesis_mcp.stateful.watch import Seen
from hypothesis_mcp.strategies import PLACEHOLDER, marked_arguments

KEPT: RuleId = "probe-delete-kept"
TOOK_OTHER: RuleId = "probe-delete-took-other"
AGAIN: RuleId = "probe-delete-again-succeeded"
STEPS = 8
SHRINK_RUNS = 10
REPLAYS = 8
"""Fresh replays that make a verified failure smaller, at most."""


def deleting(tool: Tool) -> bool:
    """A tool that removes records: a delete verb in its name, or destructiveHint without one that sends."""
    return tool.is_destructive and not tool.is_read and "send" not in tool.reading.groups


def deletes_fact(tool: Tool) -> Fact:
    """That `tool` deletes the record it is given: declared by its destructiveHint annotation, else a
    guess from its words (a delete verb in its name or description), which no verdict may rest on
    at more than low confidence (docs/architecture.md, Words order experiments)."""
    if tool.destructive_hint is True:
        return fact_shown(f"{tool.name} declares that it deletes", source="its destructiveHint annotation")
    return fact_guessed(f"{tool.name} deletes the record it is given", "a delete verb in its name or description")


def deleters(write: Tool, tools: list[Tool], excluded: set[str], seen: Mapping[str, Seen]) -> list[Tool]:
    """The deleting tools of the same records as `write`: those the experiments showed removing its
    records, else by words: a noun of its name in theirs, and no value of the records set."""
    shown = [t for t in tools if t.name not in excluded and (found := seen.get(t.name)) is not None
             and found.role == "delete" and found.acts_on == write.name]
    if shown:
        return shown
    mine = nouns(write)
    return [t for t in tools if t.name not in excluded and deleting(t) and nouns(t) & mine and not overwrites(t, write)]


def overwrites(tool: Tool, write: Tool) -> bool:
    """A destructive tool that takes two or more fields of the write's records sets values beside
    naming the record: an update or a replace (destructiveHint covers those too), not a delete."""
    return sum(name in write.properties for name in tool.properties) >= 2


def delete_args(deleter: Reader, record: Record, base: dict[str, Any]) -> dict[str, Any] | None:
    """The delete's arguments for `record`, or None unless they carry the record's key, and with it
    the run's marker: a delete never reaches a record the run did not write."""
    args = fill_reader_args(deleter, record.args, record.key, base)
    if any(name not in args for name in deleter.tool.required):
        return None
    if record.key not in args.values() or record.marker not in json.dumps(args, ensure_ascii=False):
        return None
    return args


class DeletesExample(ReadsExample):
    """One example: records written, then deleted and judged by every reader."""

    def __init__(self, ctx: ProbeContext, key_field: str | None, deleter: Reader, tally: list[int]) -> None:
        super().__init__(ctx, key_field)
        self.deleter = deleter
        self.tally = tally
        """Deletes judged, over every example of the probe (one shared counter)."""
        self.deleted: dict[str, tuple[Record, dict[str, Any]]] = {}

    def showing(self, record: Record) -> list[Reader]:
        """The readers that show the record now."""
        return [r for r in self.ctx.readers
                if (answer := self.read(r, record)).ok and any(t in shown(answer) for t in record.evidence)]

    def delete(self, record: Record) -> Record | None:
        """Delete the record; judge that it is gone from every reader and that the others stay."""
        if self.inert or self.model.get(record.marker) is not record:
            return None
        args = delete_args(self.deleter, record, self.ctx.base_args.get(self.deleter.tool.name, {}))
        if args is None:
            return None
        showing = self.showing(record)
        if not showing:
            return None  # no reader shows it: a delete of it cannot be judged
        others = [(other, readers[0]) for other in self.model.values() if other is not record
                  if (readers := self.showing(other))]
        answer = self.call(self.deleter.tool.name, args)
        self.reads.clear()
        if not answer.ok:
            return None
        del self.model[record.marker]
        self.deleted[record.marker] = (record, args)
        event(f"deleted through {self.deleter.tool.name}")
        self.tally[0] += 1
        for reader in showing:  # one that shows the record only once it is deleted lists the deleted (a trash)
            after = self.call(reader.tool.name, self.reader_args(reader, record))
            if after.ok and any(t in shown(after) for t in record.evidence):
                self.fail(KEPT, f"{self.deleter.tool.name} reported the record with key {record.key!r} deleted, "
                          f"but {reader.tool.name} still shows it", reader,
                          {"shows_none": sorted(record.evidence)}, confidence="high", check="deletes",
                          tool=self.deleter.tool.name, facts=(self.addressed(record), deletes_fact(self.deleter.tool)))
        for other, reader in others:
            after = self.call(reader.tool.name, self.reader_args(reader, other))
            if after.kind != "result" or (after.ok and any(t in shown(after) for t in other.evidence)):
                continue
            said = "answers with an error" if not after.ok else "no longer shows"
            self.fail(TOOK_OTHER, f"deleting the record with key {record.key!r} through {self.deleter.tool.name} "
                      f"took another record too: {reader.tool.name} {said} the record with key {other.key!r}, "
                      "which it showed just before", reader,
                      {"contains_any": sorted(other.evidence), "answered": True}, confidence="high",
                      check="deletes", tool=self.deleter.tool.name,
                      facts=(fact_shown(f"{reader.tool.name} showed the other record before the delete",
                                        marker=other.marker, tools=(self.ctx.write.name, reader.tool.name)),
                             self.addressed(record), deletes_fact(self.deleter.tool)))
        return record

    def delete_again(self, record: Record) -> None:
        """A second delete of a deleted record: a refusal or a no-op, not an error reported as success.
        Judged against the server's own refusal: only where a delete of a key never written is
        refused with isError does a second delete answered as a success that says it failed break it."""
        if self.inert or record.marker not in self.deleted:
            return
        _, args = self.deleted.pop(record.marker)
        unknown = json.loads(json.dumps(args, ensure_ascii=False).replace(record.marker, self.ctx.next_marker()))
        never = self.call(self.deleter.tool.name, unknown)
        if never.kind != "result" or not never.is_error:
            return
        answer = self.call(self.deleter.tool.name, args)
        if answer.error_shaped:
            name = self.deleter.tool.name
            self.fail(AGAIN, f"a second delete of the record with key {record.key!r} through {name} answered "
                      f"as a success whose content says it failed ({answer.failure}), though {name} refuses a "
                      "key never written with isError", self.deleter, {"fails_as_error": True}, confidence="high",
                      check="deletes", tool=name,
                      facts=(self.addressed(record),
                             fact_shown(f"{name} refuses a delete of a key never written with isError",
                                        calls=[Call(name, unknown)])))

    def addressed(self, record: Record) -> Fact:
        """That the delete asked for this record: its arguments carry the key the write stored."""
        return fact_shown(f"{self.deleter.tool.name} was called with the key of a record {self.ctx.write.name} "
                          "wrote", marker=record.marker, tools=(self.ctx.write.name, self.deleter.tool.name))


def build_deletes_machine(ctx: ProbeContext, deleter: Reader, tally: list[int]) -> type[RuleBasedStateMachine]:
    """A state machine class bound to one write tool, its deleting tool and its readers."""
    drawing = shown_calls(ctx.write.name, marked_arguments(ctx.write, PLACEHOLDER, ctx.write_args or None))
    key_field = ctx.key_path.replace("[]", "").split(".")[-1] if ctx.key_path else None

    class DeletesMachine(RuleBasedStateMachine):
        records = Bundle("records")
        gone = Bundle("gone")

        def __init__(self) -> None:
            super().__init__()
            self.example = DeletesExample(ctx, key_field, deleter, tally)

        def teardown(self) -> None:
            target(float(len(self.example.model)), label="records held")
            self.example.close()

        @initialize(target=records, batch=st.lists(drawing, min_size=3, max_size=3))
        def first(self, batch: list[dict[str, Any]]) -> Any:
            """Three records and a delete of the middle one, so even the shortest example judges a
            neighbour on either side (a delete that takes the record after it, or the one before)."""
            stored = [r for drawn in batch if (r := self.example.put(drawn)) is not None]
            if len(stored) == 3:
                self.example.delete(stored[1])
            return multiple(*(r for r in stored if r.marker in self.example.model))

        @rule(target=records, drawn=drawing)
        def write(self, drawn: dict[str, Any]) -> Any:
            record = self.example.put(drawn)
            return multiple() if record is None else record

        @rule(target=gone, record=consumes(records))
        def delete(self, record: Record) -> Any:
            done = self.example.delete(record)
            return multiple() if done is None else done

        @rule(record=consumes(gone))
        def delete_again(self, record: Record) -> None:
            self.example.delete_again(record)

    DeletesMachine.__name__ = f"Deletes_{ctx.write.name}"
    return DeletesMachine


def pinned(finding: ProbeFinding, write: str) -> set[int]:
    """The calls a smaller reproduction keeps: the judged call, the delete it judges, the writes of
    the records the judged call looks for (or, for a second delete, of the deleted record) and the
    read that showed a lost record before the delete."""
    calls = finding.calls
    last = len(calls) - 1
    deletes = [i for i, c in enumerate(calls[:last]) if c.tool == finding.tool]
    expect = finding.expectation.to_dict()
    looked_for = [str(t) for t in expect.get("contains_any", expect.get("shows_none", []))]
    if finding.rule == AGAIN:
        looked_for = [f.marker for f in finding.facts if f.marker is not None][:1]
    keep = {last, *deletes[-1:]}
    keep |= {i for i, c in enumerate(calls) if c.tool == write
             and any(t in json.dumps(c.arguments, ensure_ascii=False) for t in looked_for)}
    if finding.rule == TOOK_OTHER and deletes:
        keep |= {i for i in range(deletes[-1]) if calls[i] == calls[last]}
    if finding.rule == AGAIN:
        keep |= {i for i in deletes if calls[i] == calls[last]}  # the first delete of the record
    return keep


def delete_probes(run: ProbeHost, allowed: bool, learned: dict[str, Calibration],
                  judged: Mapping[str, set[str]] | None = None) -> Iterator[ProbeOutput]:
    """A deletes probe for every write tool whose records a deleting tool removes; with `allowed`
    only (--allow-deletes): without it no deleting tool is ever called. With `judged` (the laws
    machine ran: per creator, the removers law 4 called on its records), a pair it judged is left to
    it, and the run's notes say which."""
    if not allowed:
        return
    excluded = set(run.config.exclude)
    skipped: list[str] = []
    probed: list[str] = []
    for tool in run.write_tools():
        pair = run.config.pair_for(tool.name)
        given = run.write_args(tool, pair)
        readers = choose_readers(tool, run.tools, pair, excluded, run.watched())
        found = deleters(tool, run.tools, excluded, run.watched())
        if (not readers or not found or run.stop()
                or updated_id(tool, set(given), run.watched(), run.guesses()) is not None):
            continue
        if judged is not None and found[0].name in judged.get(tool.name, set()):
            skipped.append(f"{tool.name} through {found[0].name}")
            continue
        probed.append(f"{tool.name} through {found[0].name}")
        key_path = run.key_of(tool, readers, given, pair)
        calibration = learned.get(tool.name)
        if calibration is not None:
            readers = calibrated_readers(readers, calibration)
            if calibration.identity is not None and calibration.identity in tool.properties and not (pair and pair.key):
                key_path = calibration.identity
        yield from DeleteProbe(run, tool, readers, key_path, given, found[0]).results()
    if judged is not None and skipped:
        run.notes.append(f"removal probe not run where the laws machine judged the removals (law 4): "
                         f"{', '.join(skipped)}")
    if judged is not None and probed:
        run.notes.append(f"removal probe run where the laws machine did not run or learned no such removal: "
                         f"{', '.join(probed)}")


class DeleteProbe:
    """The deletes machine of one write tool and its deleting tool, run, verified and made smaller."""

    def __init__(self, run: ProbeHost, tool: Tool, readers: list[Reader], key_path: str | None,
                 given: dict[str, Any], deleter: Tool) -> None:
        self.run, self.tool, self.deleter = run, tool, Reader(deleter, "high", f"{deleter.name} deletes")
        self.ctx = ProbeContext(
            pool=run.pool, write=tool, readers=readers, key_path=key_path,
            base_args={r.tool.name: run.base(r.tool) for r in [*readers, self.deleter]}, write_args=given,
            refusals=tuple(fact for _, fact in run.refusal_facts()),
            salt=marker_salt(run, "deletes", tool),
            shrink_runs=SHRINK_RUNS, stop=run.stop, warm_shrink=False, open_many=False,
        )
        self.tally = [0]

    def results(self) -> Iterator[ProbeOutput]:
        run, ctx, name = self.run, self.ctx, self.deleter.tool.name
        examples = max(2, run.profile.probe_examples // 4)
        run.pool.expect(examples + REPLAYS + 1)
        error = run_model(run, ctx, build_deletes_machine(ctx, self.deleter, self.tally), examples, STEPS,
                          "deletes", self.tool, self.deleter.tool)
        found = surest(ctx.candidates)
        if found is not None:
            if run.pool.shared:
                yield replace(found, fresh=False)
            elif run.reproduces(found):
                yield without_unpinned(found, lambda f: pinned(f, self.tool.name), run.reproduces, REPLAYS)
            else:
                yield run.result(name, "deletes", "inconclusive", found.rule,
                                 f"{found.message}, but a replay on a fresh server did not show it again",
                                 confidence="low")
        elif error is not None:
            yield run.result(name, "deletes", "inconclusive", KEPT, f"the deletes probe could not run: {error}",
                             confidence="low")
        elif self.tally[0]:
            yield run.result(name, "deletes", "pass", "deletes",
                             f"each delete of a record {self.tool.name} wrote removed it from every reader and "
                             f"left the others ({self.tally[0]} delete(s), {ctx.runs} fresh-process example(s))",
                             basis=f"records written by {self.tool.name}, deleted through {name}")
        else:
            yield run.result(name, "deletes", "inconclusive", KEPT,
                             f"no delete of a record {self.tool.name} wrote could be judged (no reader showed "
                             "the record, its key was not among the delete's arguments, or every delete was "
                             "refused)", confidence="low")
