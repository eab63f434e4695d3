"""Writes that only change an existing record, probed on a record the probe created first.

`todo_update(id, text)` needs the id of a record the server made: the probe creates one through a
write of the same kind of record (`todo_create`), takes its new id from the answer (or from a
listing that shows it next to the record's marker), updates the record with marked values and
reads it back with the reader that showed it. New values shown: the update is kept. The old values
of the updated fields shown and none of the new: the update reported success and changed nothing.
A field the update did not touch, shown before and gone after: the update lost it. An update that
takes no free text carries no marker, so a read cannot show what it changed: it is not judged.

A write addressed by a value the user chooses (`jot_revise(title, body)` for `jot_create(title,
body, tags)`) is no update by its name; its round trip shows it, refusing every generated value.
Each text both tools require is then tried as the address: a record is created with it and updated
through it. The field through which an update of the created record is accepted addresses records
(an unknown value was refused, a known one accepted: both shown by this run), and the update is
judged as above.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import given, settings

from hypothesis_mcp.catalog import Tool, snake, words
from hypothesis_mcp.connection import Connection, Outcome
from hypothesis_mcp.model.facts import Fact, fact_guessed, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.results import Binding, Call, RuleId
from hypothesis_mcp.rules.answers import shown
from hypothesis_mcp.rules.bindings import find_id, in_type_of
from hypothesis_mcp.search.seeding import own_draws, scope_salt, seeded
from hypothesis_mcp.stateful.host import ProbeHost, ProbeOutput
from hypothesis_mcp.stateful.judge import ProbeFailure, ProbeFinding
from hypothesis_mcp.stateful.readers import (
    Reader,
    fill_reader_args,
    nouns,
    says_skipped,
    server_prefix,
    tokens,
)
from hypothesis_mcp.stateful.roles import GUESSED_ROLE, GuessedUpdate, updated_id
from hypothesis_mcp.stateful.watch import Seen
from hypothesis_mcp.strategies import PLACEHOLDER, find_markers, marked_arguments, salted_marker, with_marker
from hypothesis_mcp.vocabulary import CHAIN, IDENTITY_WORDS, SERVER_ID_WORDS, server_made_id, singular


def record_nouns(tool: Tool, prefix: set[str]) -> set[str]:
    """The kind of record a tool's name speaks of: its nouns, without the server's prefix unless the
    prefix is the only noun (`task_new`, `task_patch`, `task_show`)."""
    kinds = nouns(tool)
    return (kinds - prefix) or kinds


def needs_record(tool: Tool, given: set[str]) -> bool:
    """The tool requires an id the user did not give: it too works on a record that exists."""
    return any(server_made_id(name) and name not in given for name in profile(tool).required)


def makers(updater: Tool, writes: list[Tool], given: dict[str, set[str]],
           seen: Mapping[str, Seen] | None = None,
           guesses: Mapping[str, GuessedUpdate] | None = None) -> list[Tool]:
    """The other writes that make records of their own: none is update-only or requires an id of an
    existing record the user did not give."""
    return [t for t in writes if t.name != updater.name and not needs_record(t, given.get(t.name, set()))
            and updated_id(t, given.get(t.name, set()), seen, guesses) is None]


def creators(updater: Tool, writes: list[Tool], tools: list[Tool], given: dict[str, set[str]],
             kind: AbstractSet[str] = frozenset(), seen: Mapping[str, Seen] | None = None,
             guesses: Mapping[str, GuessedUpdate] | None = None) -> list[Tool]:
    """Writes that create the kind of record `updater` changes, likeliest first: the same nouns, then
    those with the most of them (`todo_create` for `todo_set_blockers`); none requires an id of an
    existing record, and each names `kind` among its nouns. An updater whose name has no noun
    (`mark_done(id)`) changes the records of the server's only creator."""
    prefix = server_prefix(tools)
    mine = record_nouns(updater, prefix)
    candidates = [t for t in makers(updater, writes, given, seen, guesses) if kind <= record_nouns(t, prefix)]
    if not mine:
        return candidates if len(candidates) == 1 else []
    same = [t for t in candidates if record_nouns(t, prefix) == mine]
    fewer = [t for t in candidates if record_nouns(t, prefix) and record_nouns(t, prefix) < mine]
    fewer.sort(key=lambda t: -len(record_nouns(t, prefix)))
    return same + fewer


