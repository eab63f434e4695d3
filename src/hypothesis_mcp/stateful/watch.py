"""Learning what each tool does by watching the server: roles, identities and reader bindings from
the effects of calls, never from names.

The run's view of the server is a snapshot: the answers of the tools it can call with no argument
(the lookers), each read as text, and the keyed reads of every live record the run holds whose
creator was shown through keyed readers. A call's effect is the difference of the snapshots around
it. On one fresh server, the experiments are:
1. Every tool that needs arguments is called once with fresh marked values: one whose successful
   call made its values appear in a looker is a creator (the looker lists its records). A
   successful write no looker shows is followed by keyed reads: each tool that needs exactly one
   argument, which a value of the write fills (an answer's value it was not sent, or a value it
   sent under that name), is asked for the record; one that answers the record's marked values, then
   asked for a second record of the write answers that one and not the first, and asked for the
   first again the first, is a keyed reader and the write a creator shown through it (both or
   neither). Before that, the write is tried as in 3 on the store listed nearest it: one that
   answered that store's values, or was placed by the try, reads there and writes no store of its own.
2. For each creator, a second write shares one identity candidate at a time with a record it made:
   replaced (the first record gone), refused or ignored (answered as a success, no snapshot
   changed), each while the same write with another value was accepted, or added beside it. The
   candidate whose sharing replaced, was refused or was ignored is the identity, unless a tool that
   takes nothing but that value still shows the first write's values (an append a looker shows as
   one row): then nothing is shown. None, and every write adds:
   appends. Values of the write's answer it did not send are candidates for a server-made id.
3. Every other tool is called with a record's identity (its same-named arguments, or an id from the
   answer), of one store after another, the store listed nearest the tool first, until a call shows
   what the tool does or the tool answered values of that store's records it was not sent (a tool of
   one store is not tried on every other's): one after whose call the record is gone from every
   looker is a remover, and so is one after whose call a keyed reader shown for the record's store,
   which showed it before, refuses it (a looker may lag behind removals), or after whose call a
   count of the store moved back by one while every reader that showed the record shows it as
   before and no looker shows anything new but the record (a listing of removed records). A tool
   that showed nothing on a record while no keyed reader of its store was known is tried once more
   after the others, once one is (it may remove what every looker lags behind): an update
   changes what a reader shows; one whose call changed what a looker shows is a writer (an update);
   one that changed nothing and answered the record is a reader bound to that argument (asked for
   a second record, it answers that one and not the first).
   A text argument is tried with each written field's value (marked, then those written unmarked
   that no other record holds): found by it, the reader searches by that field (by any text only when
   every text found it); a value no record holds finds none.
4. A looker that showed a record lists; one that shows a removed record lists the removed; one
   whose number moved by one with each record made and removed counts.
Names, descriptions and annotations decide only what may be called: a tool that may delete (by
its words or a destructiveHint) is called only when the user allows deletes, and then like any
other, so the experiments, in the order of the listing, are the same whatever the tools are named.
Every belief carries the experiment that showed it and its calls.
"""

from __future__ import annotations

import json
import re
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection, Outcome, text_lines
from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.results import Call
from hypothesis_mcp.rules.answers import numbers_in, shown
from hypothesis_mcp.search.pool import ServerPool
from hypothesis_mcp.search.seeding import own_draws, seeded
from hypothesis_mcp.stateful.looking import Numbered, Pager, find_numbered, find_pager, items, scalar, walk
from hypothesis_mcp.stateful.unmarked import RETRIES, Plan, retried, unmarked
from hypothesis_mcp.strategies import PLACEHOLDER, marked_arguments, salted_marker, with_marker
from hypothesis_mcp.strategies.dialect import admits
from hypothesis_mcp.strategies.markers import MARKER
from hypothesis_mcp.vocabulary import names_identity, server_made_id

CREATORS = ("create", "write")
"""A creator whose second write with the same identity replaces the first writes (an upsert)."""
ATTEMPTS = 4
"""Tries of a write with fresh values before it counts as no creator (see try_create)."""
LIKE_RECORD = 4
ON_RECORDS = (0, 0, 2, LIKE_RECORD, 3)
"""The shapes of a call on a record, tried in turn while refused: fresh values, other fresh values,
its booleans turned, only the arguments the record's own write sent, its required arguments alone."""
DRAWS = 16
MIN_DRAWS = 12
"""Argument sets drawn per tool, pairwise different in every identity candidate."""
DRAWN_SETS = 192
"""Argument sets one example can draw for every tool together before Hypothesis's buffer overruns:
a larger catalogue gets fewer per tool."""
MAX_CANDIDATES = 4
"""Identity candidates varied one at a time, at most: each costs a write and a look."""
LINE = re.compile(r"^\s*\|?\s*([A-Za-z_][\w.-]*)\s*[:=|]\s*(.+?)\s*\|?\s*$")
"""`name: value` (or a two-cell table row): where a prose answer names a value."""
TEXT = "text"


@dataclass(frozen=True)
class Move:
    """How a looker's numbers moved (by path) with one record of `creator` made (+1) or removed (-1)."""

    step: int
    delta: dict[str, float]
    creator: str
    unseen: bool = False
    """A looker showed a change between the move before and this one (another call's doing, that no
    record made or removed explains): a number that lags behind may catch up with it here."""


@dataclass(frozen=True)
class Tally:
    """A number shown counting records: its `path` moved by one with each record of `counts` made or
    removed, and stood still with each record of `apart`; of any other creator's records it says
    nothing."""

    path: str
    counts: frozenset[str]
    apart: frozenset[str]


@dataclass
class Record:
    """One record a write of this run made: what it sent and what it answered."""

    tool: str
    args: dict[str, Any]
    marker: str
    tokens: set[str]
    answer: Outcome
    call: Call
    ids: list[tuple[str, Any]]
    """Values of the answer the write did not send, each with the member that holds it."""
    where: list[str] = field(default_factory=list)
    """The lookers that showed it when it was made."""
    alive: bool = True


