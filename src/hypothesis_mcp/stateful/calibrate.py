"""Calibration: a few calls on a fresh server that settle what the probes would otherwise guess.

Before a write tool's effect machine runs, one example writes a marked record and asks every
chosen reader for it (which readers show this write's records, and with which arguments), writes
a second record with the same key (replaced, appended as a new record, or refused), and writes
records that differ from the last in one identity candidate at a time (the field whose change
keeps both records is the identity; a key whose change still replaces the record is not). Last,
calls that must fail (each reader that takes an id asked for one no server made, the write with
empty texts) show the server's own refusal shape, if they agree on one the accepted write lacks
(model.refusals): from then on every answer of that shape on the run's servers is a refusal. Each
answer becomes a fact shown by these calls; what no call settled stays a guess.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import given, settings

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection, LearnedRefusal, Outcome
from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.model.refusals import IMPOSSIBLE_ID, learned_shape
from hypothesis_mcp.results import Call
from hypothesis_mcp.rules.answers import shown
from hypothesis_mcp.rules.bindings import find_id
from hypothesis_mcp.search.seeding import own_draws, scope_salt, seeded
from hypothesis_mcp.stateful.context import get_path
from hypothesis_mcp.stateful.host import ProbeHost
from hypothesis_mcp.stateful.readers import Reader, field_texts, fill_reader_args, says_skipped, tokens
from hypothesis_mcp.stateful.unmarked import RETRIES, Plan, retried, unmarked
from hypothesis_mcp.strategies import PLACEHOLDER, marked_arguments, salted_marker, with_marker
from hypothesis_mcp.vocabulary import is_query, server_made_id, snake

REPLACES, APPENDS, REFUSED = "replaces", "appends", "refused"
MAX_CANDIDATES = 3
"""Identity candidates varied one at a time, at most: each costs a write and two reads."""


@dataclass
class Calibration:
    """What the calls showed of one write tool, each as a fact with its calls."""

    tool: str
    calls: list[Call] = field(default_factory=list)
    readers: dict[str, Fact] = field(default_factory=dict)
    """Readers that showed a new record, each with the fact and its calls."""
    overwrite: str | None = None
    overwrite_fact: Fact | None = None
    identity: str | None = None
    identity_fact: Fact | None = None
    not_identity: list[str] = field(default_factory=list)
    """Key candidates whose change still replaced the record: not what tells records apart."""
    answer_id: str | None = None
    answer_fact: Fact | None = None
    refused: Outcome | None = None
    """The first write's refusal, when the server refused it."""
    refusal: LearnedRefusal | None = None
    refusal_fact: Fact | None = None
    """The server's own refusal shape, shown by calls that must fail and a write that did not."""

    def facts(self) -> list[Fact]:
        found = [*self.readers.values(), self.overwrite_fact, self.identity_fact, self.answer_fact,
                 self.refusal_fact]
        return [f for f in found if f is not None]


@dataclass
class Written:
    args: dict[str, Any]
    marker: str
    tokens: set[str]
    answer: Outcome