def creator_for(updater: Tool, id_field: str, writes: list[Tool], tools: list[Tool],
                given: dict[str, set[str]], seen: Mapping[str, Seen] | None = None,
                guesses: Mapping[str, GuessedUpdate] | None = None) -> Tool | None:
    """The likeliest creator of the records `updater` changes; an id field that names a kind
    (`comment_id`) wants a creator of that kind."""
    kind = {singular(w) for w in words(id_field)} - SERVER_ID_WORDS - IDENTITY_WORDS - CHAIN
    found = creators(updater, writes, tools, given, kind, seen, guesses)
    return found[0] if found else None


def id_names(updater: Tool, id_field: str, creator: Tool, tools: list[Tool]) -> tuple[str, ...]:
    """Names an answer may give the new record's id under: the updater's own field, then `id`,
    `<noun>_id` and `uuid`-like names."""
    prefix = server_prefix(tools)
    kinds = sorted(record_nouns(updater, prefix) | record_nouns(creator, prefix))
    names = [snake(id_field), "id", *(f"{k}_id" for k in kinds), *sorted(SERVER_ID_WORDS)]
    return tuple(dict.fromkeys(names))


ADDRESS_TRIES = 1
"""Examples that try a shared text as the address of a creator's records, before the full probe: the
first is the simplest marked value, which a store that takes any text accepts. The trials share one
warm server (markers keep their records apart)."""


@dataclass
class Created:
    """A record one example created: its arguments and marked tokens, its id, and the calls so far."""

    args: dict[str, Any]
    marker: str
    tokens: set[str]
    record_id: Any
    fields: dict[str, Any]
    calls: list[Call]


def addressing_fields(updater: Tool, creator: Tool, given: dict[str, Any]) -> list[str]:
    """Texts both tools require and the user did not give, when the updater has another text to
    change: the values by which the updater may address the creator's records, in its own order."""
    def texts(tool: Tool) -> set[str]:
        return {name for name in profile(tool).required
                if isinstance(schema := tool.properties.get(name), dict) and schema.get("type") == "string"}

    mine, theirs = texts(updater), texts(creator)
    changed = {name for name, schema in updater.properties.items()
               if isinstance(schema, dict) and schema.get("type") == "string"}
    return [name for name in profile(updater).required
            if name in mine & theirs and name not in given and changed - {name}]


