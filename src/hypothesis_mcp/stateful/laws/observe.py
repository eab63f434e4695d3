"""What the laws machine knows of a server: the roles stateful.watch showed by experiment, and how
to ask each reader about one record. Only what an experiment showed is used; a tool whose role was
not shown takes no part."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import takewhile
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection, Outcome
from hypothesis_mcp.model.facts import Fact, fact_guessed
from hypothesis_mcp.results import Call
from hypothesis_mcp.rules.answers import numbers_in
from hypothesis_mcp.search.seeding import own_draws, seeded
from hypothesis_mcp.stateful.deletes import deletes_fact
from hypothesis_mcp.stateful.looking import Pager
from hypothesis_mcp.stateful.watch import (
    CREATORS,
    TEXT,
    Move,
    Record,
    Seen,
    Tally,
    Watcher,
    counter,
    draw_all,
    may_delete,
    size,
)


@dataclass(frozen=True)
class Reader:
    """A tool that shows records: a listing (no argument), a keyed read (`arg` takes the record's
    `field`: a written field, or a member of the write's answer), or a search (`arg` takes the text
    written under `field`, any text field for TEXT)."""

    tool: Tool
    kind: str
    fact: Fact
    arg: str | None = None
    field: str | None = None
    guessed: bool = False
    """A keyed read by guess: asked for nothing until it showed a record the machine wrote."""
    by_part: bool = False
    """A search shown finding a record by a part of its text (watch.Binding)."""
    texts: tuple[str, ...] = ()
    """For TEXT, the fields shown found by (watch.Binding)."""


@dataclass(frozen=True)
class Actor:
    """A tool that acts on one record (update, remove), named by `arg`. A `guessed` update is taken
    for one only once a keyed read shows what its call sent (machine.py)."""

    tool: Tool
    arg: str
    facts: tuple[Fact, ...]
    guessed: bool = False


@dataclass(frozen=True)
class Counter:
    tool: Tool
    path: str
    fact: Fact
    fresh: float
    """The number a fresh server shows: a count's expectation on a fresh replay starts from it."""
    numbers: dict[str, float] = field(default_factory=dict)
    """Every number a fresh server shows, by path (counts per value among them)."""
    counts: frozenset[str] = frozenset()
    """The creators whose records the experiments showed it counting."""
    apart: frozenset[str] = frozenset()
    """The creators whose records the experiments showed it leaving uncounted; of any other's records
    it says nothing, so an example that changed them judges no count."""


@dataclass
class Learned:
    creators: list[tuple[Tool, Seen]] = field(default_factory=list)
    updaters: list[Actor] = field(default_factory=list)
    removers: list[Actor] = field(default_factory=list)
    readers: list[Reader] = field(default_factory=list)
    counters: list[Counter] = field(default_factory=list)
    pagers: dict[str, tuple[Pager, Fact]] = field(default_factory=dict)
    """For a listing that pages: how its answer names the next page, and the experiment that showed it."""
    sized: dict[str, str | None] = field(default_factory=dict)
    """For a listing: the parameter an experiment showed sizing its pages (None: none did)."""
    bins: list[Reader] = field(default_factory=list)
    """Listings an experiment showed listing removed records (a trash): a record updated after its
    removal may show there."""
    empty: set[str] = field(default_factory=set)
    """The listings that showed no record on the fresh server."""
    used: set[str] = field(default_factory=set)
    """Identity values the experiments wrote on the server the machine goes on with."""
    records: list[Record] = field(default_factory=list)
    """The records the experiments' creators wrote, oldest first: on a store the experiments filled,
    a listing's window may show only these, never the examples' own (read_order.py)."""
    widest: Callable[[Tool], dict[str, Any]] = lambda tool: {}
    done: bool = False

    @property
    def listers(self) -> list[Reader]:
        return [r for r in self.readers if r.kind == "list"]


def learned(conn: Connection, tools: list[Tool], base: Callable[[Tool], dict[str, Any]], seed: int,
            run_settings: settings, deletes: bool) -> Learned:
    """The experiments of stateful.watch on `conn` (a fresh server), read into what the machine
    needs; the server is left as the experiments leave it, for the machine to go on with."""
    found = Learned()

    @run_settings
    @given(data=st.data())
    def experiments(data: st.DataObject) -> None:
        if found.done:
            return
        watcher = Watcher(conn, tools, base, deletes, draw_all(data, tools))
        first = watcher.look()
        opening = list(watcher.look_calls)
        watcher.run()
        found.widest, found.done = watcher.widest, True
        read_roles(found, watcher, first, opening)

    with own_draws():
        seeded(experiments, seed, "laws", "watch")()
    return found