class Snapshot(dict[str, Outcome]):
    """What each reader answered, by looker name or keyed read (`reader(arg=value)`). A keyed read
    of a record held after the snapshot was taken is missing from it: read as blank, as before the
    record was there."""

    keyed: set[str]
    """The names of its keyed reads."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.keyed = set()

    def __missing__(self, name: str) -> Outcome:
        return Outcome(kind="result")


@dataclass(frozen=True)
class Key:
    """A keyed reader of one creator's records: `reader` given the record's value at `source` (a
    member of the write's answer, `id:member`, or an argument the write sent) as `arg`."""

    reader: Tool
    arg: str
    source: str


@dataclass
class Binding:
    argument: str
    field: str
    fact: Fact
    by_part: bool = False
    """A search shown finding the record by a part of the field's text (its marked token, the whole
    text being too long to ask): only then may the laws ask it by a part."""
    texts: tuple[str, ...] = ()
    """For a search by any text (TEXT): the fields each of which found the record. A field the
    experiments' record had no text in (its identity, say) was never tried."""


@dataclass
class Seen:
    """What the experiments showed of one tool; None where nothing was shown."""

    role: str | None = None
    fact: Fact | None = None
    identity: str | None = None
    identity_fact: Fact | None = None
    answer_id: str | None = None
    answer_fact: Fact | None = None
    overwrite: str | None = None
    overwrite_fact: Fact | None = None
    bindings: list[Binding] = field(default_factory=list)
    readers: dict[str, Fact] = field(default_factory=dict)
    """For a writer: the lookers that showed its new record."""
    paging: Pager | None = None
    numbered: Numbered | None = None
    paging_fact: Fact | None = None
    """For a listing: the member of its answer that, given back, answers the next page (or the
    parameter that numbers its pages)."""
    acts_on: str | None = None
    """For a tool called on a record (an update, a remover, a keyed reader): the creator that made it."""
    answered: tuple[str, ...] = ()
    """For a write: the members of its first successful answer holding values it was not sent."""
    answers: str | None = None
    """For a tool tried on a store's records: the creator whose record's values it answered, given
    that record's identity, that the call did not carry (see on_records); it orders the candidate
    readers of a write where no experiment placed the tool (stateful.readers)."""

    def facts(self) -> list[Fact]:
        found = [self.fact, self.identity_fact, self.answer_fact, self.overwrite_fact, self.paging_fact,
                 *(b.fact for b in self.bindings), *self.readers.values()]
        return [f for f in found if f is not None]


def draw_all(data: st.DataObject, tools: list[Tool]) -> dict[str, list[dict[str, Any]]]:
    """Per tool, argument sets that differ in every identity candidate the marker does not tell
    apart (a marked text differs by the marker each write gets), every field set where a draw set
    it."""
    draws: dict[str, list[dict[str, Any]]] = {}
    most = max(2, min(DRAWS, DRAWN_SETS // max(1, len(tools))))
    least = min(MIN_DRAWS, most)
    for tool in tools:
        if not tool.properties:
            draws[tool.name] = [{}]
            continue
        unique = tuple((lambda a, f=f: id(a) if str(a.get(f)).startswith(PLACEHOLDER) else json.dumps(a.get(f)))
                       for f in candidates(tool))
        drawn = data.draw(st.lists(full_arguments(tool), min_size=least, max_size=most, unique_by=unique)
                          if unique else st.lists(full_arguments(tool), min_size=least, max_size=most))
        draws[tool.name] = [all_marked(tool, {**{k: v for other in drawn for k, v in other.items()}, **args})
                            for args in drawn]
    return draws


NUMBERED = 10**8
"""The least number a write's marker is spelt as: nine digits, under 2**31 (a store that keeps 32-bit
integers keeps it, so a wrap is judged on the values at the edges, not on the record's own mark)."""


def number_of(marker: str) -> int:
    """The write's marker as a number of nine digits: markers of one run differ in their count, so
    their numbers differ too."""
    return NUMBERED + int(marker[2:], 16) % (9 * NUMBERED)


def number_trials(tool: Tool, args: dict[str, Any], skip: str, number: int) -> list[dict[str, Any]]:
    """`args` with `number` set in one number field the write may set, `skip` aside: a number at its
    top, or one an object's schema names (set beside what the object holds, `origin.rank`)."""
    trials = []
    for name, schema in tool.properties.items():
        if name == skip or not isinstance(schema, dict):
            continue
        if schema.get("type") in ("integer", "number"):
            trials.append({**args, name: number})
        elif schema.get("type") == "object" and isinstance(members := schema.get("properties"), dict):
            inner = args[name] if isinstance(args.get(name), dict) else {}
            trials += [{**args, name: {**inner, member: number}} for member, sub in members.items()
                       if isinstance(sub, dict) and sub.get("type") in ("integer", "number")]
    return trials


def flat(args: dict[str, Any]) -> dict[str, Any]:
    """The arguments with each object's members beside the other fields (`origin.rank`)."""
    return {**args, **{f"{k}.{m}": v for k, inner in args.items() if isinstance(inner, dict) for m, v in inner.items()}}


def all_marked(tool: Tool, args: dict[str, Any]) -> dict[str, Any]:
    """Every plain text field carries the marker where its schema admits `{marker}-{field}`, whatever
    the field is called: a write's values then show where they went."""
    marked = dict(args)
    for name, schema in tool.properties.items():
        bare = f"{PLACEHOLDER}-{name}"
        if (isinstance(marked.get(name), str) and not marked[name].startswith(PLACEHOLDER) and isinstance(schema, dict)
                and schema.get("type") == "string" and not {"pattern", "format", "enum", "const"} & schema.keys()
                and schema.get("minLength", 0) <= len(bare) <= schema.get("maxLength", len(bare))):
            marked[name] = bare
    return marked


def full_arguments(tool: Tool) -> st.SearchStrategy[dict[str, Any]]:
    """Marked arguments that set every field the schema allows together (a write that sets more
    shows more of what it does), or, where the schema will not have them all, the usual ones. A
    field's default or examples are not preferred: a write of the default shows nothing."""
    declared = tool.input_schema.get("properties")
    plain = {name: {k: v for k, v in sub.items() if k not in ("default", "examples")} if isinstance(sub, dict) else sub
             for name, sub in declared.items()} if isinstance(declared, dict) else declared
    full = replace(tool, input_schema={**tool.input_schema, "required": list(tool.properties),
                                       **({"properties": plain} if plain is not None else {})})
    try:
        return marked_arguments(full, PLACEHOLDER)
    except SchemaError:
        return marked_arguments(tool, PLACEHOLDER)


def may_delete(tool: Tool) -> bool:
    """By its words or annotations, a call might remove or send: called only on the run's records."""
    return tool.is_destructive or tool.is_sending


def tokens_of(args: Any, marker: str) -> set[str]:
    """The marked tokens a write placed: `{marker}-{field}` at the start of a text under `field`."""
    found: set[str] = set()

    def walk(value: Any, name: str | None) -> None:
        if isinstance(value, str) and name is not None and value.startswith(f"{marker}-{name}"):
            found.add(f"{marker}-{name}")
        elif isinstance(value, list):
            for item in value:
                walk(item, name)
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, key)

    walk(args, None)
    return found


def answer_values(outcome: Outcome, sent: dict[str, Any]) -> list[tuple[str, Any]]:
    """(member, value) of every text or integer the answer shows that the write did not send: from
    its JSON (members one or two levels down too), else from `name: value` lines. Members named like
    a server-made id come first (an order, never a verdict)."""
    sent_values = {json.dumps(v) for v in sent.values()}
    found: list[tuple[str, Any]] = []

    def walk(value: Any, depth: int) -> None:
        if isinstance(value, dict) and depth < 3:
            for name, item in value.items():
                if isinstance(item, str | int) and not isinstance(item, bool):
                    found.append((name, item))
                else:
                    walk(item, depth + 1)
        elif isinstance(value, list) and len(value) == 1:
            walk(value[0], depth + 1)

    value = outcome.value()
    if isinstance(value, dict | list):
        walk(value, 0)
    else:
        for line in text_lines(outcome.text):
            if (match := LINE.match(line)) is not None:
                found.append((match.group(1), plain(match.group(2))))
    kept = [(n, v) for n, v in dict.fromkeys(found) if json.dumps(v) not in sent_values and v not in ("", None)
            and not (isinstance(v, str) and MARKER.match(v))]
    return sorted(kept, key=lambda nv: not server_made_id(nv[0]))


class Watcher:
    """The experiments on one fresh server, in one Hypothesis example (the values are drawn first,
    so a draw that fails retries before any call)."""

    def __init__(self, conn: Connection, tools: list[Tool], base: Callable[[Tool], dict[str, Any]],
                 deletes: bool, draws: dict[str, list[dict[str, Any]]]) -> None:
        self.conn, self.tools, self.base, self.deletes, self.draws = conn, tools, base, deletes, draws
        self.seen: dict[str, Seen] = {t.name: Seen() for t in tools}
        self.calls: list[Call] = []
        self.count = 0
        self.salt = zlib.crc32(b"watch") & 0xFFFF
        self.lookers = [t for t in tools if not t.required and self.callable(t)]
        self.records: list[Record] = []
        self.shown_alive: dict[str, Call] = {}
        self.shown_removed: dict[str, Call] = {}
        self.moves: dict[str, list[Move]] = {t.name: [] for t in self.lookers}
        self.moved_to: dict[str, Outcome] = {}
        """What the lookers answered after the latest move."""
        self.changed: set[str] = set()
        self.snap = Snapshot()
        self.look_calls: list[Call] = []
        """The calls of the latest snapshot."""
        self.unlooked: int | None = None
        """Where the refused calls no snapshot followed begin (on_store), if any: the current snapshot
        is older than them."""
        self.page_tries: dict[str, set[tuple[str, str]]] = {t.name: set() for t in self.lookers}
        self.shape: dict[str, int] = {}
        """Per tool, the variant of its draws its last accepted write took (see try_create)."""
        self.refused: dict[str, dict[str, Any]] = {}
        """Per tool, the arguments of its last refused call."""
        self.unmarked: dict[str, Plan | None] = {}
        """Per tool whose write was refused once, the fields a retry left unmarked to be accepted."""
        self.keys: dict[str, list[Key]] = {}
        """Per creator shown only through keyed reads, its keyed readers: its records' reads join
        every snapshot."""
        self.keyed_tried: set[str] = set()
        self.beside: dict[str, tuple[str, bool]] = {}
        """Per tool already tried on the records of the store listed nearest it (see reads_beside),
        that store and whether the tool answered its values."""
        self.accepted: set[str] = set()
        """The tools that answered a call of this run as a success."""
        self.unsettled: dict[str, str] = {}
        """Per tool no experiment placed that answered a call as a success, and that showed nothing on
        a record of a store while no keyed reader of that store was known to ask for the record: that
        store (see unsettle)."""

    def callable(self, tool: Tool) -> bool:
        return self.deletes or not may_delete(tool)

    # --- calls and snapshots ------------------------------------------------------------------

    def call(self, tool: Tool, args: dict[str, Any]) -> Outcome:
        self.calls.append(Call(tool.name, json.loads(json.dumps(args))))
        answer = self.conn.call(tool.name, args)
        if answer.ok:
            self.accepted.add(tool.name)
        return answer

    def look(self) -> Snapshot:
        """A new snapshot, kept as the current one: each looker asked for its largest page, and walked
        to its last page where it pages; then the keyed reads of every live record the run holds."""
        start = len(self.calls)
        self.unlooked = None
        self.snap = Snapshot({t.name: self.whole(t) for t in self.lookers})
        for record in self.records:
            if record.alive:
                self.hold(record)
        self.look_calls = self.calls[start:]
        return self.snap

    def hold(self, record: Record) -> list[str]:
        """The record's keyed reads, added to the current snapshot: those that show it."""
        found = []
        for key in self.keys.get(record.tool, []):
            if (asked := self.key_args(key, record)) is not None:
                name = f"{key.reader.name}({key.arg}={json.dumps(asked[key.arg])})"
                self.snap[name] = self.call(key.reader, asked)
                self.snap.keyed.add(name)
                if self.showing({name: self.snap[name]}, record.tokens):
                    found.append(name)
        return found

    def key_args(self, key: Key, record: Record) -> dict[str, Any] | None:
        """The arguments that ask `key.reader` for `record`: its value at the key's source, as the
        reader's schema takes it; None where the record has none."""
        base = self.base(key.reader)
        if not key.source.startswith("id:"):
            value = record.args.get(key.source)
            return {**base, key.arg: value} if value is not None else None
        for member, value in record.ids:
            if member == key.source[3:]:
                for option in typed(value):
                    if self.valid(key.reader, {**base, key.arg: option}):
                        return {**base, key.arg: option}
        return None

    def after_write(self, tool: Tool, args: dict[str, Any], marker: str, answer: Outcome) -> Snapshot:
        """A new snapshot after a write; for a creator shown through keyed reads, with the new
        record's keyed reads in it (held or not: what it shows decides)."""
        after = self.look()
        if answer.ok and tool.name in self.keys:
            self.hold(Record(tool.name, args, marker, tokens_of(args, marker), answer, self.calls[-1],
                             answer_values(answer, args)))
        return after

    def whole(self, tool: Tool) -> Outcome:
        """Everything a looker shows: its pages joined, once a page showed how it continues."""
        args = self.widest(tool)
        first = self.call(tool, args)
        seen = self.seen[tool.name]
        if not first.ok:
            return first
        if (known := seen.paging or seen.numbered) is not None:
            return walk(lambda a: self.call(tool, a), args, first, known)[0]
        start = len(self.calls)
        tries = self.page_tries[tool.name]
        pager = find_pager(lambda a: self.call(tool, a), tool, args, first, tries) or \
            find_numbered(lambda a: self.call(tool, a), tool, args, first, tries)
        if pager is None:
            return first
        joined, pages, ended = walk(lambda a: self.call(tool, a), args, first, pager)
        if not ended:
            return first
        if isinstance(pager, Pager):
            seen.paging, how = pager, f"its answer's {pager.member}, given back as {pager.param}, answered records " \
                f"the first page did not, and {pages} pages led to one that named no next"
        else:
            seen.numbered, how = pager, f"{pager.param} {pager.first} answered its first page, {pager.param} " \
                f"{pager.first + 1} records that page does not show, and after {pages} pages the next showed none new"
        seen.paging_fact = fact_shown(f"{tool.name} pages: {how}", calls=[self.calls[start - 1], *self.calls[start:]],
                                      source="experiment")
        return joined

    def widest(self, tool: Tool) -> dict[str, Any]:
        return {**self.base(tool), **{b.param: b.maximum or 100 for b in profile(tool).bounds if b.kind == "limit"}}

    def valid(self, tool: Tool, args: dict[str, Any]) -> bool:
        """Whether the schema the server declared admits the arguments (the project's one oracle); a
        schema that cannot be read or resolved admits everything, and the server decides."""
        return admits(tool.input_schema or {"type": "object"}, args)

    def next_draw(self, tool: Tool, variant: int | None = None) -> tuple[str, dict[str, Any]]:
        """Fresh values, shaped like the tool's last accepted write (see try_create)."""
        pool = self.draws[tool.name]
        # A value a record of the run holds would name that record by chance: a draw without one first.
        held = {json.dumps(v) for r in self.records for v in r.args.values()}
        pick = next((i for i, d in enumerate(pool) if not any(
            json.dumps(d[c]) in held for c in candidates(tool) if c in d and not str(d[c]).startswith(PLACEHOLDER))), 0)
        drawn = pool.pop(pick) if len(pool) > 1 else pool[0]
        marker = salted_marker(self.salt, self.count)
        self.count += 1
        args = with_marker(drawn, marker)
        if (plan := self.unmarked.get(tool.name)) is not None:
            args = unmarked(tool, plan, args, marker) or args
        variant = self.shape.get(tool.name, 0) if variant is None else variant
        # Turned against the last refused call's booleans: a rule that refused it (one boolean's value
        # forbids another field) is then not met again.
        refused = self.refused.get(tool.name, {})
        if variant >= 2:
            args = {k: not refused.get(k, v) if isinstance(v, bool) else v for k, v in args.items()
                    if variant == 2 or k in tool.required}
        return marker, args

    def marks(self, tool: Tool, args: dict[str, Any], marker: str, ids: list[tuple[str, Any]],
              before: dict[str, Outcome], after: dict[str, Outcome]) -> set[str]:
        """What to look for of a write: its marked texts; where none is in a field the tool requires
        (a store may drop an optional field, and the record would go unseen), also the values it sent
        or answered that a looker that grew by one shows and did not before."""
        marks = tokens_of(args, marker)
        if marks and (not tool.required or any(tokens_of({n: args[n]}, marker) for n in tool.required if n in args)):
            return marks
        grew = [n for n in after if sized(after, n) - sized(before, n) == 1]
        values = [args[c] for c in candidates(tool) if c in args] + [v for _, v in ids[:1]]
        texts = [str(v) if len(str(v)) >= 3 else json.dumps(v) for v in values]
        return marks | {v for v in texts if len(v) >= 3 and grew and all(v in shown(after[n]) for n in grew)
                        and not any(v in shown(out) for out in before.values())}

    def showing(self, snap: dict[str, Outcome], marks: set[str]) -> list[str]:
        return [name for name, out in snap.items() if out.ok and any(t in shown(out) for t in marks)]

    # --- the experiments ----------------------------------------------------------------------

    def run(self) -> None:
        before = {n: shown(o) for n, o in self.look().items()}
        if any(shown(o) != before[n] for n, o in self.look().items()):
            self.settle()
            self.look()
        for tool in self.tools:
            # A creator's identity is learned at once, before other tools' fresh values can name its
            # records by chance.
            if (self.callable(tool) and (tool.required or (tool.properties and tool not in self.lookers))
                    and self.seen[tool.name].role is None and self.try_create(tool) is not None):
                self.identity(tool)
        for tool in self.tools:
            if tool.required and self.seen[tool.name].role is None and self.callable(tool):
                self.on_records(tool)
        self.try_again()
        self.lookers_roles()

    def settle(self) -> None:
        """Lookers that are no pure readers leave the snapshot: one whose own answer changes from one
        call to the next, then one whose call alone changes what the others answer (a writer)."""
        for tool in list(self.lookers):
            if shown(self.call(tool, self.base(tool))) != shown(self.call(tool, self.base(tool))):
                self.lookers.remove(tool)
        for tool in list(self.lookers):
            others = [t for t in self.lookers if t is not tool]
            start = len(self.calls)
            before = {t.name: shown(self.call(t, self.base(t))) for t in others}
            self.call(tool, self.base(tool))
            after = {t.name: shown(self.call(t, self.base(t))) for t in others}
            if before != after:
                self.lookers.remove(tool)
                self.seen[tool.name].role = "write"
                self.seen[tool.name].fact = fact_shown(
                    f"{tool.name} writes: called alone with no arguments, it changed what the other tools "
                    "answer, which two calls of them in a row did not", calls=self.calls[start:], source="experiment")
        for tool in self.tools:
            if tool not in self.lookers:
                self.moves.pop(tool.name, None)

    def try_create(self, tool: Tool) -> Record | None:
        """A call with fresh values; a success after which a looker shows them makes a creator.
        Refused, it is tried with other values, then with its booleans turned, then with its
        required arguments alone (a rule between fields refuses some combinations)."""
        first = self.shape.get(tool.name, 0)
        for attempt in range(first, max(ATTEMPTS, first + 1)):
            marker, args = self.next_draw(tool, attempt)
            sent = len(self.calls)
            args, answer = self.send(tool, args, marker, watched=True)
            before = self.snap
            call = self.calls[-1]
            after = self.look()
            if not answer.ok:
                self.refused[tool.name] = args
                continue
            self.shape[tool.name] = attempt
            ids = answer_values(answer, args)
            self.seen[tool.name].answered = self.seen[tool.name].answered or tuple(name for name, _ in ids)
            marks = self.marks(tool, args, marker, ids, before, after)
            if call is not self.calls[sent] and self.showing(before, marks):
                # Its refused tries stored what they sent, under the same marker: no snapshot tells the
                # accepted call's record from theirs, so the next attempt writes anew.
                self.refused[tool.name] = self.calls[sent].arguments
                continue
            showing = self.showing(after, marks) if marks else []
            if not showing and not self.showing(before, marks):
                made = Record(tool.name, args, marker, tokens_of(args, marker), answer, call, ids)
                found = self.keyed(tool, made)
                if any(r is made for r in self.records):
                    # A record no looker shows: how the lookers' numbers stood with it is what tells a
                    # count of another store's records from a count of these.
                    self.moved(before, after, +1, tool.name)
                return found
            # A new record: a looker that shows it grew by one, and none shrank (a write that named an
            # existing record by chance changed or moved it instead).
            if not showing or not any(sized(after, n) - sized(before, n) == 1 for n in showing) or any(
                    sized(after, n) < sized(before, n) for n in after) or self.showing(before, marks):
                return None
            record = Record(tool.name, args, marker, marks, answer, call, ids, showing)
            self.records.append(record)
            self.moved(before, after, +1, tool.name)
            seen = self.seen[tool.name]
            if seen.role not in CREATORS:
                seen.role = "create"
                seen.fact = fact_shown(
                    f"{tool.name} creates records: after its successful call {showing[0]} showed the values it "
                    "sent, which no tool showed before (not a reader: it changed a snapshot)",
                    marker=marker, tools=[tool.name, showing[0]], calls=[call, *self.look_calls],
                    source="experiment")
            for name in showing:
                seen.readers.setdefault(name, fact_shown(
                    f"{name} shows the records {tool.name} writes", marker=marker, tools=[tool.name, name],
                    calls=[call], source="experiment"))
                self.shown_alive.setdefault(name, call)
            return record
        return None

    def keyed(self, tool: Tool, made: Record) -> Record | None:
        """A write no looker showed: a record where a keyed reader of its creator shows it; with none
        known yet, the keyed experiments decide whether there is one (once per creator)."""
        if not made.tokens:
            return None
        if tool.name in self.keys:
            made.where = self.hold(made)
            if not made.where:
                return None
            self.records.append(made)
            return made
        if tool.name in self.keyed_tried:
            return None
        self.keyed_tried.add(tool.name)
        if self.reads_beside(tool):
            return None
        return self.discover(tool, made)

    def reads_beside(self, tool: Tool) -> bool:
        """A call with fresh values that no looker showed may be a read of a record nobody wrote, not a
        write: the tool is first tried on a record of the store listed nearest it (on_store, as every
        tool is). One that answered that store's values given its record, or that the try placed, is
        that store's tool, and no keyed reader is looked for among every other tool (a read of each
        store's records would otherwise be asked of every store's tools)."""
        stores = self.stores(tool)
        if not stores:
            return False
        answered = self.on_store(tool, stores[0])
        self.beside[tool.name] = stores[0], answered
        self.catch_up()
        return answered or self.seen[tool.name].role is not None

    def discover(self, tool: Tool, first: Record) -> Record | None:
        """Each tool that needs exactly one argument, which a value of the record fills (a member of
        the write's answer it was not sent, or a value it sent under the same name), is asked for the
        record; one that answers the record's marked values is asked for a second record of the same
        write, then for the first again. Answering each record and not the other, it is a keyed
        reader and the write a creator shown through it: both are shown by the same calls or not at
        all. A tool that may delete is not asked (it is called only on records a reader showed). A
        tool that answered otherwise may have changed the records: the next is tried on a fresh
        pair."""
        pair: list[Record] = [first]
        for reader in sorted((t for t in self.tools if t is not tool and len(t.required) == 1 and not may_delete(t)
                              and t not in self.lookers and self.seen[t.name].role in (None, "read")), key=ask_order):
            for key in self.fits(reader, first):
                if not pair and (made := self.write_again(tool)) is not None:
                    pair = [made]
                if not pair:
                    return self.held(tool, pair)
                start = len(self.calls)
                asked = self.ask(key, pair[0])
                if asked is None or not asked[1]:
                    if asked is not None and asked[0].ok:
                        pair = []
                    continue
                if len(pair) < 2 and (made := self.write_again(tool)) is not None:
                    pair.append(made)
                if len(pair) < 2:
                    return self.held(tool, pair)
                second = self.ask(key, pair[1])
                again = self.ask(key, pair[0])
                if (second is None or again is None or not second[1] or not again[1]
                        or any(t in shown(second[0]) for t in pair[0].tokens)
                        or any(t in shown(again[0]) for t in pair[1].tokens)):
                    pair = []
                    continue
                self.keyed_reader(tool, key, pair, self.calls[start:])
                break
        return self.held(tool, pair)

    def fits(self, reader: Tool, record: Record) -> list[Key]:
        """The ways the reader's one required argument takes a value of the record: a value the write
        sent under that name, then each member of its answer the schema lets it take."""
        arg = reader.required[0]
        found = [Key(reader, arg, arg)] if arg in record.args else []
        for member, _ in sorted(record.ids, key=lambda mv: mv[0] != arg)[:MAX_CANDIDATES]:
            key = Key(reader, arg, f"id:{member}")
            if self.key_args(key, record) is not None:
                found.append(key)
        return found

    def ask(self, key: Key, record: Record) -> tuple[Outcome, bool] | None:
        """The reader asked for the record, and whether it answered the record's marked values beyond
        those it was sent."""
        asked = self.key_args(key, record)
        if asked is None:
            return None
        answer = self.call(key.reader, asked)
        carried = {t for t in record.tokens if t in json.dumps(asked[key.arg])}
        return answer, answer.ok and any(t in shown(answer) for t in record.tokens - carried)

    def write_again(self, tool: Tool) -> Record | None:
        """One more accepted write of fresh values, not yet held (its reader is not known yet)."""
        marker, args = self.next_draw(tool)
        args, answer = self.send(tool, args, marker)
        if not answer.ok or not tokens_of(args, marker):
            return None
        return Record(tool.name, args, marker, tokens_of(args, marker), answer, self.calls[-1],
                      answer_values(answer, args))

    def keyed_reader(self, tool: Tool, key: Key, pair: list[Record], calls: list[Call]) -> None:
        """The facts of one keyed reader shown, and of its creator with the first."""
        self.keys.setdefault(tool.name, []).append(key)
        reader, seen = self.seen[key.reader.name], self.seen[tool.name]
        what = (f"the {key.source[3:]} {tool.name} answered" if key.source.startswith("id:")
                else f"the {key.source} {tool.name} was sent")
        calls = [pair[0].call, pair[1].call, *calls]
        field_ = key.source.removeprefix("id:")
        reader.role = "read"
        reader.fact = fact_shown(
            f"{key.reader.name} reads one record: given {what} it answered that record's values, asked for a "
            "second record it answered that one and not the first, and asked for the first again, the first",
            calls=calls, source="experiment")
        reader.bindings.append(Binding(key.arg, field_, fact_shown(
            f"{key.reader.name}'s {key.arg} selects records by their {field_}: asked with two records' values, "
            "it answered each record alone", calls=calls, source="experiment")))
        reader.acts_on = tool.name
        if seen.role not in CREATORS:
            seen.role = "create"
            seen.fact = fact_shown(
                f"{tool.name} creates records: given {what} after each of two successful calls, {key.reader.name} "
                "answered the values that call sent, and not the other's", marker=pair[0].marker,
                tools=[tool.name, key.reader.name], calls=calls, source="experiment")
        seen.readers.setdefault(key.reader.name, fact_shown(
            f"{key.reader.name} shows the records {tool.name} writes", marker=pair[0].marker,
            tools=[tool.name, key.reader.name], calls=calls, source="experiment"))
        if key.source.startswith("id:") and seen.answer_id is None:
            seen.answer_id = field_
            seen.answer_fact = fact_shown(
                f"{tool.name}'s answer carries the new record's {field_}: {key.reader.name} given that value "
                "answered that record", calls=calls, source="experiment")

    def held(self, tool: Tool, pair: list[Record]) -> Record | None:
        """Where keyed readers were shown, the records the last experiment left as written join the
        run's records (and the snapshot), the newest returned; with none left, a fresh one."""
        if tool.name not in self.keys:
            return None
        if not pair:
            return self.try_create(tool)
        for record in pair:
            record.where = self.hold(record)
            if record.where:
                self.records.append(record)
        return next((r for r in reversed(pair) if r.where), None)

    def send(self, tool: Tool, args: dict[str, Any], marker: str,
             watched: bool = False) -> tuple[dict[str, Any], Outcome]:
        """A write; refused the first time, tried again with fewer marked fields (stateful.unmarked: a
        server may refuse a marker where its schema says nothing against one), and the fields whose
        marker it refused are left unmarked in the tool's later draws. `watched`: a snapshot follows
        each refusal tried again, so the current one is from just before the call answered (a refused
        write may still have stored something)."""
        answer = self.call(tool, args)
        if answer.ok or tool.name in self.unmarked:
            return args, answer
        self.unmarked[tool.name] = None
        for plan, fewer in retried(tool, args, marker, None)[:RETRIES]:
            if watched:
                self.look()
            again = self.call(tool, fewer)
            if again.ok:
                self.unmarked[tool.name] = plan
                return fewer, again
        return args, answer

    def moved(self, before: dict[str, Outcome], after: dict[str, Outcome], step: int, creator: str) -> None:
        """How each looker's numbers moved with one record of `creator` made (+1) or removed (-1)."""
        unseen = any(name in before and before[name].ok and prior.ok and shown(before[name]) != shown(prior)
                     for name, prior in self.moved_to.items())
        for name in self.moves:
            if name in before and name in after and before[name].ok and after[name].ok:
                old, new = numbers_in(before[name]), numbers_in(after[name])
                self.moves[name].append(Move(step, {p: new[p] - old[p] for p in new if p in old}, creator, unseen))
        self.moved_to = {name: after[name] for name in self.moves if name in after}

    def identity(self, tool: Tool) -> None:
        """Vary each candidate alone: a second write that shares only it with a live record."""
        seen = self.seen[tool.name]
        appended: list[str] = []
        tried: list[str] = []
        for name in candidates(tool)[:MAX_CANDIDATES]:
            first = next((r for r in reversed(self.live()) if r.tool == tool.name), None)
            if first is None or name not in first.args:
                continue
            tried.append(name)
            # Fresh values, with the first record's booleans and choices (a rule between fields keys on
            # them, and the server accepted those): only sharing `name` should make it fail.
            marker, args = self.next_draw(tool)
            args.update({k: v for k, v in first.args.items() if k in args and switch(tool, k, v)})
            args[name] = first.args[name]
            if not first.tokens - {f"{first.marker}-{name}", str(first.args[name])}:
                # Nothing of the first record's own but `name`: the second write holds a number of its
                # own where one fits, which tells whether it replaced the first record (see `not old`).
                trials = number_trials(tool, args, name, number_of(marker))
                args = next((t for t in trials if self.valid(tool, t)), args)
            before = self.snap
            start = len(self.calls)
            answer = self.call(tool, args)
            what = f"a second write to {tool.name} sharing only {name} with a record"
            after = self.after_write(tool, args, marker, answer) if answer.ok else before
            # Answered as a success, a write with values of its own that changed no snapshot kept the
            # first record as a refusal does.
            kept = (answer.ok and bool(tokens_of(args, marker) - {f"{marker}-{name}"})
                    and all(shown(after[n]) == shown(before[n]) for n in after))
            # Ignored, not refused, only where a snapshot still shows the first record's own values of
            # the fields the write set: a replace that no reader shows is not ruled out otherwise.
            ignored = kept and bool(self.showing(after, {f"{first.marker}-{k}" for k in args if k != name}
                                                 & first.tokens))
            if not answer.ok or kept:
                how = "is refused" if not answer.ok else "changed nothing, though answered as a success"
                again = {**args, name: self.next_draw(tool)[1].get(name)}
                second = len(self.calls)
                accepted = self.call(tool, again)
                after = self.after_write(tool, again, marker, accepted)
                ids = answer_values(accepted, again)
                marks = self.marks(tool, again, marker, ids, before, after)
                if not accepted.ok or not marks or not self.showing(after, marks):
                    continue
                self.records.append(Record(tool.name, again, marker, marks, accepted, self.calls[second],
                                           ids, self.showing(after, marks)))
                self.moved(before, after, +1, tool.name)
                calls = [first.call, *self.calls[start:]]
                # A success that kept the first record is no refusal: law 10 judges it (laws/overwrites.py).
                seen.identity, seen.overwrite = name, "ignored" if ignored else "refused"
                seen.overwrite_fact = fact_shown(
                    f"{what} {how}, not replacing or adding: the same write with another {name} was "
                    "accepted and shown", calls=calls, source="experiment")
                seen.identity_fact = fact_shown(
                    f"{name} tells {tool.name}'s records apart: sharing it alone {how}, and with another "
                    f"{name} the same write was accepted and shown", calls=calls, source="experiment")
                return
            ids = answer_values(answer, args)
            shared = {f"{first.marker}-{name}", str(first.args[name]), json.dumps(first.args[name])}
            new = self.marks(tool, args, marker, ids, before, after) - shared
            old = first.tokens - shared
            new_shown = self.showing(after, new)
            old_shown = self.showing(after, old) if old else ["(no value of its own to look for)"]
            if not old:
                # Nothing of the first record's own to look for: its looker's size tells, with the
                # second write's other values shown.
                where = [n for n in after if first.tokens and self.showing({n: before[n]}, first.tokens)]
                # An object's members count: a record whose only other values sit in one (`origin.rank`).
                sent = {json.dumps(v) for k, v in flat(args).items() if k != name and isinstance(v, int | float | str)
                        and not isinstance(v, bool)} - {json.dumps(v) for v in flat(first.args).values()}
                seen_new = [n for n in where if any(v in shown(after[n]) and v not in shown(before[n]) for v in sent)]
                if where and seen_new and all(sized(after, n) == sized(before, n) for n in where):
                    new_shown, old_shown = seen_new, []
                elif where and seen_new and all(sized(after, n) - sized(before, n) == 1 for n in where):
                    new_shown, old, old_shown = seen_new, first.tokens, where
            record = Record(tool.name, args, marker, new, answer, self.calls[start], ids, new_shown)
            calls = [first.call, *self.calls[start:]]
            # A looker that grew may be a window of the newest records: an append, not a replace.
            if new_shown and not old_shown and all(sized(after, n) == sized(before, n) for n in new_shown):
                self.records.append(record)
                if self.kept_by(tool, name, first.args[name], old, new):
                    # A read by the shared value still shows the first values (a log that shows its
                    # latest line, whose lines are all kept): an append is not ruled out.
                    first.alive = False
                    continue
                first.alive = False
                seen.identity, seen.overwrite, seen.role = name, "replaces", "write"
                seen.overwrite_fact = fact_shown(
                    f"{what} replaces it, not appends: afterwards {new_shown[0]} showed the second write's "
                    "values and none of the first's", calls=calls, source="experiment")
                seen.identity_fact = fact_shown(
                    f"{name} tells {tool.name}'s records apart: a write that shares only {name} with another "
                    "replaces it" + (f", while sharing {', '.join(appended)} added a record" if appended else ""),
                    calls=calls, source="experiment")
                return
            # The value both writes sent tells the first record apart no longer.
            first.tokens = first.tokens - shared
            first.alive = bool(first.tokens)
            if new_shown and old and old_shown:
                self.records.append(record)
                self.moved(before, after, +1, tool.name)
                appended.append(name)
        if appended and appended == tried:
            seen.overwrite = "appends"
            seen.overwrite_fact = fact_shown(
                f"a second write to {tool.name} sharing any one of {', '.join(appended)} with a record adds a "
                "second record, not replacing it: both are shown", tools=[tool.name],
                calls=[r.call for r in self.records if r.tool == tool.name][-2:], source="experiment")

    def kept_by(self, writer: Tool, name: str, value: Any, old: set[str], new: set[str]) -> bool:
        """Whether a tool annotated read-only (an unnamed remover would take the record) that takes
        nothing but `name`, asked with the value two writes shared, shows the values of both (a stale
        read shows the first alone). What it answers decides, even where the call changed a snapshot
        (a read that takes its record away still shows what the record held)."""
        for tool in self.tools:
            if (tool is writer or tool in self.lookers or tool.read_only_hint is not True
                    or set(tool.properties) != {name}):
                continue
            answer = self.call(tool, {**self.base(tool), name: value})
            self.look()
            if answer.ok and any(t in shown(answer) for t in old) and any(t in shown(answer) for t in new):
                return True
        return False

    def live(self) -> list[Record]:
        """The records still shown where they were when made (a call with drawn values may have
        named one by chance)."""
        for record in self.records:
            if record.alive and record.where and not self.showing(
                    {n: self.snap[n] for n in record.where if n in self.snap}, record.tokens):
                record.alive = False
        return [r for r in self.records if r.alive]

    def fill(self, tool: Tool, record: Record, variant: int | None = None
             ) -> tuple[dict[str, Any], dict[str, str], str] | None:
        """Arguments that name `record`: its identity by the same name; unknown, an id from its answer
        for a required argument it did not send, else the values of its identity candidates (none
        where its writes were shown to append); the rest drawn fresh. With which argument took which
        field."""
        marker, args = self.next_draw(tool, 0 if variant == LIKE_RECORD else variant)
        if variant == LIKE_RECORD:
            args = {k: v for k, v in args.items() if k in record.args or k in tool.required}
        creator = next(t for t in self.tools if t.name == record.tool)
        known = self.seen[record.tool].identity
        taken: dict[str, str] = {}
        if known is not None and known in tool.properties and known in record.args:
            args[known], taken[known] = record.args[known], known
            return args, taken, marker
        for name in [n for n in tool.required if n not in record.args]:
            for member, value in sorted(record.ids, key=lambda mv: mv[0] != name):
                for option in typed(value):
                    if self.valid(tool, {**args, name: option}):
                        args[name], taken[name] = option, f"id:{member}"
                        break
                if name in taken:
                    break
            if name in taken:
                return args, taken, marker
        for name in [] if known is not None or self.seen[record.tool].overwrite == "appends" else candidates(creator):
            if name in tool.properties and name in record.args:
                args[name], taken[name] = record.args[name], name
        return (args, taken, marker) if taken else None

    def on_records(self, tool: Tool) -> None:
        """The tool tried on a record of each store in turn (a store: one creator's records) until
        one shows what it does, or until it answered values of a store's records it was not sent: a
        tool of one store says nothing when given another's record, and one that answered a store's
        own values given its record is that store's, whatever it did not show of itself."""
        tried, answered = self.beside.get(tool.name, (None, False))
        for creator in [] if answered else self.stores(tool):
            if creator != tried and (self.on_store(tool, creator) or self.seen[tool.name].role is not None):
                break
        self.catch_up()

    def unsettle(self, tool: Tool, record: Record, readable: list[tuple[Key, str]]) -> None:
        """A tool that answered some call as a success and showed nothing on the record, while no keyed
        reader of its store showed the record before: a removal every looker lags behind looks like
        this (the accepted call, or an earlier one that named the record by chance, took it, and the
        tool then refused it), and nothing could tell. The record may be gone, so no later experiment
        takes it for a live one, and the tool is tried again once a reader is placed (try_again)."""
        if self.seen[tool.name].role is None and tool.name in self.accepted and not readable:
            record.alive = False
            self.unsettled[tool.name] = record.tool

    def try_again(self) -> None:
        """Each unsettled tool tried once more on its store, once a later experiment showed a keyed
        reader of that store: a removal that every looker lags behind shows only as that reader
        refusing the record (see on_store), and the tool was tried before any reader was placed."""
        for name, creator in self.unsettled.items():
            if self.seen[name].role is None and any(
                    other != name and seen.role == "read" and seen.acts_on == creator and seen.bindings
                    for other, seen in self.seen.items()):
                self.on_store(next(t for t in self.tools if t.name == name), creator)
        self.catch_up()

    def catch_up(self) -> None:
        """A snapshot after refused calls that none followed yet, before another tool is judged."""
        if self.unlooked is not None:
            self.look()

    def stores(self, tool: Tool) -> list[str]:
        """The creators, those whose records a looker shows first (every look shows what a call did to
        them, and they were the only stores before keyed reads), then those shown through keyed reads;
        among each, the one listed nearest the tool first (a server lists a store's tools together
        more often than not; an order, never a verdict: what the calls show decides), the one listed
        before it on a tie."""
        lookers = {t.name for t in self.lookers}
        place = {t.name: index for index, t in enumerate(self.tools)}
        at = place[tool.name]
        creators = dict.fromkeys(t.name for t in self.tools if self.seen[t.name].role in CREATORS)
        return sorted(creators, key=lambda name: (not lookers & set(self.seen[name].readers), abs(place[name] - at),
                                                  place[name] > at))

    def on_store(self, tool: Tool, creator: str) -> bool:
        """The tool called with the identity of one of `creator`'s records; refused, in the shapes of
        ON_RECORDS, then in them again with the next id from the answer. No snapshot follows a refusal:
        most tries of a tool on another store's records are refused, and a snapshot calls every looker.
        The next accepted call of the tool is judged against the snapshot before its refusals, with
        them in its calls (a refusal that changed something is this tool's doing all the same).
        Whether an accepted call answered values of the store's records that it was not sent."""
        variants = list(ON_RECORDS)
        attempt = 0
        readable: dict[int, list[tuple[Key, str]]] = {}
        """Per record tried, the keyed readers of its store that showed it before the tool's first try,
        each with what it answered."""
        while attempt < len(variants):
            variant = variants[attempt]
            attempt += 1
            record = self.fresh_record(creator)
            if record is None:
                return False
            filled = self.fill(tool, record, variant)
            if filled is None:
                self.catch_up()
                self.search(tool, record)
                return False
            args, taken, marker = filled
            if id(record) not in readable:
                readable[id(record)] = [(k, shown(read[0])) for k in self.readers_of(record, tool)
                                        if (read := self.read_back(k, record)) is not None and not read[1]]
            before = self.snap
            start = len(self.calls) if self.unlooked is None else self.unlooked
            answer = self.call(tool, args)
            if not answer.ok:
                self.refused[tool.name] = args
                self.unlooked = start
                if (any(v.startswith("id:") for v in taken.values()) and attempt == len(variants)
                        and len(record.ids) > 1 and len(variants) < 3 * len(ON_RECORDS)):
                    record.ids = record.ids[1:]
                    variants += ON_RECORDS
                if attempt < len(variants):
                    continue
                self.catch_up()
                self.search(tool, record)
                self.unsettle(tool, record, readable[id(record)])
                return False
            answered = self.answers_store(answer, args, creator)
            if answered:
                self.seen[tool.name].answers = creator
            after = self.look()
            where = [n for n in after if any(t in shown(before[n]) for t in record.tokens)]
            # Gone, not rewritten: none of its values left, none of this call's values shown, and one
            # item fewer where it was listed.
            gone = (bool(where) and not self.showing({n: after[n] for n in where}, record.tokens)
                    and not self.showing(after, tokens_of(args, marker))
                    and all(sized(before, n) - sized(after, n) == 1 for n in where))
            # A looker may lag behind a removal (a listing or count kept from before it): a keyed reader
            # of the store no snapshot holds, that showed the record before the call, then tells by
            # refusing it.
            keys = [] if gone or self.showing(after, tokens_of(args, marker)) else [k for k, _ in readable[id(record)]]
            lost, rewritten = self.unread_by(keys, record, tokens_of(args, marker))
            gone = gone or lost is not None
            changed = [n for n in after if shown(after[n]) != shown(before[n])]
            ident = self.named_by(record, taken)
            seen = self.seen[tool.name]
            carried = self.carried(record, args, taken, keys if lost is not None else None) if gone else None
            calls = [record.call, *self.calls[start:]]
            gone_from = lost or where[0] if gone else ""
            if carried is not None:
                record.alive = False
                seen.role = "update"
                seen.fact = fact_shown(f"{tool.name} changes records: after its successful call with the {ident[1]} of "
                                       f"a record, {gone_from} no longer showed it, and {carried[0]} given the "
                                       f"{carried[1]} the call sent answered its values (moved, not removed)",
                                       calls=calls, source="experiment")
            elif gone:
                record.alive = False
                self.moved(before, after, -1, record.tool)
                for name in self.showing(after, record.tokens):
                    if name not in where:  # one that showed it before and still does lags; it lists no removed
                        self.shown_removed.setdefault(name, self.calls[start])
                seen.role = "delete"
                seen.fact = fact_shown(f"{tool.name} removes records: after its successful call with the "
                                       f"{ident[1]} of a record, {gone_from} no longer showed it" + (
                                           f" (it refused the record, which {', '.join(where)} still showed)"
                                           if lost is not None and where else ""), calls=calls, source="experiment")
            elif (counted := self.counted_out(before, after, changed, record)) is not None and all(
                    (read := self.read_back(k, record)) is not None and shown(read[0]) == text
                    for k, text in readable[id(record)]):
                # Only a count (and maybe a listing of removed records) shows the removal: readers that
                # still show the record lag behind it, or a broken removal left it there.
                record.alive = False
                self.moved(before, after, -1, record.tool)
                seen.role = "delete"
                seen.fact = fact_shown(f"{tool.name} removes records: after its successful call with the {ident[1]} "
                                       f"of a record, {counted} counted one record fewer, as it counted one more "
                                       "with each record made, and no reader showed the record changed",
                                       calls=calls, source="experiment")
            elif changed or rewritten:
                record.alive = False
                seen.role = "update"
                showing = changed[0] if changed else rewritten
                seen.fact = fact_shown(f"{tool.name} changes records: its successful call with the {ident[1]} of "
                                       f"a record changed what {showing} shows, and made no record appear or "
                                       "vanish", calls=calls, source="experiment")
            elif not [k for k, v in args.items() if k not in taken and record.args.get(k) != v] and (
                    set(tool.properties) - set(taken)):
                # Given nothing but what the record holds, a writer has nothing to write: a call that
                # changed nothing tells a reader from it only with values it could have written.
                return answered
            else:
                self.read(tool, record, taken, answer, self.calls[start:])
                self.unsettle(tool, record, readable[id(record)])
                return answered
            self.answer_id(record, taken, tool, calls)
            seen.acts_on = record.tool
            if ident[0] is not None:
                seen.identity = ident[0]
                seen.identity_fact = fact_shown(f"{ident[0]} names the record {tool.name} acts on: given the "
                                                f"{ident[1]} of a record, it acted on that record", calls=calls,
                                                source="experiment")
            return True
        return False

    def answers_store(self, answer: Outcome, args: dict[str, Any], creator: str) -> bool:
        """Whether an accepted answer shows the marker of a record the creator made that the call
        did not carry: the tool found that store's record by what it was given."""
        sent = json.dumps(args)
        markers = {r.marker for r in self.records if r.tool == creator and r.marker not in sent}
        return answer.ok and any(m in markers for m in MARKER.findall(shown(answer)))

    def carried(self, record: Record, args: dict[str, Any], taken: dict[str, str],
                keys: list[Key] | None = None) -> tuple[str, str] | None:
        """Where a record its keyed reads no longer show went: a keyed reader of its store (of `keys`,
        else those the snapshots hold) that, given a value the call sent beside the record's identity,
        answers the record's own values (those the value does not carry); the reader and the argument
        that sent it."""
        for key in self.keys.get(record.tool, []) if keys is None else keys:
            for arg, value in args.items():
                if arg in taken or isinstance(value, bool) or not isinstance(value, str | int):
                    continue
                asked = {**self.base(key.reader), key.arg: value}
                own = {t for t in record.tokens if t not in json.dumps(value)}
                if own and self.valid(key.reader, asked) and self.showing({"": self.call(key.reader, asked)}, own):
                    return key.reader.name, arg
        return None

    def readers_of(self, record: Record, tool: Tool) -> list[Key]:
        """The keyed readers shown to read the record's store, other than `tool`, by each argument they
        were shown to select records by."""
        found = []
        for reader in self.tools:
            seen = self.seen[reader.name]
            if reader is tool or seen.role != "read" or seen.acts_on != record.tool:
                continue
            found += [Key(reader, b.argument, b.field if b.field in record.args else f"id:{b.field}")
                      for b in seen.bindings]
        return found

    def unread_by(self, keys: list[Key], record: Record, sent: set[str]) -> tuple[str | None, str | None]:
        """The first keyed reader that no longer shows the record: as the reader that lost it, or, where
        its answer for the record's key shows the values the call sent instead (an update in place
        that no looker showed yet), as the reader that shows it rewritten."""
        for key in keys:
            read = self.read_back(key, record)
            if read is not None and read[1]:
                rewritten = bool(sent) and bool(self.showing({"": read[0]}, sent))
                return (None, key.reader.name) if rewritten else (key.reader.name, None)
        return None, None

    def read_back(self, key: Key, record: Record) -> tuple[Outcome, bool] | None:
        """The keyed reader's answer for the record, and whether it is unread: refused, or a success
        that shows none of its marked values beyond those it was asked with (with none beyond, only a
        refusal tells); None where the record has no value the reader takes."""
        asked = self.key_args(key, record)
        if asked is None:
            return None
        answer = self.call(key.reader, asked)
        own = {t for t in record.tokens if t not in json.dumps(asked[key.arg])}
        return answer, answer.rejected or (answer.ok and bool(own) and not any(t in shown(answer) for t in own))

    def counted_out(self, before: dict[str, Outcome], after: dict[str, Outcome], changed: list[str],
                    record: Record) -> str | None:
        """A looker whose number moved by one with each record of the record's store made (see
        counter) and now moved back by one, where every other look that changed still shows each row
        it showed, in any order, and adds none but rows of the record (a listing of removed records):
        a removal that only a count shows."""
        counted = None
        for name in changed:
            tally = counter(self.moves[name], self.alike()) if name in self.moves else None
            old, new = numbers_in(before[name]), numbers_in(after[name])
            if tally is not None and record.tool in tally.counts and tally.path in old and tally.path in new:
                if new[tally.path] - old[tally.path] != -1:
                    return None
                counted = counted or name
            elif not kept_rows(before[name], after[name], record.tokens):
                return None
        return counted

    def answer_id(self, record: Record, taken: dict[str, str], tool: Tool, calls: list[Call]) -> None:
        """An id the write answered, that another tool then took for that record: the server-made id."""
        creator = self.seen[record.tool]
        member = next((source[3:] for source in taken.values() if source.startswith("id:")), None)
        if member is None or creator.answer_id is not None:
            return
        creator.answer_id = member
        creator.answer_fact = fact_shown(
            f"{record.tool}'s answer carries the new record's {member}: {tool.name} given that value acted on "
            "that record", calls=calls, source="experiment")

    def named_by(self, record: Record, taken: dict[str, str]) -> tuple[str | None, str]:
        """The argument that carried the record's identity, and what it carried."""
        creator = self.seen[record.tool]
        for arg, source in taken.items():
            if source.startswith("id:"):
                return arg, f"{source[3:]} {record.tool} answered"
        if creator.identity is not None and creator.identity in taken:
            return creator.identity, creator.identity
        if len(taken) == 1:
            arg = next(iter(taken))
            return arg, arg
        return None, ", ".join(taken)

    def fresh_record(self, creator: str) -> Record | None:
        """The creator's newest live record; a new one when none is left."""
        live = [r for r in self.live() if r.tool == creator]
        if live:
            return live[-1]
        if self.seen[creator].role not in CREATORS:
            return None
        self.catch_up()
        return self.try_create(next(t for t in self.tools if t.name == creator))

    def read(self, tool: Tool, record: Record, taken: dict[str, str], answer: Outcome, asked: list[Call]) -> None:
        """A call that changed nothing: a reader, bound to the argument that took the record's
        identity when it shows that record and, asked for another, that one and not the first."""
        if not any(t in shown(answer) for t in record.tokens):
            self.search(tool, record)
            return
        other = next((r for r in reversed(self.live()) if r is not record and r.tool == record.tool), None)
        if other is None:
            other = self.try_create(next(t for t in self.tools if t.name == record.tool))
        seen = self.seen[tool.name]
        ident = self.named_by(record, taken)
        start = len(self.calls)
        if other is not None and ident[0] is not None and (filled := self.fill(tool, other)) is not None:
            before = self.snap
            second = self.call(tool, filled[0])
            text = shown(second)
            after = self.look()
            unchanged = all(shown(after[n]) == shown(before[n]) for n in after)
            if unchanged and second.ok and any(t in text for t in other.tokens) and not any(
                    t in text for t in record.tokens):
                field_ = taken[ident[0]].removeprefix("id:")
                calls = [record.call, other.call, *asked, self.calls[start]]
                seen.role = "read"
                seen.fact = fact_shown(
                    f"{tool.name} reads one record: given the {ident[1]} of a record it answered that record, "
                    "and asked for another it answered the other only; no call of it changed a snapshot",
                    calls=calls, source="experiment")
                seen.bindings.append(Binding(ident[0], field_, fact_shown(
                    f"{tool.name}'s {ident[0]} selects records by their {field_}: asked with two records' values, "
                    "it answered each record alone", calls=calls, source="experiment")))
                seen.acts_on = record.tool
                self.answer_id(record, taken, tool, calls)
                return
        self.search(tool, record)

    def search(self, tool: Tool, record: Record) -> None:
        """Each text argument tried with each written text's value: a reader found by it searches. The
        live record of the same store with the most texts of its own is the one looked for."""
        record = max([record, *(r for r in reversed(self.live()) if r.tool == record.tool)],
                     key=lambda r: len(own_texts(r, self.records)))
        if not own_texts(record, self.records) and (
                made := self.try_create(next(t for t in self.tools if t.name == record.tool))):
            record = made
        texts = own_texts(record, self.records)
        seen = self.seen[tool.name]
        for arg in tool.required:
            # An argument named like the record's identity reads by it (fill tried it); one named like
            # another field the record holds may still search by any text.
            if arg in record.args and self.seen[record.tool].identity in (None, arg):
                continue
            strong: list[str] = []
            weak: list[str] = []
            asked: list[str] = []
            parts: set[str] = set()
            start = len(self.calls)
            before = self.snap
            for name, value in texts:
                base = {k: v for k, v in self.next_draw(tool)[1].items() if k != arg}
                token = f"{record.marker}-{name}"
                query = next((q for q in (value, token) if self.valid(tool, {**base, arg: q})), None)
                if query is None:
                    continue
                answer = self.call(tool, {**base, arg: query})
                asked.append(name)
                if query != value:
                    parts.add(name)
                out = shown(answer) if answer.ok else ""
                others = record.tokens - {token}
                if any(t in out for t in others):
                    strong.append(name)
                elif token in out:
                    weak.append(name)
            if not strong and not weak:
                continue
            base = {k: v for k, v in self.next_draw(tool)[1].items() if k != arg}
            nothing = f"{salted_marker(self.salt, 0xFFFE)}-{arg}"
            miss = self.call(tool, {**base, arg: nothing})
            after = self.look()
            # A search that changed what the readers show is no reader, unless it declares that it only
            # reads: then the machine calls it as one, and law 1 judges what it changes.
            moved = any(shown(after[n]) != shown(before[n]) for n in after)
            if moved and not tool.read_only_hint:
                return
            echoes = nothing in shown(miss)
            if any(t in shown(miss) for t in record.tokens):
                continue
            # A search that repeats its query shows the record only by its other values.
            found = strong if echoes else [n for n, _ in texts if n in strong or n in weak]
            if not found:
                continue
            # Any text field only where every one of the record's texts found it; else the field that
            # did (a search by title is not a search by body until a body found the record).
            field_ = TEXT if len(found) > 1 and set(found) == {n for n, _ in texts} else found[0]
            calls = [record.call, *self.calls[start:]]
            seen.role = "search"
            seen.fact = fact_shown(
                f"{tool.name} finds records by text: given a value the run wrote under {', '.join(found)}, it "
                "answered that record; given a text no record holds, none; " + (
                    "it declares that it only reads, though its calls changed a snapshot" if moved else
                    "no call of it changed a snapshot"), calls=calls, source="experiment")
            missed = [n for n in asked if n not in found]
            what = (f"the text of {', '.join(found)}" if field_ == TEXT else f"their {found[0]}" + (
                f" (and {', '.join(found[1:])})" if found[1:] else "") + (
                f", not their {', '.join(missed)}" if missed else " (no other field was tried)"))
            seen.bindings.append(Binding(arg, field_, fact_shown(
                f"{tool.name}'s {arg} selects records by {what}", calls=calls, source="experiment"),
                by_part=bool(parts & set(found if field_ == TEXT else found[:1])),
                texts=tuple(found) if field_ == TEXT else ()))
            return

    def lookers_roles(self) -> None:
        for tool in self.lookers:
            seen = self.seen[tool.name]
            if tool.name in self.shown_alive:
                seen.role = "list"
                seen.fact = fact_shown(f"{tool.name} lists records: asked for nothing in particular, it showed "
                                       "a record the run wrote; no call of it changed a snapshot",
                                       calls=[self.shown_alive[tool.name]], source="experiment")
            elif tool.name in self.shown_removed:
                seen.role = "list"
                seen.fact = fact_shown(f"{tool.name} lists removed records: it showed a record only after the "
                                       "record was removed", calls=[self.shown_removed[tool.name]],
                                       source="experiment")
            elif (tally := counter(self.moves[tool.name], self.alike())) is not None:
                counts, apart = self.named(tally.counts), self.named(tally.apart)
                seen.role = "count"
                seen.fact = fact_shown(f"{tool.name} counts records: its {tally.path} moved by one with each record "
                                       f"of {counts} made or removed" + (f", and not with those of {apart}" if apart
                                       else "") + ", and it shows no record", calls=[], source="experiment")

    def alike(self) -> frozenset[str]:
        """The choices (a boolean, an enum member) every record of the run held alike, as a path
        names them: the experiments write each tool's choices as its first write had them, and a
        choice a write left out holds the default its schema declares."""
        tools = {t.name: t for t in self.tools}
        held = [{v if isinstance(v, str) else json.dumps(v) for k, v in held_choices(tools[r.tool], r.args).items()}
                for r in self.records if r.tool in tools]
        return frozenset(set.intersection(*held)) if held else frozenset()

    def named(self, names: frozenset[str]) -> str:
        """Tool names in the order of the listing (the same order blind or named)."""
        return ", ".join(t.name for t in self.tools if t.name in names)


def sized(snap: dict[str, Outcome], name: str) -> int:
    """How many records a reader of the snapshot shows: a keyed read one where it answers a marked
    value (its key may carry another record's marker), none where it refuses or answers none."""
    if name in getattr(snap, "keyed", ()):
        return int(snap[name].ok and MARKER.search(shown(snap[name])) is not None)
    return size(snap[name])


def size(outcome: Outcome) -> int:
    """How many records an answer shows: the longest list of objects in its JSON, else the rows of
    its table, else the distinct markers it shows."""
    value = outcome.value()
    lists: list[int] = []

    def walk(item: Any, depth: int) -> None:
        if isinstance(item, list) and depth < 4:
            if (item and all(isinstance(i, dict) for i in item)) or not item:
                lists.append(len(item))
            for i in item:
                walk(i, depth + 1)
        elif isinstance(item, dict) and depth < 4:
            for i in item.values():
                walk(i, depth + 1)

    if isinstance(value, dict | list):
        walk(value, 0)
        if lists:
            return max(lists)
    rows = [line for line in text_lines(outcome.text) if line.startswith("|")]
    if len(rows) >= 2 and set(rows[1].replace("|", "").strip()) <= set("-: "):
        return len(rows) - 2
    return marked(outcome)


def marked(outcome: Outcome) -> int:
    """The distinct markers of the run's writes an answer shows."""
    return len(set(MARKER.findall(shown(outcome))))


def rows(outcome: Outcome) -> Counter[str]:
    """What a look shows, row by row in any order: its items (a listing's JSON items or table rows),
    else its lines."""
    found = [i if isinstance(i, str) else json.dumps(i, sort_keys=True) for i in items(outcome)]
    return Counter(found or text_lines(shown(outcome)))


def kept_rows(before: Outcome, after: Outcome, tokens: set[str]) -> bool:
    """`after` still shows every row `before` showed, and any row it adds shows one of `tokens`."""
    old, new = rows(before), rows(after)
    return not old - new and all(any(t in row for t in tokens) for row in new - old)


def ask_order(tool: Tool) -> int:
    """Tools annotated read-only are asked first, then those annotated neither way, then the others
    (an order, never a verdict: what each answers decides)."""
    return {True: 0, None: 1}.get(tool.read_only_hint, 2)


def counter(moves: list[Move], alike: frozenset[str] = frozenset()) -> Tally | None:
    """A number that moved by exactly the step of each of at least two record changes of the
    creators it counts, and stood still with each change of every other creator's records: what it
    counts is only what it was shown to follow (a count of one store says nothing of another's).
    A number named by a choice every record held `alike` (`by_status.blue`, or `by_status: {"blue": #`
    in text lines) may count only the records with it: one named otherwise (`total`) goes first."""
    if len(moves) < 2:
        return None
    paths = set.intersection(*(set(m.delta) for m in moves))
    creators = {m.creator for m in moves}
    for path in sorted(paths, key=lambda p: (named_by(p, alike), p)):
        counts = frozenset(c for c in creators if all(m.delta[path] == m.step for m in moves if m.creator == c))
        apart = frozenset(c for c in creators if all(m.delta[path] == 0 for m in moves if m.creator == c))
        if counts and counts | apart == creators and sum(m.creator in counts for m in moves) >= 2:
            return Tally(path, counts, apart)
    return None


def named_by(path: str, choices: frozenset[str]) -> bool:
    """Whether a number's path names one of `choices` as a whole word (its last member, or a key
    inside a line of text)."""
    return any(re.search(rf"(?<![0-9A-Za-z_]){re.escape(c)}(?![0-9A-Za-z_])", path) for c in choices)


def plain(text: str) -> Any:
    """A value a line shows: a JSON text or integer read as such, anything else as written."""
    value = scalar(text)
    return text if value is None else value


def typed(value: Any) -> list[Any]:
    """A value an answer showed, as itself and, where it reads as one, as an integer."""
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,15}", value):
        return [value, int(value)]
    if isinstance(value, int):
        return [value, str(value)]
    return [value]


def own_texts(record: Record, records: list[Record]) -> list[tuple[str, str]]:
    """The record's text fields whose marked value no other record shares; then those it wrote
    unmarked (a server refused their marker, or a rule left the marked ones out) whose value no other
    record holds: a search may look at those fields alone."""
    marked = [(f, v) for f, v in record.args.items() if isinstance(v, str) and f"{record.marker}-{f}" in record.tokens]
    held = {json.dumps(v) for r in records if r is not record for v in r.args.values()}
    plain_ = [(f, v) for f, v in record.args.items() if isinstance(v, str) and (f, v) not in marked
              and len(v) >= 3 and not MARKER.search(v) and json.dumps(v) not in held]
    return marked + plain_


def held_choices(tool: Tool, args: dict[str, Any]) -> dict[str, Any]:
    """The choices a write's record holds: those it sent, and the declared default of each it left out."""
    left = {k: s["default"] for k, s in tool.properties.items()
            if k not in args and isinstance(s, dict) and "default" in s and switch(tool, k, s["default"])}
    return {**left, **{k: v for k, v in args.items() if switch(tool, k, v)}}


def switch(tool: Tool, name: str, value: Any) -> bool:
    """A boolean, or a value of an enumeration: what a rule between fields keys on."""
    schema = tool.properties.get(name)
    return isinstance(value, bool) or (isinstance(schema, dict) and "enum" in schema)


def candidates(tool: Tool) -> list[str]:
    """Arguments that may tell records apart: required (or identity-named) texts and integers with
    room for many values; identity-named ones first (an order, never a verdict)."""
    found = []
    for name, schema in tool.properties.items():
        if not isinstance(schema, dict) or "enum" in schema or "const" in schema:
            continue
        kind = schema.get("type")
        roomy = (kind == "string" and (schema.get("maxLength") is None or schema["maxLength"] >= 3)) or (
            kind == "integer" and (schema.get("maximum", 1 << 31) - schema.get("minimum", -(1 << 31)) >= 20))
        if roomy and (name in tool.required or names_identity(name)):
            found.append(name)
    return sorted(found, key=lambda n: not names_identity(n))


def watch(pool: ServerPool, tools: list[Tool], base: Callable[[Tool], dict[str, Any]], seed: int,
          run_settings: settings, deletes: bool) -> dict[str, Seen]:
    """Every experiment above on one fresh server (`deletes`: tools that may delete are called too)."""
    found: dict[str, Seen] = {}

    @run_settings
    @given(data=st.data())
    def experiments(data: st.DataObject) -> None:
        if found:
            return
        draws = draw_all(data, tools)
        conn = pool.acquire()
        try:
            watcher = Watcher(conn, tools, base, deletes, draws)
            watcher.run()
            found.update(watcher.seen)
        finally:
            pool.release(conn)

    with own_draws():
        seeded(experiments, seed, "watch")()
    return found