@dataclass
class UpdateProbe:
    """The update probe of one update-only write: examples on one warm server, a finding replayed
    on a fresh one before it is reported."""

    run: ProbeHost
    tool: Tool
    id_field: str
    creator: Tool
    readers: list[Reader]
    given: dict[str, Any]
    creator_given: dict[str, Any]
    names: tuple[str, ...] = ()
    examples: int = 0
    creates_refused: list[Outcome] = field(default_factory=list)
    without_id: int = 0
    unseen: int = 0
    updates_refused: list[Outcome] = field(default_factory=list)
    updates_ok: int = 0
    judged: int = 0
    unmarked: list[tuple[str, bool]] = field(default_factory=list)
    """(reader, still shows the record) after each update that carried no marker."""
    witness: Reader | None = None
    applied: tuple[list[Call], str, str] | None = None
    """The first update a read showed applied: its calls, its marker and the reader."""
    addressed: bool = False
    """The id field holds a value the creator was given (`title`), not one the server made."""
    found: ProbeFinding | None = None
    out_of_time: bool = False
    _count: int = 0

    def __post_init__(self) -> None:
        self.names = id_names(self.tool, self.id_field, self.creator, self.run.tools)
        self.salt = scope_salt(self.run.profile.seed, "update", self.tool)
        self.base = {r.tool.name: self.run.base(r.tool) for r in self.readers}

    def results(self) -> Iterator[ProbeOutput]:
        error = self.explore()
        self.run.pool.retire_warm()
        self.run.examples += self.examples
        yield from self.verdict(error)

    def explore(self, examples: int | None = None) -> str | None:
        """Run the examples (the profile's, unless told); the error that stopped them, if one did (a
        schema no value satisfies)."""
        try:
            creating = marked_arguments(self.creator, PLACEHOLDER, self.creator_given or None)
            updating = marked_arguments(self.tool, PLACEHOLDER, self.given or None)

            @settings(self.run.profile.settings(examples or self.run.profile.probe_examples))
            @given(create=creating, update=updating)
            def updates(create: dict[str, Any], update: dict[str, Any]) -> None:
                self.example(create, update)

            with own_draws():
                seeded(updates, self.run.profile.seed, "update", self.tool, self.creator)()
        except ProbeFailure:
            pass
        except Exception as exc:
            return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return None

    def marked(self, drawn: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        marker = salted_marker(self.salt, self._count)
        self._count += 1
        return marker, with_marker(drawn, marker)

    def example(self, create: dict[str, Any], update: dict[str, Any]) -> None:
        if self.run.stop():
            self.out_of_time = True
            return
        self.examples += 1
        conn = self.run.pool.warm()
        created = self.create(conn, create)
        if created is None:
            return
        witness = self.witness_for(conn, created)
        if witness is None:
            self.unseen += 1
            return
        reader, asked, before = witness
        marker, args = self.marked(update)
        args[self.id_field] = in_type_of(self.id_sample(), created.record_id)
        calls = [*created.calls, Call(self.tool.name, args)]
        updated = conn.call(self.tool.name, args)
        if not updated.ok:
            self.updates_refused.append(updated)
            return
        self.updates_ok += 1
        new = tokens(args, marker)
        # Asked for the record as now written: a search looks for the update's marker, if it placed one.
        read_args = fill_reader_args(reader, {**created.fields, **args}, self.key(reader, created, marker if new
                                                                                  else created.marker),
                                     self.base[reader.tool.name])
        calls.append(Call(reader.tool.name, read_args))
        after = conn.call(reader.tool.name, read_args)
        if not new:
            self.unmarked.append((reader.tool.name, after.ok and any(t in shown(after) for t in created.tokens)))
            return
        if says_skipped(updated) or not after.ok:
            return
        self.judge(created, reader, before if read_args == asked else None, args, new, after, calls)

    def id_sample(self) -> Any:
        """A value of the id field's type: an integer for a field typed so, text otherwise."""
        schema = self.tool.properties.get(self.id_field)
        return 0 if isinstance(schema, dict) and schema.get("type") == "integer" else ""

    def create(self, conn: Connection, drawn: dict[str, Any]) -> Created | None:
        """Create a record and find its id: in the create's answer, or else in a listing read that
        shows the record next to one of its markers."""
        marker, args = self.marked(drawn)
        outcome = conn.call(self.creator.name, args)
        if not outcome.ok:
            self.creates_refused.append(outcome)
            return None
        marks = tokens(args, marker)
        if not marks:
            return None
        if self.addressed:
            value = args.get(self.id_field)
            if not isinstance(value, str) or not value:
                return None
            return Created(args, marker, marks, value, dict(args), [Call(self.creator.name, args)])
        found = find_id(outcome, self.names)
        calls = [Call(self.creator.name, args, binds=(Binding(found[1], self.names),) if found else ())]
        if found is None:
            for reader in (r for r in self.readers if not profile(r.tool).required):
                listing = conn.call(reader.tool.name, self.base[reader.tool.name])
                token = next((t for t in sorted(marks) if find_id(listing, self.names, t) is not None), None)
                if token is not None:
                    found = find_id(listing, self.names, token)
                    assert found is not None
                    binding = Binding(found[1], self.names, token)
                    calls.append(Call(reader.tool.name, self.base[reader.tool.name], binds=(binding,)))
                    break
        if found is None:
            self.without_id += 1
            return None
        member, record_id = found
        fields = {**args, member: record_id, self.id_field: record_id}
        return Created(args, marker, marks, record_id, fields, calls)

    def key(self, reader: Reader, created: Created, marker: str) -> Any:
        """What a reader is asked for the record by: its id where a probe config's read_args say
        `{key}`, a marker of it in a query-like parameter (a search finds the marked text)."""
        return created.record_id if reader.read_args is not None else marker

    def witness_for(self, conn: Connection, created: Created) -> tuple[Reader, dict[str, Any], Outcome] | None:
        """The first reader that shows the created record, with its arguments and answer."""
        for reader in self.readers:
            args = fill_reader_args(reader, created.fields, self.key(reader, created, created.marker),
                                    self.base[reader.tool.name])
            outcome = conn.call(reader.tool.name, args)
            if outcome.ok and any(t in shown(outcome) for t in created.tokens):
                self.witness = self.witness or reader
                return reader, args, outcome
        return None

    def judge(self, created: Created, reader: Reader, before: Outcome | None, args: dict[str, Any], new: set[str],
              after: Outcome, calls: list[Call]) -> None:
        """`before` is the same read before the update, if it was asked the same: only then is a
        field missing after it lost (a search by the update's marker may show other parts)."""
        text, earlier = shown(after), shown(before) if before is not None else ""
        marker = created.marker
        updated = {t.split("-", 1)[1] for t in new}
        stale = {f"{marker}-{name}" for name in updated} & created.tokens
        sent = set(enclosing(args))  # nested names too: an object sent replaces the fields within it
        within = enclosing(created.args)
        untouched = {t for t in created.tokens if t.split("-", 1)[1] not in updated
                     and not {t.split("-", 1)[1], *within.get(t.split("-", 1)[1], ())} & sent}
        if any(t in text for t in new):
            self.judged += 1
            self.applied = self.applied or (list(calls), min(new).split("-", 1)[0], reader.tool.name)
            lost = sorted(t for t in untouched if t in earlier and t not in text)
            if lost:
                name = lost[0].split("-", 1)[1]
                self.fail("probe-data-lost",
                          f"an update through {self.tool.name} of a record {self.creator.name} created "
                          f"({self.id_field}={created.record_id!r}) reported success, and {reader.tool.name} shows "
                          f"the new values but no longer the record's {name}, which the update did not touch",
                          reader, calls, {"contains_any": lost, "answered": True},
                          "high" if name not in self.tool.properties else "medium")
            return
        if any(t in text for t in stale):
            self.judged += 1
            said = self.replacing(updated)
            self.fail("probe-silent-noop",
                      f"an update through {self.tool.name} of a record {self.creator.name} created ({self.id_field}="
                      f"{created.record_id!r}) reported success, but {reader.tool.name} still shows the old "
                      f"{', '.join(sorted(updated))} and none of the new values; state unchanged",
                      reader, calls, {"contains_any": sorted(new)}, "high", *(() if said is None else (said,)))

    def replacing(self, updated: set[str]) -> Fact | None:
        """That the values an update found by experiment took replace the record's fields of those
        names: taken from its parameters' names, the schema's shape its role's guess reads too (its
        description is words: named or blind, the same guess), so a no-op it seems to make is at
        most a medium warning. An update through an id the server made: None (its role says so)."""
        if not self.addressed:
            return None
        what = f"{self.tool.name} replaces the record's {', '.join(sorted(updated))} with the values it is given"
        return fact_guessed(what, "its parameters are named like the record's fields", GUESSED_ROLE)

    def role(self) -> Fact:
        """That the tool changes records: shown where a read of this probe showed an update's new
        values (the failing one's, for a lost field), else what the run knows of its role."""
        if self.applied is None:
            return self.run.role_fact(self.tool)
        calls, marker, reader = self.applied
        return fact_shown(f"{self.tool.name} changes records: after an update of a record {self.creator.name} "
                          f"created, {reader} showed the update's new values", marker=marker,
                          tools=(self.tool.name, reader), calls=calls[-2:])

    def fail(self, rule: RuleId, message: str, reader: Reader, calls: list[Call], expect: dict[str, Any],
             confidence: str, *said: Fact) -> None:
        created = calls[0].arguments
        marker = next((m for m in find_markers(json.dumps(created)) if m != PLACEHOLDER), "")
        role = self.role()
        if not role.shown:
            sure = "" if any(not fact.shown for fact in said) else " and makes the finding sure"
            message += (f"; no call of this run saw {self.tool.name} change anything it could see, so that it "
                        f"changes records is a guess ({role.source}): if it should, this is the bug, and naming "
                        f"{self.tool.name} under `writes` in a probe config states it{sure}")
        facts = (fact_shown(f"{reader.tool.name} shows the records {self.creator.name} creates", marker=marker,
                            tools=(self.creator.name, reader.tool.name)),
                 fact_shown(f"{self.tool.name} accepts the {self.id_field} "
                            f"{f'{self.creator.name} was given' if self.addressed else 'the server gave'} "
                            "for a record", marker=marker, tools=(self.creator.name, self.tool.name)),
                 role, *said, *(fact for _, fact in self.run.refusal_facts()))
        finding = ProbeFinding(rule, self.tool.name, message, confidence,
                               f"a record created by {self.creator.name}, updated, and read back by {reader.tool.name}",
                               calls=calls, expect=expect, fresh=False, facts=facts)
        self.found = finding
        raise ProbeFailure(finding)

    def verdict(self, error: str | None) -> Iterator[ProbeOutput]:
        run, name, creator = self.run, self.tool.name, self.creator.name

        def inconclusive(message: str) -> ProbeOutput:
            return run.result(name, "round-trip", "inconclusive", "probe-write-not-observable", message,
                              confidence="low")

        if self.found is not None:
            if run.pool.shared or run.reproduces(self.found):
                yield replace(self.found, fresh=True)
            else:
                yield inconclusive(f"an update seemed lost ({self.found.message}), but a replay on a fresh server "
                                   "did not show it again")
        elif self.out_of_time and not self.examples:
            yield run.result(name, "round-trip", "skip", "probe-write-not-observable",
                             "not run: --max-time was reached")
        elif error is not None:
            yield inconclusive(f"the probe could not run: {error}")
        elif self.creates_refused and len(self.creates_refused) == self.examples:
            yield inconclusive(f"it changes a record that exists, and {creator}, which creates one, refused "
                               f"every try ({len(self.creates_refused)}, last: {self.creates_refused[-1].summary()})")
        elif self.without_id and not (self.unseen or self.updates_ok or self.updates_refused):
            yield inconclusive(f"it changes a record that exists (required {self.id_field}); {creator} created one, "
                               f"but its answer holds no id ({', '.join(self.names[:4])}) and no listing read shows "
                               f"one next to the record; give a real {self.id_field} with --arg {name}:"
                               f"{self.id_field}=VALUE to probe it")
        elif self.unseen and not (self.updates_ok or self.updates_refused):
            yield inconclusive(f"no read tool showed the records {creator} created, so no update of one can be seen")
        elif self.updates_refused and not self.updates_ok:
            yield inconclusive(f"it refused the update of every record {creator} created "
                               f"({len(self.updates_refused)} tries, last: {self.updates_refused[-1].summary()})")
        elif self.unmarked and not self.judged:
            readers = sorted({r for r, _ in self.unmarked})
            still = sum(1 for _, kept in self.unmarked if kept)
            yield inconclusive(f"it takes no free text, so no read can show what it changed; {len(self.unmarked)} "
                               f"update(s) of records {creator} created were accepted, and {', '.join(readers)} still "
                               f"showed the record after {still} of them")
        elif self.judged:
            reader = self.witness
            assert reader is not None
            yield run.result(name, "round-trip", "pass", "round-trip",
                             f"updates were kept: {self.judged} update(s) of records {creator} created were shown by "
                             f"{reader.tool.name} ({self.examples} example(s))", confidence="high",
                             basis=f"records created by {creator}, updated and read back by {reader.tool.name}")
        else:
            yield inconclusive(f"{self.updates_ok} update(s) of records {creator} created were accepted, but no read "
                               "showed the updated fields, old or new")


def update_probe(run: ProbeHost, tool: Tool, id_field: str, readers: list[Reader],
                 given: dict[str, Any]) -> Iterator[ProbeOutput]:
    """The probe of an update-only write, on records of the creator the experiments showed it
    changing (else the likeliest by name); without a tool that creates its records, it says so."""
    writes = run.write_tools()
    wanted = {t.name: set(run.write_args(t, run.config.pair_for(t.name))) for t in writes}
    shown = run.watched().get(tool.name)
    guess = run.guesses().get(tool.name)
    by_shape = guess.creator if guess is not None and guess.id_field == id_field else None
    creator = next((t for t in writes if shown is not None and t.name == shown.acts_on), None) \
        or next((t for t in writes if t.name == by_shape), None) \
        or creator_for(tool, id_field, writes, run.tools, wanted, run.watched(), run.guesses())
    if creator is None:
        yield run.result(tool.name, "round-trip", "inconclusive", "probe-write-not-observable",
                         f"it needs a record that exists (required {id_field}) and no tool creates one; give a real "
                         f"{id_field} with --arg {tool.name}:{id_field}=VALUE to probe it", confidence="low")
        return
    creator_given = run.write_args(creator, run.config.pair_for(creator.name))
    # An identity the creator was sent (a title), not one the server made, addresses its records.
    addressed = (shown is not None and shown.acts_on == creator.name and id_field in creator.properties) or (
        guess is not None and guess.creator == creator.name and guess.addressed)
    yield from UpdateProbe(run, tool, id_field, creator, readers, given, creator_given,
                           addressed=addressed).results()


def addressed_update_probe(run: ProbeHost, tool: Tool, readers: list[Reader],
                           given: dict[str, Any]) -> Iterator[ProbeOutput]:
    """The update probe of a write that refused every generated value, through the first text it
    shares with a creator by which an update of a created record is accepted (one try each,
    likeliest creators first); nothing when none is."""
    writes = run.write_tools()
    wanted = {t.name: set(run.write_args(t, run.config.pair_for(t.name))) for t in writes}
    ranked = creators(tool, writes, run.tools, wanted, seen=run.watched(), guesses=run.guesses())
    try:
        for creator in [*ranked, *(t for t in makers(tool, writes, wanted, run.watched(), run.guesses())
                                   if t not in ranked)]:
            creator_given = run.write_args(creator, run.config.pair_for(creator.name))
            for id_field in addressing_fields(tool, creator, {**creator_given, **given}):
                probe = UpdateProbe(run, tool, id_field, creator, readers, given, creator_given, addressed=True)
                error = probe.explore(ADDRESS_TRIES)
                if probe.updates_ok and probe.found is None:
                    error = probe.explore()
                run.examples += probe.examples
                if probe.found is not None or probe.updates_ok:
                    yield from probe.verdict(error)
                    return
    finally:
        run.pool.retire_warm()


def enclosing(args: Any, above: tuple[str, ...] = ()) -> dict[str, set[str]]:
    """Each member name the arguments hold, nested ones too, with the names of the objects around it:
    an update that sends `meta: {}` replaces `meta.city`, so the city's loss is no loss of data."""
    found: dict[str, set[str]] = {}
    items = args.items() if isinstance(args, dict) else enumerate(args) if isinstance(args, list) else ()
    for key, value in items:
        path = (*above, str(key)) if isinstance(args, dict) else above
        if isinstance(args, dict):
            found.setdefault(str(key), set()).update(above)
        for name, outer in enclosing(value, path).items():
            found.setdefault(name, set()).update(outer)
    return found