def read_roles(found: Learned, watcher: Watcher, first: dict[str, Outcome], opening: list[Call]) -> None:
    by_name = {t.name: t for t in watcher.tools}
    for name, seen in watcher.seen.items():
        tool, fact = by_name[name], seen.fact
        if fact is None or not fact.shown:
            continue
        if seen.role in CREATORS:
            found.creators.append((tool, seen))
        elif seen.role == "update" and seen.identity is not None and seen.identity_fact is not None and \
                removes_by_words(tool, seen.identity):
            found.removers.append(Actor(tool, seen.identity, (fact, seen.identity_fact, removal_guess(tool))))
        elif seen.role in ("update", "delete") and seen.identity is not None and seen.identity_fact is not None:
            actor = Actor(tool, seen.identity, (fact, seen.identity_fact))
            (found.updaters if seen.role == "update" else found.removers).append(actor)
        elif seen.role == "read" and seen.bindings:
            found.readers.append(Reader(tool, "key", seen.bindings[0].fact, seen.bindings[0].argument,
                                        seen.bindings[0].field))
        elif seen.role == "search" and seen.bindings:
            found.readers.append(Reader(tool, "search", seen.bindings[0].fact, seen.bindings[0].argument,
                                        seen.bindings[0].field, by_part=seen.bindings[0].by_part,
                                        texts=seen.bindings[0].texts))
        elif seen.role == "list" and name in watcher.shown_alive:
            found.readers.append(Reader(tool, "list", fact))
            if seen.paging is not None and seen.paging_fact is not None:
                found.pagers[name] = (seen.paging, seen.paging_fact)
            if name in first and first[name].ok and size(first[name]) == 0:
                found.empty.add(name)
        elif seen.role == "list":
            found.bins.append(Reader(tool, "list", fact))
        elif seen.role == "count" and (tally := counter(watcher.moves.get(name, []), watcher.alike())) is not None:
            numbers = fresh_numbers(watcher, name, tally, first, opening)
            if (fresh := numbers.get(tally.path)) is not None:
                found.counters.append(Counter(tool, tally.path, fact, fresh, numbers, tally.counts, tally.apart))
    guessed_counters(found, watcher, first, opening)
    guessed_updaters(found, watcher)
    guessed_removers(found, watcher)
    guessed_readers(found, watcher)
    creators = {t.name for t, _ in found.creators}
    found.records = [r for r in watcher.records if r.tool in creators]
    found.used = {identity_text(r.args.get(watcher.seen[r.tool].identity or "")) for r in watcher.records}


def identity_text(value: Any) -> str:
    return repr(value)


def search_field(reader: Reader, args: dict[str, Any], tokens: dict[str, str]) -> str | None:
    """The written field a search is asked by: its own, or for TEXT the first marked text of a field
    it was shown to find records by (a marker's number is no text a search matches)."""
    if reader.field == TEXT:
        return next((f for f in args if f in tokens and isinstance(args[f], str)
                     and (f in reader.texts or not reader.texts)), None)
    return reader.field if reader.field in tokens and isinstance(args.get(reader.field), str) else None


def fresh_numbers(watcher: Watcher, name: str, tally: Tally, first: dict[str, Outcome],
                  opening: list[Call]) -> dict[str, float]:
    """The numbers a count shows on a fresh server, by path. The first look calls every tool that takes
    no argument, writers among them until the experiments tell them apart, so the count's number is
    told less the records the calls before its own made: one per accepted call of a creator it was
    shown counting, none by one shown left alone. Where another writer's call came first, its number
    is not known (empty); where records were made, its numbers per value are not (the count alone)."""
    numbers = numbers_in(first[name]) if name in first and first[name].ok else {}
    before = list(takewhile(lambda call: call.tool != name, opening))
    readers = {t.name for t in watcher.lookers} | {
        other for other, seen in watcher.seen.items() if seen.role in ("read", "list", "search", "count")}
    made = 0
    for tool in dict.fromkeys(call.tool for call in before):
        if tool in readers or tool in tally.apart:
            continue
        if tool not in tally.counts or sum(call.tool == tool for call in before) > 1:
            return {}
        made += first[tool].ok
    if not made:
        return numbers
    return {tally.path: numbers[tally.path] - made} if tally.path in numbers else {}


def guessed_counters(found: Learned, watcher: Watcher, first: dict[str, Outcome], opening: list[Call]) -> None:
    """A tool no experiment placed whose number moved by one with each record made but not back
    with a removal: a count by guess (a removal it misses may be what is broken, so the experiments
    could not show it counts). Where it lags behind removals until the next write, the record made
    after a removal or another change moves it by more or less than one: then only the records made
    right after another are its moves. A finding that rests on it is at most low."""
    for tool in watcher.tools:
        moves = watcher.moves.get(tool.name, [])
        seen = watcher.seen.get(tool.name)
        if (seen is not None and seen.role is not None) or not any(m.step < 0 for m in moves):
            continue
        for made, how in (([m for m in moves if m.step > 0], "with each record made"),
                          (in_a_row(moves), "with each record made right after another")):
            tally = counter(made, watcher.alike())
            numbers = {} if tally is None else fresh_numbers(watcher, tool.name, tally, first, opening)
            if tally is not None and (fresh := numbers.get(tally.path)) is not None:
                fact = fact_guessed(f"{tool.name} counts records: its {tally.path} moved by one {how}",
                                    "no removal moved it back, so no experiment showed that it counts")
                found.counters.append(Counter(tool, tally.path, fact, fresh, numbers, tally.counts, tally.apart))
                break