class Calibrator:
    """The experiments of one write tool on one fresh server."""

    def __init__(self, run: ProbeHost, tool: Tool, readers: list[Reader], key_path: str | None,
                 given: dict[str, Any], warm: bool = False) -> None:
        self.run, self.tool, self.readers, self.key_path, self.given = run, tool, readers, key_path, given
        self.warm = warm
        """Run on the pool's warm server, which the caller has just made new, and leave it running
        for the probe's examples after it (which then start from what these calls left)."""
        self.found = Calibration(tool.name)
        self.salt = scope_salt(run.profile.seed, "calibrate", tool)
        self.count = 0
        self.conn: Connection | None = None
        self.plan: Plan | None = None
        self.reused: set[str] = set()
        self.showed: dict[str, set[str]] = {}
        """Per reader, the first record's values it showed: only those, gone, tell a replace."""
        self.accepted: tuple[Call, Outcome] | None = None
        """The first write the server accepted, and its answer: what a refusal shape must differ from."""

    def run_once(self) -> Calibration:
        """One drawn example of the write's arguments, three writes' worth of values."""
        drawing = marked_arguments(self.tool, PLACEHOLDER, self.given or None)

        @settings(self.run.profile.settings(1))
        @given(first=drawing, second=drawing)
        def calibrate(first: dict[str, Any], second: dict[str, Any]) -> None:
            if self.found.calls or self.found.refused is not None:
                return
            self.conn = self.run.pool.warm() if self.warm else self.run.pool.acquire()
            try:
                self.experiments(first, second)
                self.learn_refusal(first)
            finally:
                self.run.pool.release(self.conn)

        with own_draws():
            seeded(calibrate, self.run.profile.seed, "calibrate", self.tool)()
        return self.found

    def call(self, tool: str, args: dict[str, Any]) -> Outcome:
        assert self.conn is not None
        self.found.calls.append(Call(tool, json.loads(json.dumps(args))))
        return self.conn.call(tool, args)

    def marked(self, drawn: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        marker = salted_marker(self.salt, 0xff00 + self.count)
        self.count += 1
        return marker, with_marker(drawn, marker)

    def send(self, args: dict[str, Any], marker: str) -> tuple[dict[str, Any], Outcome]:
        """A write, with the fields a refusal taught to leave unmarked left so; refused, it is tried
        again with fewer marked fields, as the effect machine does."""
        if self.plan is not None:
            args = unmarked(self.tool, self.plan, args, marker) or args
        answer = self.call(self.tool.name, args)
        if not answer.rejected or self.plan is not None:
            return args, answer
        key = self.key_path.split(".")[0].removesuffix("[]") if self.key_path else None
        for plan, fewer in retried(self.tool, args, marker, key)[:RETRIES]:
            again = self.call(self.tool.name, fewer)
            if again.ok:
                self.plan = plan
                return fewer, again
        return args, answer

    def write(self, args: dict[str, Any], marker: str) -> Written | None:
        args, answer = self.send(args, marker)
        if not answer.ok or says_skipped(answer):
            self.found.refused = self.found.refused or answer
            return None
        return Written(args, marker, tokens(args, marker), answer)

    def key_of(self, record: Written) -> Any:
        return get_path(record.args, self.key_path) if self.key_path else record.marker

    def read(self, reader: Reader, record: Written) -> tuple[Outcome, list[Call]]:
        args = fill_reader_args(reader, record.args, self.key_of(record), self.run.base(reader.tool))
        start = len(self.found.calls)
        outcome = self.call(reader.tool.name, args)
        return outcome, self.found.calls[start:]

    def shows(self, reader: Reader, record: Written) -> bool | None:
        """The reader shows the record (True), answers without it (False) or refuses (None)."""
        outcome, _ = self.read(reader, record)
        if not outcome.ok:
            return None
        text = shown(outcome)
        return any(t in text for t in record.tokens)

    def both_shown(self, reader: Reader, old: Written, new: Written, shared: Any) -> bool:
        """The reader, asked by the value two writes shared and by no value of the first, shows the
        values of both (a stale read shows the first alone: a disagreement, not an append)."""
        outcome, calls = self.read(reader, old)
        sent = json.dumps(calls[-1].arguments)
        if not outcome.ok or json.dumps(shared) not in sent or any(t in sent for t in old.tokens):
            return False
        text = shown(outcome)
        return any(t in text for t in old.tokens) and any(t in text for t in new.tokens)

    def must_fail(self, drawn: dict[str, Any]) -> list[tuple[str, Outcome]]:
        """Calls that cannot succeed: each reader that takes an id asked for one no server made, and
        the write with every text of its arguments empty."""
        failed = []
        for reader in self.readers:
            kinds = profile(reader.tool).kinds
            needed = {n: "string" if "string" in kind else "integer" for n in profile(reader.tool).required
                      if (kind := kinds.get(n)) is not None and kind & {"string", "integer"}}
            if needed:
                args = {**self.run.base(reader.tool), **{n: IMPOSSIBLE_ID if kind == "string" else 987654321
                                                         for n, kind in needed.items()}}
                failed.append((reader.tool.name, self.call(reader.tool.name, args)))
        empty = {k: "" if isinstance(v, str) else v for k, v in drawn.items()}
        failed.append((self.tool.name, self.call(self.tool.name, {**empty, **self.given})))
        return failed

    def learn_refusal(self, drawn: dict[str, Any]) -> None:
        """Last, so its write (accepted by a server that takes empty texts) disturbs no experiment."""
        if self.accepted is None:
            return
        start = len(self.found.calls)
        shape = learned_shape(self.must_fail(drawn), [self.accepted[1]])
        if shape is None:
            return
        if shape not in self.run.pool.refusals:
            self.run.pool.refusals.append(shape)
        self.found.refusal = shape
        self.found.refusal_fact = fact_shown(
            f"an answer whose {shape.member!r} is {json.dumps(shape.value)} is a refusal (calls that must fail "
            f"answered so; {self.tool.name}'s accepted write did not)",
            calls=[*self.found.calls[start:], self.accepted[0]], source="calibration")

    def experiments(self, first: dict[str, Any], second: dict[str, Any]) -> None:
        marker, args = self.marked(first)
        record = self.write(args, marker)
        if record is None:
            return
        write_call = self.found.calls[-1]
        self.accepted = (write_call, record.answer)
        if not record.tokens:
            return
        for reader in self.readers:
            outcome, calls = self.read(reader, record)
            if outcome.ok:
                self.showed[reader.tool.name] = {t for t in record.tokens if t in shown(outcome)}
            if (outcome.ok and shows_unasked(outcome, record.tokens, calls[-1].arguments)
                    and not asked_inside(calls[-1].arguments, record.args)):
                self.found.readers[reader.tool.name] = fact_shown(
                    f"{reader.tool.name} shows the records {self.tool.name} writes", calls=[write_call, *calls],
                    source="calibration")
        showing = [r for r in self.readers if r.tool.name in self.found.readers]
        # A reader asked for no record in particular shows a second record with the same key too.
        witness = min(showing, key=lambda r: bool(profile(r.tool).required), default=None)
        if witness is None:
            return
        found_id = find_id(record.answer, answer_ids(record.answer, record.args))
        if found_id is not None:
            self.found.answer_id = found_id[0]
            self.found.answer_fact = fact_shown(f"{self.tool.name}'s answer carries the new record's "
                                                f"{found_id[0]}", calls=[write_call], source="calibration")
        candidates = [c for c in dict.fromkeys([*([self.key_path] if self.key_path else []),
                                                 *profile(self.tool).identity])
                      if "." not in c and "[" not in c][:MAX_CANDIDATES]
        for name in candidates:
            if self.shared_write(record, second, name, witness):
                return

    def shared_write(self, record: Written, drawn: dict[str, Any], name: str, witness: Reader) -> bool:
        """A second write that shares only `name` with `record`: refused, replacing (then `name` is
        the identity) or added beside it. True once the identity, or a refusal, is known."""
        marker, args = self.marked(drawn)
        args[name] = record.args.get(name)
        for other, value in record.args.items():
            if other != name and isinstance(value, int) and not isinstance(value, bool) and args.get(other) == value:
                args[other] = value + 1
        start = len(self.found.calls)
        args, answer = self.send(args, marker)
        what = f"a second write to {self.tool.name} with the same {name}"
        if not answer.ok:
            if name == self.key_path:
                self.found.overwrite = REFUSED
                self.found.overwrite_fact = fact_shown(f"{what} is refused", calls=self.found.calls[start:],
                                                       source="calibration")
            return name == self.key_path
        second = Written(args, marker, tokens(args, marker) - tokens({name: args.get(name)}, marker), answer)
        # A token of the first record that an experiment's write repeated shows no longer that record.
        self.reused |= tokens({name: record.args.get(name)}, record.marker)
        old_tokens = record.tokens - self.reused
        # Gone from the witness says something only of the values it showed before.
        seen_old = old_tokens & self.showed.get(witness.tool.name, set())
        if not second.tokens or not seen_old:
            return False
        new_shown = self.shows(witness, second)
        old_shown = self.shows(witness, Written(record.args, record.marker, seen_old, record.answer))
        first = next(c for c in self.found.calls if c.tool == self.tool.name and c.arguments == record.args)
        calls = [first, *self.found.calls[start:]]
        if new_shown and old_shown is False:
            old = Written(record.args, record.marker, old_tokens, record.answer)
            if any(self.both_shown(r, old, second, args.get(name)) for r in self.readers
                   if r is not witness and r.tool.name in self.found.readers):
                return False  # a read by the shared value shows both writes: an append is not ruled out
            self.found.overwrite, self.found.identity = REPLACES, name
            self.found.overwrite_fact = fact_shown(f"{what} replaces the first", calls=calls, source="calibration")
            self.found.identity_fact = fact_shown(f"{name} tells {self.tool.name}'s records apart (a write that "
                                                  f"shares only {name} with another replaces it)", calls=calls,
                                                  source="calibration")
            return True
        if new_shown and old_shown:
            self.found.not_identity.append(name)
            if name == self.key_path:
                new_id = find_id(answer, answer_ids(answer, args))
                old_id = find_id(record.answer, answer_ids(record.answer, record.args))
                made = " with a new id" if new_id and old_id and new_id[1] != old_id[1] else ""
                self.found.overwrite = APPENDS
                self.found.overwrite_fact = fact_shown(f"{what} adds a second record{made}; both are shown",
                                                       calls=calls, source="calibration")
        return False


def shows_unasked(outcome: Outcome, marks: set[str], asked: dict[str, Any]) -> bool:
    """The answer shows one of a record's tokens, one the reader was not given where the record has
    any: an answer that repeats its arguments (a search echoing its query) shows no record."""
    sent = json.dumps(asked)
    unasked = {t for t in marks if t not in sent}
    text = shown(outcome)
    return any(t in text for t in (unasked or marks))


def asked_inside(asked: dict[str, Any], written: dict[str, Any]) -> bool:
    """A query the reader was asked (the key, by guess) sits inside another text the record holds
    (`00` in `hm86d9ff00-notes`): a search may have found the record by that text, so the answer
    shows nothing of what the query selects by."""
    texts = [text.lower() for _, text in field_texts(written)]
    return any(is_query(name) and isinstance(value, str) and value
               and any(value.lower() in text and value.lower() != text for text in texts)
               for name, value in asked.items())


def answer_ids(outcome: Outcome, sent: dict[str, Any]) -> tuple[str, ...]:
    """Members of the answer (or of an object one level down) named like an id a server makes
    (`id`, `jobId`, `ticket_uuid`) that the write did not send: where a new record's id may be."""
    value = outcome.value()
    objects = [value] if isinstance(value, dict) else value if isinstance(value, list) and len(value) == 1 else []
    nested = [v for o in objects if isinstance(o, dict) for v in o.values() if isinstance(v, dict)]
    return tuple(dict.fromkeys(snake(m) for o in [*objects, *nested] if isinstance(o, dict) for m in o
                               if server_made_id(m) and m not in sent))


def calibrated_readers(readers: list[Reader], calibration: Calibration) -> list[Reader]:
    """The readers calibration showed first (sure, with the fact), then the others as guessed."""
    sure = [replace(r, confidence="high", basis=f"calibration: {r.tool.name} showed a new record of "
                    f"{calibration.tool}", fact=calibration.readers[r.tool.name])
            for r in readers if r.tool.name in calibration.readers and r.fact is None]
    stated = [r for r in readers if r.fact is not None]
    return [*stated, *sure, *(r for r in readers if r.fact is None and r.tool.name not in calibration.readers)]


def calibrate(run: ProbeHost, tool: Tool, readers: list[Reader], key_path: str | None,
              given: dict[str, Any], warm: bool = False) -> Calibration:
    return Calibrator(run, tool, readers, key_path, given, warm).run_once()