def in_a_row(moves: list[Move]) -> list[Move]:
    """The records made with no removal and no other change between them and the move before: a
    number that lags behind removals catches up at the next record made, by more or less than one."""
    return [m for before, m in zip([None, *moves], moves, strict=False)
            if m.step > 0 and not m.unseen and (before is None or before.step > 0)]


def guessed_updaters(found: Learned, watcher: Watcher) -> None:
    """A tool no experiment placed that takes a creator's identity and fields that creator writes:
    an update by guess (a reader the experiments look at may not show the change: a stale listing).
    The machine takes it for one only where a keyed read then shows what it sent."""
    placed = {t.name for t, _ in found.creators} | {r.tool.name for r in found.readers} | {
        a.tool.name for a in (*found.removers, *found.updaters)} | {c.tool.name for c in found.counters}
    keyed = names_of(found, watcher)
    for tool in watcher.tools:
        if tool.name in placed or tool.read_only_hint or not watcher.callable(tool):
            continue
        for creator, _ in found.creators:
            arg = next((a for a in sorted(keyed) if a in tool.required), None)
            if arg is not None and (set(tool.properties) - {arg}) & set(creator.properties):
                fact = fact_guessed(f"{tool.name} changes records", f"it takes the {arg} of a record "
                                    f"{creator.name} makes and fields {creator.name} writes")
                found.updaters.append(Actor(tool, arg, (fact,), guessed=True))
                break


def removes_by_words(tool: Tool, identity: str) -> bool:
    """A tool whose words or annotations say it may delete (and that does not send), taking nothing
    but a record's identity. Shown changing the record yet not removing it, it is no update (it
    writes no value): a removal the store did not carry out is what that looks like."""
    return tool.is_destructive and "send" not in tool.reading.groups and set(tool.properties) == {identity}


def removal_guess(tool: Tool) -> Fact:
    """That the tool removes records: stated by its destructiveHint annotation, else a guess (a
    finding that rests on it is at most low)."""
    return deletes_fact(tool) if tool.destructive_hint is True else fact_guessed(
        f"{tool.name} removes records", "its words or annotations say it may delete; "
        "no experiment showed what it does")


def guessed_removers(found: Learned, watcher: Watcher) -> None:
    """A tool no experiment placed that may delete by its words or annotations (never one that sends:
    it is called on no record unless the user names it) and takes nothing but a creator's identity:
    a remover by guess (its removal may be what is broken, so the experiments
    could not show it). A finding that rests on it is at most low, unless its destructiveHint
    annotation declares that it deletes: the server then states it, as the removal probe reads it
    (stateful.deletes.deletes_fact)."""
    identities = names_of(found, watcher)
    placed = {t.name for t, _ in found.creators} | {r.tool.name for r in found.readers} | {
        a.tool.name for a in (*found.removers, *found.updaters)}
    for tool in watcher.tools:
        sends = "send" in tool.reading.groups  # not is_sending: that also holds for every delete verb
        if tool.name in placed or not tool.is_destructive or sends or not watcher.callable(tool):
            continue
        if len(tool.properties) == 1 and (arg := next(iter(tool.properties))) in identities:
            found.removers.append(Actor(tool, arg, (removal_guess(tool),)))


def names_of(found: Learned, watcher: Watcher) -> set[str]:
    """What may name a creator's record: its identity, or a member of its write's answer."""
    creators = {t.name for t, _ in found.creators}
    return {s.identity for _, s in found.creators if s.identity} | {
        member for r in watcher.records if r.tool in creators for member, _ in r.ids}


def guessed_readers(found: Learned, watcher: Watcher) -> None:
    """A tool no experiment placed that takes nothing but what may name a creator's record (or a text
    field of the creator's, which the machine writes unique) and may not delete: a keyed read by
    guess (a removal or a write a broken server misses may have hidden it from the experiments; a
    store that appends shows no identity). The machine asks it for a record only once it showed one
    it wrote."""
    identities = names_of(found, watcher) | {name for tool, _ in found.creators for name, schema
                                             in tool.properties.items() if isinstance(schema, dict)
                                             and schema.get("type") == "string"}
    placed = {t.name for t, _ in found.creators} | {r.tool.name for r in found.readers} | {
        a.tool.name for a in (*found.removers, *found.updaters)} | {c.tool.name for c in found.counters}
    for tool in watcher.tools:
        if tool.name in placed or may_delete(tool) or not watcher.callable(tool) or len(tool.required) != 1:
            continue
        arg = next(iter(tool.required))
        if arg in identities and not any((set(tool.properties) - {arg}) & set(c.properties) for c, _ in found.creators):
            fact = fact_guessed(f"{tool.name} reads a record by its {arg}", f"it takes only the {arg}")
            found.readers.append(Reader(tool, "key", fact, arg, arg, guessed=True))
