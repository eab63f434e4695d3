"""The laws machine: one Hypothesis state machine whose rules are the server's tools as the
experiments showed them (create, update, remove, keyed read, search, listing, count), run on one
warm server. Each example writes under its own markers and judges every law after every step
against its own model and the numbers it saw at its start, so examples do not depend on each other."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, consumes, initialize, multiple, precondition, rule

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection, Outcome
from hypothesis_mcp.model.facts import Fact, allowed, fact_guessed, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.results import Binding, Call, RuleId
from hypothesis_mcp.rules.answers import (
    blank,
    claimed_record,
    numbers_in,
    records_under,
    shaped_record,
    shown,
    values_of,
)
from hypothesis_mcp.rules.expectations import ContainsAny, FieldShown, FindsNothing, InOrder, NumberAt
from hypothesis_mcp.rules.text_records import nested_objects, records_for, text_records
from hypothesis_mcp.stateful.laws.dropped import dropped
from hypothesis_mcp.stateful.laws.edges import at_edges, fits, renamed
from hypothesis_mcp.stateful.laws.laws import (
    Breach,
    changed_by_read,
    differing,
    field_breach,
    field_values,
    first,
    kept,
    kept_count,
    made_up,
    miscounted,
    missing,
    short,
    shows,
)
from hypothesis_mcp.stateful.laws.model import LIVE, REFUSED, REMOVED, Held, marks, numbered, sent
from hypothesis_mcp.stateful.laws.observe import Actor, Counter, Learned, Reader, identity_text, search_field
from hypothesis_mcp.stateful.laws.patching import defaulted, defaults_dropped, required_left
from hypothesis_mcp.stateful.laws.room import crowded, make_room
from hypothesis_mcp.stateful.laws.tails import Stepper, last_page, read_on, stepper, walk
from hypothesis_mcp.stateful.looking import Pager, joined, scalars
from hypothesis_mcp.stateful.readers import read_only_fact
from hypothesis_mcp.stateful.variants import FOLDED, folded
from hypothesis_mcp.stateful.watch import TEXT, all_marked, full_arguments, marked, size
from hypothesis_mcp.strategies import salted_marker, with_marker
from hypothesis_mcp.strategies.markers import MARKER

RENAME_LOST: RuleId = "probe-rename-lost-fields"
COUNT_WRONG: RuleId = "probe-count-wrong"
READ_CHANGED: RuleId = "probe-read-changed-state"
MAX_RECORDS = 3
"""Records one example holds at most: every check reads each of them."""
STEPPER_TRIES = 4
"""Examples that try to learn how a listing pages by a number once its first page is full."""
SHRINK_EXAMPLES = 24
"""Examples Hypothesis may run on the warm server to shrink a broken law; the later ones do nothing
(fresh replays make the reproduction smaller still, see confirm.py)."""


class LawBroken(AssertionError):
    """A law broke in an example; Hypothesis shrinks the example on the warm server."""


@dataclass
class Run:
    """What the examples of one server share: the warm server, what the experiments showed, and
    every breach seen (the machine keeps them; Hypothesis only steers the search)."""

    conn: Connection
    learned: Learned
    seed: int
    breaches: list[tuple[Breach, list[Call], set[int]]] = field(default_factory=list)
    examples: int = 0
    count: int = 0
    quiet: set[tuple[str, str]] = field(default_factory=set)
    """(rule, tool) of breaches already tried on fresh servers: not raised again, unless missed."""
    missed: dict[tuple[str, str], set[frozenset[str]]] = field(default_factory=dict)
    """(rule, tool) of breaches tried that no fresh replay showed yet, each with the tools the steps
    before them called: a breach of the same rule and tool after a step of another tool (a removal
    where the missed one had none) is another observation, and is raised in its turn."""
    not_counters: set[str] = field(default_factory=set)
    """Tools taken for counts that an example showed changing what the readers show: no counts."""
    stop: Callable[[], bool] = lambda: False
    first_broken: int | None = None
    """The example after which a law was first seen broken."""
    writes: int = 0
    """Writes of the creators the warm server answered as successes (a fresh replay may need as many)."""

    proven_readers: dict[str, Reader] = field(default_factory=dict)
    """Keyed reads by guess that showed a record the machine wrote, as shown readers."""
    not_readers: set[str] = field(default_factory=set)
    tried: dict[str, int] = field(default_factory=dict)
    """Keyed reads by guess, by the times one did not show the record it was asked for."""
    proven: dict[str, tuple[Fact, ...]] = field(default_factory=dict)
    """Guessed updates a keyed read showed changing a record, by tool: the fact it showed."""
    not_updaters: set[str] = field(default_factory=set)
    """Guessed updates whose change no keyed read showed: not called again."""
    updates: dict[str, int] = field(default_factory=dict)
    """Updates drawn so far, by tool: every third names one field."""
    refusals: dict[str, tuple[dict[str, Any], str]] = field(default_factory=dict)
    """Each writer's last refused call, its arguments and marker, the latest last (Example.refused_by)."""
    carried: set[tuple[str, str]] = field(default_factory=set)
    """(updater, marker of another writer's refused call) where the updater was asked with its values."""
    last_refused: str | None = None
    """The writer refused last: the machine carries what it refused to the other updaters."""
    controls: dict[tuple[str, str], bool] = field(default_factory=dict)
    """(keyed reader, identity never written): whether its read answered a success."""
    echoing: dict[tuple[str, str], bool] = field(default_factory=dict)
    """(tool, argument): whether the tool's answer to a value never written shows that value."""
    windows: set[str] = field(default_factory=set)
    """Listings that grew by neither of two writes in a row: full windows (or full stores), whose size
    says nothing of a write (see Example.unlisted)."""
    pagings: dict[str, Pager | Stepper] = field(default_factory=dict)
    """How each listing that pages continues (tails.py)."""
    tries: dict[str, int] = field(default_factory=dict)
    """Tries to learn how a listing pages by a number on a store larger than its first page."""
    looked: dict[str, int] = field(default_factory=dict)
    """The example that last tried to learn how each listing pages by a number."""
    tails: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The arguments of each listing's last page when the last example began: the next walks on from it."""
    shapes: dict[str, set[str]] = field(default_factory=dict)
    """The members of the records each keyed reader showed for a live record, by tool: a record's
    shape, which tells a record made up for an id from an answer about it (laws.made_up)."""
    flags: dict[str, set[str]] = field(default_factory=dict)
    """The members every live record a keyed reader showed held true, by tool: false, they say the
    record is not there (answers.shaped_record)."""
    answers: dict[str, tuple[Outcome, dict[str, Any]]] = field(default_factory=dict)
    """Each update's latest answer that was no refusal, with what its call sent: the shape its
    successes take."""
    left: list[Held] = field(default_factory=list)
    """Records earlier examples wrote and left on the warm server, oldest first (room.py)."""
    last: Example | None = None
    roomless: bool = False
    """Room was made and the next example's writes were all refused still: the store refuses for
    another reason, and no more records are removed."""
    walked: set[str] = field(default_factory=set)
    """Listings law 7 judged a walk of (covering.py, own_pages.py): the pages machine, which it retires
    under `laws: true`, walks only the others."""
    removals: dict[str, set[str]] = field(default_factory=dict)
    """Per creator, the removers whose successful removal of its records law 4 judged while another of
    its records was live (a removal beside no other record cannot show one taken with it): the removal
    probe, which it retires under `laws: true`, runs only on the others."""
    unwritten: set[str] = field(default_factory=set)
    """Keyed readers asked for an identity no call wrote (unwritten.py): once per run."""
    ordered: set[tuple[str, str]] = field(default_factory=set)
    """(keyed reader, listing) pairs read_order.py judged on records earlier writes made: once per run."""
    judges: list[Check] = field(default_factory=list)
    """The laws' own judgements, made at every check beside the machine's (`Check`)."""

    def settle(self, example: Example) -> bool:
        """Before `example` reads anything: the records the example before it left are kept, and where
        that one found the store full or a listing's window full of earlier records (`hidden`), room
        is made. Whether room was made."""
        previous, self.last = self.last, example
        if previous is None:
            return False
        hidden = self.hidden(previous)
        self.left += [h for h in previous.accepted if h.live]
        if self.roomless or not (crowded(len(previous.accepted), previous.refused) or hidden):
            return False
        if previous.roomy:
            self.roomless = True
            return False
        return make_room(self.conn, self.learned.removers, self.learned.widest, self.left) > 0

    def hidden(self, example: Example) -> bool:
        """A listing shown to list a creator's records whose last answer in `example` showed records
        earlier examples left and none of the example's own live ones: those records fill its window
        (its largest page, oldest first), so no law judged it there."""
        for lister in self.learned.listers:
            last = example.listings.get(lister.tool.name)
            makers = {c.tool for c in lister.fact.shown_by}
            own = [h for h in example.accepted if h.live and h.tool in makers and h.tokens]
            if last is None or not own or any(shows(last[1], tuple(h.tokens.values())) for h in own):
                continue
            if any(shows(last[1], tuple(h.tokens.values())) for h in self.left if h.tool in makers):
                return True
        return False

    def refused(self, tool: str, args: dict[str, Any], marker: str) -> None:
        """A writer's call was refused: the other updaters are to be asked with what it sent."""
        self.refusals.pop(tool, None)  # the latest last
        self.refusals[tool] = (args, marker)
        self.last_refused = tool

    def fresh(self, breach: Breach, steps: frozenset[str]) -> bool:
        """A breach not tried on fresh servers yet: its rule and tool never tried, or tried only
        after steps of other tools, none confirmed."""
        key = (breach.rule, breach.tool)
        return key not in self.quiet or (key in self.missed and steps not in self.missed[key])

    def paging(self, lister: Reader) -> Pager | Stepper | None:
        name = lister.tool.name
        if name in self.learned.pagers:
            return self.learned.pagers[name][0]
        tried = self.looked.get(name) == self.examples
        if name not in self.pagings and self.tries.get(name, 0) < STEPPER_TRIES and not tried:
            # Once an example; only a full first page spends a try (a store that fits one page shows
            # nothing of how the listing pages, and the examples' writes may fill it later).
            self.looked[name] = self.examples
            found, full = stepper(lambda a: self.conn.call(name, a), self.learned, lister.tool)
            if found is not None:
                self.pagings[name] = found
            self.tries[name] = self.tries.get(name, 0) + full
        return self.pagings.get(name)

    def rest(self, conn: Connection, call: Call, first: Outcome) -> Outcome:
        """The listing `call` read on `conn` (a fresh replay's server), read on past `first` as the
        checks read its tail on the warm server: a replay may write more records than a first page
        holds. A listing whose paging was not learned is its first page, as the checks read it."""
        pager = self.learned.pagers.get(call.tool)
        paging = pager[0] if pager is not None else self.pagings.get(call.tool)
        if paging is None:
            return first
        return joined(read_on(lambda a: conn.call(call.tool, a), call.arguments, first, paging))

    def marker(self) -> str:
        self.count += 1
        return salted_marker(zlib.crc32(f"laws:{self.seed}".encode()) & 0xFFFF, self.count)

    def echoes(self, call: Call, name: str) -> bool:
        """Whether `call`'s tool shows back what `name` asked for when no record holds it, in an answer
        not told from a success: the call asked again on the warm server with its marker swapped for
        one never written. A refusal the run tells (isError, an error text, a learned shape) that
        names the value is still a refusal: the answers taken for successes show it only where they
        show a record. Unknown (no marker to swap, no answer) counts as echoing."""
        value = call.arguments.get(name)
        found = MARKER.search(value) if isinstance(value, str) else None
        if found is None or not isinstance(value, str):
            return True
        key = (call.tool, name)
        if key not in self.echoing:
            fresh = self.marker()
            answer = self.conn.call(call.tool, {**call.arguments, name: value.replace(found.group(), fresh)})
            self.echoing[key] = not answer.rejected and (answer.kind != "result" or fresh in shown(answer))
        return self.echoing[key]


@dataclass
class Step:
    kind: str
    tool: str
    target: Held | None = None
    facts: tuple[Fact, ...] = ()
    at: int = -1
    """Where the step's call is among the example's calls."""
    named: frozenset[str] = frozenset()
    """The fields a patch named: any other field of its record it changed is data lost."""
    moved: bool = False
    """The update gave its record a new identity: any other field it changed is lost by the move."""
    guess: Fact | None = None
    """The update is taken for a patch by this guess (patching.py): a loss judged on it is low."""

    def guessed(self) -> tuple[Fact, ...]:
        return () if self.guess is None else (self.guess,)


class Example:
    """One example: its calls, its records, and the numbers and listing sizes it saw last."""

    def __init__(self, run: Run) -> None:
        self.run, self.learned = run, run.learned
        self.accepted: list[Held] = []
        """Every write of a creator the store accepted, judged or not (a series', law 7's)."""
        self.refused = 0
        self.roomy = run.settle(self)
        """Room was made on the warm server before this example."""
        self.calls: list[Call] = []
        self.checks: set[int] = set()
        """Indexes of the calls the checks made (not the steps), and of the calls the warm server refused:
        a reproduction tries without them first. A refused call changes nothing by law 2, and a fresh
        replay in which a call of the judged tool is refused shows nothing (judge.reproduces)."""
        self.held: list[Held] = []
        self.delta: dict[str, int] = {}
        """Records made net by the example, by creator (a creator whose records it changed is a key)."""
        self.moved_at: dict[int, str] = {}
        """The calls `delta` counts (each write that made a record, each removal), by index: the creator
        whose records each moved. A count's expected number holds them all, so a replay keeps them."""
        self.leaked: set[int] = set()
        """Refused writes (by index in `held`) a reader showed stored: a count counts them."""
        self.sizes: dict[str, int] = {}
        self.marked: dict[str, int] = {}
        """The writes' markers each listing showed at the last check: a record's nested list of objects,
        pushed off a window, shortens the longest list an answer holds, never the markers it shows."""
        self.orders: dict[str, list[Held]] = {}
        """The live records each listing showed at the last check, in its order."""
        self.start: dict[str, float] = {}
        self.enums = enums(self.learned)
        self.written = frozenset({p for t, _ in self.learned.creators for p in t.properties}
                                 | {p for a in self.learned.updaters for p in a.tool.properties})
        """Members a write sets: a flag true in every stored record may be the draws' doing there."""
        self.uncounted = False
        """A write answered a success whose record no read could place (its own, or folded into
        another), or a count already tried broke again: how many records the example made is not
        known, or the count says nothing new, so no count is judged."""
        self.spoiled = False
        """A breach already confirmed, or a counter that changed the store, showed in this example:
        what it holds now is no longer what its model says, so no later step is judged."""
        self.numbers: dict[str, dict[str, float]] = {}
        """Every number each counter showed at the example's start, by path."""
        self.untracked = False
        """A write the example made but does not hold (a series, law 7's records): counts per value
        of a field are not judged."""
        for counter in self.learned.counters:
            answer = self.run.conn.call(counter.tool.name, self.learned.widest(counter.tool))
            self.numbers[counter.tool.name] = numbers_in(answer)
            self.start[counter.tool.name] = self.numbers[counter.tool.name].get(counter.path, float("nan"))
        self.listings: dict[str, tuple[int, Outcome]] = {}
        """What each listing answered at the current check (its tail joined), and where that call is."""
        self.tails: dict[str, dict[str, Any]] = {}
        self.tailed: set[str] = set()
        self.unsized: set[str] = set()
        """Listings whose size since the last check grew by writes the example does not hold (a series)."""
        """The listings read with their tail: a record neither shows may be on a page between them."""
        """Where each listing that pages ended when the example began: its records are from there on."""
        for lister in self.learned.listers:
            first = self.run.conn.call(lister.tool.name, self.learned.widest(lister.tool))
            self.tail(lister)
            whole = self.listing(lister, first)
            self.sizes[lister.tool.name], self.marked[lister.tool.name] = size(whole), marked(whole)

    def tail(self, lister: Reader) -> None:
        paging, name = self.run.paging(lister), lister.tool.name
        if paging is None:
            return
        base = self.learned.widest(lister.tool)
        start = self.run.tails.get(name, base)
        end = last_page(lambda a: self.run.conn.call(name, a), base, start, paging)
        if end is None and start != base:
            end = last_page(lambda a: self.run.conn.call(name, a), base, base, paging)
        if end is None:
            self.run.tails.pop(name, None)
            return
        self.run.tails[name] = self.tails[name] = end

    def listing(self, lister: Reader, first: Outcome) -> Outcome:
        """The listing's first page joined with its tail: the pages from where it ended when the example
        began (not part of any reproduction: a fresh store fits the first page)."""
        name = lister.tool.name
        paging, start = self.run.paging(lister), self.tails.get(name)
        if paging is None or start is None or not first.ok:
            return first
        base = self.learned.widest(lister.tool)
        pages = walk(lambda a: self.run.conn.call(name, a), base, start, paging)
        pages = pages[1:] if start == base else pages
        if not pages:
            return first
        self.tailed.add(name)
        return joined([first, *pages])

    def call(self, tool: Tool, args: dict[str, Any]) -> Outcome:
        self.step_at = len(self.calls)
        self.calls.append(Call(tool.name, args))
        answer = self.run.conn.call(tool.name, args)
        if answer.rejected:
            self.checks.add(self.step_at)
        return answer

    def oldest(self, held: Held) -> Held:
        """The record a read step reads: the oldest live one a listing showed last where `held` is the
        newest of several (a draw mostly picks the newest), for a read that moves its record to the
        newest end of a listing (the most recently read first, or last) shows only on an older one."""
        shown = max(([h for h in order if h.live] for order in self.orders.values()), key=len, default=[])
        newest = max(shown, key=lambda h: h.at, default=None)
        return min(shown, key=lambda h: h.at) if len(shown) > 1 and held is newest else held

    # --- steps ------------------------------------------------------------------------------------

    def create(self, tool: Tool, seen_identity: str | None, drawn: dict[str, Any], judge: bool = True) -> Held | None:
        """A write of fresh marked values; without `judge` it is one of a series, neither held nor
        checked (only counted)."""
        marker = self.run.marker()
        args = numbered(tool, at_edges(tool, with_marker(drawn, marker), self.run.count, seen_identity), marker,
                        seen_identity)
        key = identity_text(args.get(seen_identity or ""))
        if seen_identity is not None and key in self.learned.used:
            fresh = renamed(tool, args, seen_identity, self.run.count, lambda v: identity_text(v) in self.learned.used)
            if fresh is None:
                return None
            args, key = fresh, identity_text(fresh.get(seen_identity))
        self.learned.used.add(key)
        answer = self.call(tool, args)
        held = Held.written(tool.name, args, marker, answer, LIVE if answer.ok else REFUSED)
        held.at = len(self.calls) - 1
        if not held.tokens and answer.ok:
            self.own_id(held)
        self.refused += not answer.ok
        if not answer.ok:
            self.run.refused(tool.name, args, marker)
        if answer.ok:
            self.accepted.append(held)
            self.run.writes += 1
            self.made(tool.name, +1)  # a record made, whether or not its values can be told apart
            self.untracked = self.untracked or not judge
            if not judge:
                self.unsized = set(self.sizes)  # a listing's size no longer tells what the next write added
                for other in self.held:  # nor whether a window still holds a record: shown again, then judged
                    other.shown -= {lister.tool.name for lister in self.learned.listers}
        if not held.tokens:
            return None
        if answer.ok:
            self.bind(held)
        if not judge:
            return held if answer.ok else None
        self.held.append(held)
        if answer.ok:
            self.try_readers(held)
        creator = next(s for t, s in self.learned.creators if t.name == tool.name)
        facts = tuple(f for f in (creator.fact,) if f is not None)
        self.check(Step("create" if answer.ok else "refused", tool.name, held, facts))
        return held if answer.ok else None

    def own_id(self, held: Held) -> None:
        """A record whose write could carry no marker (no text, numbers bounded below the marker's)
        is told apart by the id its write's answer gave it, where the experiments showed a tool taking
        that member to act on or read a record: a text no other record of the run holds, nor is held
        in another's (an id a number or a text holds by chance, a bare number, tells nothing)."""
        takes = {a.arg for a in (*self.learned.removers, *self.learned.updaters)} | {
            r.field for r in self.learned.readers if r.kind == "key" and r.field}
        others = [str(v) for h in (*self.run.left, *self.held) for _, v in h.ids]
        for member, value in held.ids:
            if member in takes and isinstance(value, str) and len(value) >= 3 and not value.strip().isdigit() \
                    and not any(value in o or o in value for o in others):
                held.tokens[member] = value
                return

    def try_readers(self, held: Held) -> None:
        """Each keyed read by guess not tried yet, asked for the record just written: one that shows
        it reads records (shown, by these two calls); one after which a shown keyed read no longer
        finds the record removed it (removes); any other is asked for nothing more. One tried before a
        keyed read was shown is tried again, after the others (it may be a removal)."""
        start = len(self.calls)
        guessed = sorted((i for i, r in enumerate(self.learned.readers) if r.guessed), key=lambda i: self.run.tried.get(
            self.learned.readers[i].tool.name, 0))
        for index in guessed:
            reader = self.learned.readers[index]
            name = reader.tool.name
            value = held.value_of(reader.field or "")
            if name in self.run.proven_readers or name in self.run.not_readers or value is None:
                continue
            asked = {**self.learned.widest(reader.tool), reader.arg or "": value}
            answer = self.call(reader.tool, asked)
            if shows(answer, self.unasked(len(self.calls) - 1, held.token_list())):
                fact = fact_shown(f"{name} reads a record by its {reader.arg}: asked with the {reader.arg} of a "
                                  f"record {held.tool} wrote, it showed the record", calls=(self.calls[held.at],
                                  self.calls[-1]), source="experiment")
                self.run.proven_readers[name] = replace(reader, fact=fact, guessed=False)
                self.learned.readers[index] = self.run.proven_readers[name]
                continue
            at = len(self.calls) - 1
            if answer.ok and self.removes(reader, held, at):
                self.checks.update(range(start, at))
                self.checks.update(range(at + 1, len(self.calls)))
                return
            self.run.tried[name] = self.run.tried.get(name, 0) + 1
            if self.run.tried[name] > 1 or self.run.proven_readers:
                self.run.not_readers.add(name)
            self.spoiled = True  # what else the call did is not known: the example is judged no further
            break
        self.checks.update(range(start, len(self.calls)))

    def removes(self, reader: Reader, held: Held, at: int) -> bool:
        """The call at `at` of a tool taken for a keyed read by guess, after which a shown keyed read
        no longer finds the record it was asked for: the tool removes records (shown by the write, that
        call and the read), and the record is judged removed."""
        shown_by = [(r, a) for r in self.learned.readers if r.kind == "key" and not r.guessed
                    and r.tool.name != reader.tool.name and (a := self.ask(r, held)) is not None]
        if not shown_by:
            return False
        other, asked = shown_by[0]
        if shows(self.call(other.tool, asked), self.unasked(len(self.calls) - 1, held.token_list())):
            return False
        name = reader.tool.name
        fact = fact_shown(f"{name} removes records: after its successful call with the {reader.arg} of a record "
                          f"{held.tool} wrote, {other.tool.name} no longer showed the record",
                          calls=(self.calls[held.at], self.calls[at], self.calls[-1]), source="experiment")
        self.run.not_readers.add(name)
        self.learned.readers = [r for r in self.learned.readers if r.tool.name != name]
        self.learned.removers.append(Actor(reader.tool, reader.arg or "", (fact,)))
        held.state, held.removed = REMOVED, (name, at)
        self.made(held.tool, -1, at)
        self.run.removals.setdefault(held.tool, set()).add(name)
        self.check(Step("remove", name, held, (fact,)))
        return True

    def bind(self, held: Held) -> None:
        """The write's call names the server-made values a later call of the example may take."""
        if held.ids:
            binds = tuple(Binding(v, (m,)) for m, v in held.ids[:2])
            last = self.calls[-1]
            self.calls[-1] = Call(last.tool, last.arguments, last.method, binds)

    def update(self, actor: Actor, held: Held, drawn: dict[str, Any], carry: bool = False) -> None:
        """An update of `held`, its fields at the edges its turn picks; every third update of each
        tool (by its own turns, so what the other rules drew does not decide it) a patch that names
        just one field where the schema allows it (a store may treat such a patch otherwise). The
        first update of a tool after another writer's refusal sends what that one was refused for
        (`refused_by`); with `carry`, there is no call unless it does."""
        value = held.value_of(actor.arg)
        if value is None or not held.live:
            return
        if actor.guessed and actor.tool.name in self.run.not_updaters:
            return
        marker = self.run.marker()
        args = numbered(actor.tool, at_edges(actor.tool, {**with_marker(drawn, marker), actor.arg: value},
                                             self.run.count, actor.arg), marker, actor.arg, fixed=True)
        fields = sorted(set(args) - {actor.arg})
        turn = self.run.updates[actor.tool.name] = self.run.updates.get(actor.tool.name, 0) + 1
        only = fields[turn // 3 % len(fields)] if fields and turn % 3 == 2 and not carry else None
        if only is not None and only in args and only != actor.arg and self.valid(
                actor.tool, narrow := {actor.arg: value, only: args[only]}):
            args = narrow
        taken = self.refused_by(actor, args)
        if taken and self.valid(actor.tool, {**args, **taken}):
            args = {**args, **taken}
        elif carry:
            return
        before = dict(held.values)
        answer = self.call(actor.tool, args)
        at = len(self.calls) - 1
        facts = self.run.proven.get(actor.tool.name, actor.facts)
        if answer.ok and actor.guessed and actor.tool.name not in self.run.proven:
            old = tuple(sorted(t for k, t in held.tokens.items() if k in args and k != actor.arg))
            facts = self.prove(actor, held, tuple(sorted(marks(args, marker).values())), old)
            if not facts:
                return
        if answer.ok:
            self.run.answers[actor.tool.name] = (answer, args)
            held.before = {k: before[k] for k in args if k != actor.arg and k in before}
            held.updated(args, marker, actor.arg)
            held.agreed.clear()
            creator = next((t for t, _ in self.learned.creators if t.name == held.tool), None)
            patch = required_left(creator, actor.tool, actor.arg)
            guess = None if patch or ("probe-data-lost", actor.tool.name) in self.run.quiet else \
                defaults_dropped(creator, actor.tool, actor.arg)
            # Kept only beside a value the call marked: a reader then shows the record, and a kept
            # field it never displays is not taken for lost.
            fixed = unnameable(held, actor) if marks(args, marker) else {}
            if not patch and guess is None:
                # A replace may set what it does not name to its default: those fields are not judged,
                # and the record is looked for by what this call sent. A field its schema has no name
                # for it cannot set, to a default or otherwise: that one is kept and judged.
                kept = sent(fixed)
                held.values = {k: v for k, v in held.values.items() if k in args or k in fixed}
                held.stale |= {t for t in held.tokens.values() if t not in sent(args) and t not in kept}
                held.tokens = {k: t for k, t in held.tokens.items() if t in sent(args) or t in kept}
            moved = self.moved(actor, held, args)
            named = frozenset(args) if patch or guess else frozenset(actor.tool.properties) if fixed else frozenset()
            self.check(Step("update", actor.tool.name, held, facts, at, named=named, moved=moved, guess=guess))
            return
        if actor.guessed and actor.tool.name not in self.run.proven:
            return
        self.run.refused(actor.tool.name, args, marker)
        refused = Held.written(actor.tool.name, args, marker, answer, REFUSED)
        refused.ids, refused.args, refused.at = held.ids, {**held.args, **args}, len(self.calls) - 1
        refused.amends = True
        if refused.tokens:
            self.held.append(refused)
        self.check(Step("refused", actor.tool.name, refused, actor.facts))

    def refused_by(self, actor: Actor, args: dict[str, Any]) -> dict[str, Any]:
        """The values another writer's latest refused call sent, not yet sent through this one, that
        this update takes and does not send already, marked texts and identity aside: a store's rule
        (one value forbids another) holds for every writer of the same fields, so this one is asked
        with them, and law 2 judges what it does with its refusal."""
        for writer, (refused, marker) in reversed(self.run.refusals.items()):
            if writer != actor.tool.name and (actor.tool.name, marker) not in self.run.carried:
                self.run.carried.add((actor.tool.name, marker))
                return {k: v for k, v in refused.items() if k in actor.tool.properties and k != actor.arg
                        and (k not in args or args[k] != v) and not marks({k: v}, marker)}
        return {}

    def prove(self, actor: Actor, held: Held, sent: tuple[str, ...], old: tuple[str, ...]) -> tuple[Fact, ...]:
        """A guessed update is one where a keyed read of the record then shows a value its call
        sent; else it is no update, and the example, whose record it may have changed, is judged no
        further. With no keyed read, a listing judges it (`listed`)."""
        start = len(self.calls)
        reader, asked = next(((r, a) for r in self.learned.readers if r.kind == "key"
                              and (a := self.ask(r, held)) is not None), (None, None))
        if reader is None:
            try:
                return self.listed(actor, held, sent, old)
            finally:
                self.checks.update(range(start, len(self.calls)))
        shown_by = reader is not None and asked is not None and shows(self.call(reader.tool, asked), sent)
        self.checks.update(range(start, len(self.calls)))
        if reader is None or not shown_by:
            self.run.not_updaters.add(actor.tool.name)
            self.spoiled = True
            return ()
        fact = fact_shown(f"{actor.tool.name} changes records: after its successful call with the {actor.arg} of "
                          f"a record, {reader.tool.name} showed the values it sent", source="experiment")
        self.run.proven[actor.tool.name] = (fact,)
        return (fact,)

    def listed(self, actor: Actor, held: Held, sent: tuple[str, ...], old: tuple[str, ...]) -> tuple[Fact, ...]:
        """A guessed update judged by a listing that showed its record: one that now shows a value the
        call sent shows the update; one that still shows the record's old values of the fields the
        call named, and none it sent, shows a success that changed nothing (resting on the guess that
        the tool changes records, so never more than its guess allows). Neither: no update, as in prove."""
        update = len(self.calls) - 1
        old = standalone(old, [*held.tokens.values(), *held.stale])
        for lister in self.learned.listers:
            if not any(c.tool == held.tool for c in lister.fact.shown_by):
                continue
            answer = self.listing(lister, self.call(lister.tool, self.learned.widest(lister.tool)))
            at = len(self.calls) - 1
            if shows(answer, sent):
                fact = fact_shown(f"{actor.tool.name} changes records: after its successful call with the {actor.arg} "
                                  f"of a record, {lister.tool.name} showed the values it sent",
                                  calls=(self.calls[held.at], self.calls[update], self.calls[at]), source="experiment")
                self.run.proven[actor.tool.name] = (fact,)
                return (fact,)
            if old and shows(answer, old):
                breach = Breach("probe-silent-noop", actor.tool.name, f"{actor.tool.name} answered a success, yet "
                                f"{lister.tool.name} still shows the values its call replaced, and none it sent",
                                ContainsAny(sent, answered=True), at, (*actor.facts, lister.fact),
                                allowed("high", actor.facts), pinned=(held.at, update))
                self.report([breach], len(self.calls))
        self.run.not_updaters.add(actor.tool.name)
        self.spoiled = True
        return ()

    def moved(self, actor: Actor, held: Held, sent: dict[str, Any]) -> bool:
        """An update after which a keyed read no longer finds the record under its identity but finds
        it under another value the call sent is a move (a rename): the record's identity is that
        value from now on. Where the old identity is refused, a record that claims the new one is the
        record moved, even if it lost every marked value (what it lost is then judged)."""
        start = len(self.calls)
        try:
            return self.rekeyed(actor, held, sent)
        finally:
            self.checks.update(range(start, len(self.calls)))

    def rekeyed(self, actor: Actor, held: Held, sent: dict[str, Any]) -> bool:
        reader, asked = next(((r, a) for r in self.learned.readers if r.kind == "key" and r.arg and r.field
                              and (a := self.ask(r, held)) is not None), (None, None))
        if reader is None:
            return self.relisted(actor, held, sent)
        if asked is None or reader.arg is None or reader.field is None:
            return False
        old = self.call(reader.tool, asked)
        if shows(old, self.unasked(len(self.calls) - 1, held.token_list())):
            return False
        for name, value in sent.items():
            if name == actor.arg or value == asked[reader.arg] or not isinstance(value, str | int):
                continue
            trial = {**asked, reader.arg: value}
            if not self.valid(reader.tool, trial):
                continue
            answer = self.call(reader.tool, trial)
            if shows(answer, self.unasked(len(self.calls) - 1, held.token_list())) or (
                    not old.ok and claims_id(answer, value, held)):
                held.moved(reader.field, value, name)
                return True
        # The keyed read refuses the record under its identity and finds it under no value sent: a move
        # the reads cannot follow, or a loss; which is not known, so the example is judged no further.
        self.spoiled = self.spoiled or not old.ok
        return False

    def relisted(self, actor: Actor, held: Held, sent: dict[str, Any]) -> bool:
        """With no keyed read to follow it, a move shows in a listing: the record, found by values it
        still holds, now has in the field that held the identity the call was given a value the call
        sent under an argument that is no field of the record."""
        def plain(value: Any) -> bool:  # a text or a whole number, never a boolean (False == 0)
            return isinstance(value, str | int) and not isinstance(value, bool)

        old = held.value_of(actor.arg)
        named = [f for f, v in held.args.items() if plain(v) and v == old]
        creator = next((t for t, _ in self.learned.creators if t.name == held.tool), None)
        fields = set(held.args) | set(creator.properties if creator is not None else ())
        moves = [(n, v) for n, v in sent.items() if n not in fields and plain(v) and v != old]
        if not named or not moves:
            return False
        for lister in self.learned.listers:
            if not any(c.tool == held.tool for c in lister.fact.shown_by):
                continue
            answer = self.listing(lister, self.call(lister.tool, self.learned.widest(lister.tool)))
            items = [i for t in held.token_list() for i in records_for(answer, t)]
            for field_, (name, value) in ((f, m) for f in named for m in moves):
                if any(plain(i.get(field_)) and i.get(field_) == value for i in items):
                    held.moved(field_, value, name)
                    return True
        return False

    def remove(self, actor: Actor, held: Held) -> None:
        value = held.value_of(actor.arg)
        if value is None or not held.live:
            return
        answer = self.call(actor.tool, {**self.learned.widest(actor.tool), actor.arg: value})
        if answer.ok and actor.tool.is_read:
            # The tool says it only reads (its annotation or description; its name, a guess that
            # keeps the finding low): the record it took is judged as still held.
            self.check(Step("read", actor.tool.name, held, (read_only_fact(actor.tool), *actor.facts)))
        elif answer.ok:
            held.state, held.removed = REMOVED, (actor.tool.name, len(self.calls) - 1)
            self.made(held.tool, -1)
            if any(h.live and h.tool == held.tool for h in self.held):
                self.run.removals.setdefault(held.tool, set()).add(actor.tool.name)
            self.check(Step("remove", actor.tool.name, held, actor.facts))

    def read(self, reader: Reader, held: Held) -> None:
        args = self.ask(reader, held)
        if args is None:
            return
        self.call(reader.tool, args)
        self.check(Step("read", reader.tool.name, held, (reader.fact,)))

    def look(self, tool: Tool, fact: Fact) -> None:
        if tool.name in self.run.not_counters:
            return
        self.call(tool, self.learned.widest(tool))
        self.check(Step("read", tool.name, None, (fact,)))

    # --- asking readers ---------------------------------------------------------------------------

    def ask(self, reader: Reader, held: Held) -> dict[str, Any] | None:
        """The arguments that ask `reader` for `held`: none where it was not shown to read records of
        that writer."""
        if reader.guessed:
            if reader.tool.name not in self.run.proven_readers:
                return None
            reader = self.run.proven_readers[reader.tool.name]
        if not any(c.tool == held.tool for c in reader.fact.shown_by):
            return None
        base = self.learned.widest(reader.tool)
        if reader.kind == "key" and reader.arg is not None and reader.field is not None:
            value = held.value_of(reader.field)
            return None if value is None else {**base, reader.arg: value}
        if reader.kind == "search" and reader.arg is not None:
            name = search_field(reader, held.args, held.tokens)
            if name is None:
                return None
            # By a part of the text (the marked token) only where the experiments showed a part finds it.
            asks = (held.values.get(name), held.tokens[name] if reader.by_part else None)
            return next(({**base, reader.arg: q} for q in asks
                         if isinstance(q, str) and self.valid(reader.tool, {**base, reader.arg: q})), None)
        return None

    def valid(self, tool: Tool, args: dict[str, Any]) -> bool:
        return fits(tool, args)

    # --- the laws ---------------------------------------------------------------------------------

    def check(self, step: Step) -> None:
        if self.spoiled:
            return
        start = len(self.calls)
        try:
            self.judged(step, start)
        finally:
            self.checks.update(range(start, len(self.calls)))

    def judged(self, step: Step, start: int) -> None:
        step.at = start - 1 if step.at < 0 else step.at  # an update's reads to see a move come after it
        breaches: list[Breach] = []
        answers: dict[tuple[str, int], tuple[int, Outcome]] = {}
        asked: list[tuple[Tool, dict[str, Any], Held, Outcome]] = []
        """Each keyed read or search of a held record and its answer: a counter is checked by them."""
        listed: dict[str, tuple[int, Outcome]] = {}
        for lister in self.learned.listers:
            answer = self.call(lister.tool, self.learned.widest(lister.tool))
            listed[lister.tool.name] = (len(self.calls) - 1, self.listing(lister, answer))
        for index, held in enumerate(self.held):
            for reader in self.learned.readers:
                if reader.kind == "list":
                    if any(c.tool == held.tool for c in reader.fact.shown_by) or held.state == REFUSED:
                        answers[(reader.tool.name, index)] = listed[reader.tool.name]
                    continue
                args = self.ask(reader, held)
                if args is None:
                    continue
                answer = self.call(reader.tool, args)
                answers[(reader.tool.name, index)] = (len(self.calls) - 1, answer)
                asked.append((reader.tool, args, held, answer))
                if reader.kind == "key" and held.live:
                    again = self.call(reader.tool, args)
                    if self.digest(answer, held) != self.digest(again, held):
                        breach = changed_by_read(reader.tool.name, len(self.calls) - 1, (reader.fact,))
                        breach.pinned = (held.at, len(self.calls) - 2)
                        breaches.append(breach)
        for index, held in enumerate(self.held):
            for breach in self.judge(step, index, held, answers, listed):
                removal = (held.removed[1],) if held.removed is not None else ()
                breach.pinned = (held.at, *removal, *((step.at,) if step.at >= 0 else ()))
                breaches.append(breach)
        self.listings = listed
        for judge in self.run.judges:
            breaches += judge.breaches(self)
        if step.kind == "read" and step.tool in {c.tool.name for c in self.learned.counters} and any(
                b.rule == READ_CHANGED and b.tool == step.tool for b in breaches):
            breaches = self.counted(step.tool)
        for counter in self.learned.counters:
            if counter.tool.name in self.run.not_counters or self.spoiled or self.uncounted:
                continue
            delta = self.counted_by(counter)
            if delta is None:
                continue
            answer = self.call(counter.tool, self.learned.widest(counter.tool))
            now = numbers_in(answer).get(counter.path)
            began = self.start.get(counter.tool.name)
            if now is not None and began is not None and answer.ok and now != began + delta:
                breach = miscounted(counter.tool.name, counter.path, len(self.calls) - 1, self.moves(counter),
                                    delta, now, began + delta, (counter.fact,))
                if self.unchanged(asked, listed):
                    breaches += [breach, *self.still_counted(counter, breach, now - began - delta)]
                else:
                    breaches = self.counted(counter.tool.name)
            elif answer.ok:
                breaches += self.by_value(counter, answer, start)
        if step.kind == "read":
            breaches += self.reordered(step, listed)
            if any(b.rule == READ_CHANGED and b.tool == step.tool for b in breaches):
                # The read changed the store: what else breaks now judges the model, not the server.
                breaches = [b for b in breaches if b.rule == READ_CHANGED]
        self.unsized = set()
        for name, (_, answer) in listed.items():
            self.sizes[name], self.marked[name] = size(answer), marked(answer)
            self.orders[name] = self.order(answer)
        self.report(breaches, start)

    def made(self, creator: str, step: int, at: int | None = None) -> None:
        """A record of `creator` made (+1) or removed (-1) by the example's call at `at` (its last
        call by default)."""
        self.delta[creator] = self.delta.get(creator, 0) + step
        self.moved_at[len(self.calls) - 1 if at is None else at] = creator

    def counted_by(self, counter: Counter) -> int | None:
        """The records the example added net that the counter was shown to count (refused writes a
        reader showed stored among them); None where the example changed records of a creator the
        experiments showed it neither counting nor leaving alone: that number is not known."""
        leaked = [self.held[i].tool for i in self.leaked if not self.held[i].amends]
        if {*self.delta, *leaked} - counter.counts - counter.apart:
            return None
        return sum(self.delta.get(c, 0) for c in counter.counts) + sum(t in counter.counts for t in leaked)

    def moves(self, counter: Counter) -> NumberAt:
        """What a replay expects of `counter`: its fresh number, moved by each call of a creator it
        counts that the replay's server accepts (one under a name written before makes none) and by
        each accepted call of a tool that removed such a record here. The replay's calls are counted,
        not this example's: a write the warm server refused (a full store) is made on a fresh one, and
        a reproduction that drops a write expects one record fewer."""
        adds = tuple(sorted(counter.counts))
        names = {t.name: seen.identity or "" for t, seen in self.learned.creators}
        takes = {self.calls[at].tool for at, creator in self.moved_at.items()
                 if creator in counter.counts and self.calls[at].tool != creator}
        return NumberAt(counter.path, counter.fresh, adds, tuple(names.get(a, "") for a in adds), tuple(sorted(takes)))

    def still_counted(self, counter: Counter, breach: Breach, over: float) -> list[Breach]:
        """Law 4 on a count: where the number stands above the example's by exactly the records of
        its creators the example removed, none of those removals moved it, so it still counts each
        record removed with success (`kept_count`, named on the remover as law 4 names a reader that
        still shows one). Law 5's breach of the same read stays beside it: which one names the cause,
        a removal kept or a number drifting, no count can tell (both answer alike until an identity
        removed is written again), so the machine raises the law 4 one first and the law 5 one in
        a later round (probe.py), each confirmed on its own."""
        gone = [(h.at, h.removed) for h in self.held if h.state == REMOVED and h.removed is not None
                and h.tool in counter.counts]
        if not gone or over != len(gone):
            return []
        tool = gone[-1][1][0]
        facts = next((a.facts for a in self.learned.removers if a.tool.name == tool), ())
        found = kept_count(breach, tool, counter.tool.name, counter.path, len(gone), (*facts, counter.fact))
        # The law rests on each removed record's write and removal; the replay's number counts the
        # writes it keeps, so any other write may go.
        found.pinned = tuple(sorted({at for write, (_, removal) in gone for at in (write, removal)}))
        return [found]

    def by_value(self, counter: Counter, answer: Outcome, start: int) -> list[Breach]:
        """Law 5 on a number a count shows per value of a field (its path ends with a value the
        field's schema lists, and with no other field's): it moves by the example's live records
        that hold that value now. Judged only where every record the example made is held and its
        value of the field known (an update that left the field out may have reset it)."""
        if self.untracked or self.uncounted or self.leaked:
            return []
        began, now = self.numbers.get(counter.tool.name, {}), numbers_in(answer)
        mine = [h for h in self.held if h.state != REFUSED and h.tool in counter.counts]
        found = []
        for path, number in sorted(now.items()):
            value = path.rsplit(".", 1)[-1]
            fields = {name for tool, _ in self.learned.creators if tool.name in counter.counts
                      for name, schema in tool.properties.items()
                      if isinstance(schema, dict) and value in (schema.get("enum") or [])}
            if path == counter.path or path not in began or path not in counter.numbers or len(fields) != 1:
                continue
            name = fields.pop()
            if any(h.live and name not in h.values for h in mine):
                continue
            holding = sum(h.live and h.values[name] == value for h in mine)
            if number - began[path] != holding:
                at = len(self.calls) - 1
                found.append(Breach(
                    "probe-count-wrong", counter.tool.name, f"{counter.tool.name}'s {path} moved by "
                    f"{number - began[path]:g} while the example holds {holding} record(s) whose {name} is "
                    f"{value!r} now", NumberAt(path, counter.numbers[path] + holding), at, (counter.fact,), "medium",
                    details={"path": path, "expected_change": holding, "shown": number},
                    pinned=tuple(i for i in range(start) if i not in self.checks)))
        return found

    def order(self, answer: Outcome) -> list[Held]:
        """The live records a listing shows, in the order it shows them."""
        text = shown(answer) if answer.ok else ""
        at = {id(h): text.find(m) for h in self.held if h.live and (m := h.mark()) is not None}
        return sorted((h for h in self.held if at.get(id(h), -1) >= 0), key=lambda h: at[id(h)])

    def reordered(self, step: Step, listed: dict[str, tuple[int, Outcome]]) -> list[Breach]:
        """Law 1 on a listing's order: after a call that only reads, the records the listing showed
        before stand in the same order (a read that moves a record to the newest end changed it).
        Only the record read and the read stay pinned: any two records stand in order after a read of a
        correct store, so a replay may leave out the writes of the others (a record not shown is not
        judged)."""
        found = []
        for name, (at, answer) in listed.items():
            now, before = self.order(answer), [h for h in self.orders.get(name, []) if h.live]
            both = [h for h in before if h in now]
            if len(both) > 1 and [h for h in now if h in both] != both:
                marks = tuple(m for h in both if (m := h.mark()) is not None)
                read = [h.at for h in both if h is step.target] or [h.at for h in both]
                found.append(Breach(READ_CHANGED, step.tool, f"a record was read by {step.tool}: "
                                    f"{name} then shows the records in another order than before the read",
                                    InOrder(marks), at, (*step.facts, self.lister_fact(name)), "medium",
                                    pinned=(*read, step.at)))
        return found

    def lister_fact(self, name: str) -> Fact:
        return next(r.fact for r in self.learned.listers if r.tool.name == name)

    def report(self, breaches: list[Breach], start: int) -> None:
        """The first breach not yet confirmed is kept with the calls up to its read, and stops the
        example; the calls from `start` on were the check's. A spoiled example judges nothing: what
        it holds is no longer what its model says, whichever law looks."""
        if self.spoiled:
            return
        checks = self.checks | set(range(start, len(self.calls)))
        broken = first([b for b in breaches if self.run.fresh(b, steps_of(*self.replayed(b, checks)))])
        # A count already tried says nothing of the records: the example goes on, its counts unjudged
        # (a store that drops records past a size moves no count with each write once full).
        if breaches and broken is None and all(isinstance(b.expect, NumberAt) for b in breaches):
            self.uncounted = True
            return
        self.spoiled = self.spoiled or (bool(breaches) and broken is None)
        if broken is not None:
            broken.history = self.run.writes
            self.checks.update(range(start, len(self.calls)))
            self.run.breaches.append((broken, *self.replayed(broken, self.checks)))
            raise LawBroken(broken.message)

    def replayed(self, breach: Breach, checks: set[int]) -> tuple[list[Call], set[int]]:
        """The calls a fresh replay of `breach` starts from, and which of them are the checks': the
        example's up to its read, or the breach's own replay (all steps)."""
        if breach.replay:
            return list(breach.replay), set()
        return self.calls[:breach.at + 1], set(checks)

    def counted(self, tool: str) -> list[Breach]:
        """A tool taken for a count whose call changed what the readers show: it does more than
        count (a reload, a sync), so it is no reader and none of its numbers is judged; the
        example's model no longer holds, so nothing it shows now is judged."""
        self.run.not_counters.add(tool)
        self.spoiled = True
        return []

    def unchanged(self, asked: list[tuple[Tool, dict[str, Any], Held, Outcome]],
                  listed: dict[str, tuple[int, Outcome]]) -> bool:
        """The readers show the held records as they did before the counters were called."""
        for reader in self.learned.listers:
            again = self.listing(reader, self.call(reader.tool, self.learned.widest(reader.tool)))
            if any(self.digest(again, h) != self.digest(listed[reader.tool.name][1], h) for h in self.held):
                return False
        return all(self.digest(self.call(tool, args), held) == self.digest(answer, held)
                   for tool, args, held, answer in asked)

    def digest(self, answer: Outcome, held: Held) -> tuple[Any, ...]:
        mark = marking(answer, held)
        return (answer.ok, tuple(t for t in held.token_list() if t in shown(answer)),
                tuple(differing(answer, mark, held.values, self.enums)) if mark else ())

    def judge(self, step: Step, index: int, held: Held, answers: dict[tuple[str, int], tuple[int, Outcome]],
              listed: dict[str, tuple[int, Outcome]]) -> list[Breach]:
        mine = step.target is held
        found: list[Breach] = []
        readers = [(r, *answers[(r.tool.name, index)]) for r in self.learned.readers
                   if (r.tool.name, index) in answers]
        if held.state == REFUSED:
            for reader, at, answer in readers:
                if shows(answer, tokens := self.unasked(at, held.token_list())):
                    self.leaked.add(index)  # stored after all: counted as a record from now on
                    found.append(kept("probe-refusal-changed-state", held.tool, reader.tool.name, at, tokens,
                                      (*step.facts, reader.fact) if mine else (reader.fact,),
                                      f"a call of {held.tool} was refused, yet what it sent was stored"))
            for reader, at, answer in readers if not found else []:
                if self.found_refused(reader, held, answer):
                    self.leaked.add(index)
                    found.append(Breach(
                        "probe-refusal-changed-state", held.tool, f"a call of {held.tool} was refused, yet "
                        f"{reader.tool.name} asked for the identity it sent answers a record, where it refuses "
                        "an identity never written", FindsNothing(str(held.value_of(reader.field or ""))), at,
                        (*step.facts, reader.fact) if mine else (reader.fact,)))
            return found
        tokens = tuple(sorted(held.tokens.values()))
        if held.state == REMOVED:
            for reader, at, answer in readers:
                if held.shared and reader.kind != "key":
                    continue  # the records that name it show there: law 9 (references.py) judges them
                every = self.unasked(at, tuple(sorted({*tokens, *held.stale})))
                if (reader.tool.name in held.shown | held.relisted or reader.kind != "list") and shows(answer, every):
                    found.append(kept("probe-delete-kept", held.removed[0] if held.removed else step.tool,
                                      reader.tool.name, at, every, (*step.facts, reader.fact),
                                      "a record was removed with success"))
                elif reader.kind == "key" and reader.arg is not None and answer.ok and claims_record(
                        answer, asked := self.calls[at].arguments.get(reader.arg),
                        members := tuple(sorted(self.run.shapes.get(reader.tool.name, ()))),
                        flags := tuple(sorted(self.run.flags.get(reader.tool.name, ())))):
                    found.append(made_up(reader.tool.name, at, asked, (*step.facts, reader.fact), members, flags))
            return found
        for reader, at, answer in readers:
            if reader.kind == "key" and answer.ok:
                for record in self.records_read(reader, at, answer, tokens):
                    self.run.shapes.setdefault(reader.tool.name, set()).update(record)
                    trues = {k for k, v in record.items() if v is True and k not in self.written}
                    self.run.flags[reader.tool.name] = self.run.flags.get(reader.tool.name, trues) & trues
        showing = [r for r, _, a in readers if shows(a, tokens)]
        if not tokens:
            return found  # its writes left it no marked value: no reader can be asked whether it shows it
        if mine and step.kind in ("create", "update") and not showing:
            # After a move the keyed read under the new identity is the one to judge by.
            # An update after which a keyed read refuses the record did something (a move the reads
            # could not follow, say): not a success that stored nothing.
            asked = sorted((r for r in readers if r[0].kind != "list" and self.claims(held) and (
                step.kind == "create" or step.moved or r[0].kind != "key" or r[2].ok)),
                key=lambda r: step.moved and r[0].kind != "key")
            # A patch that sent no marked value is seen only by what it left out: those gone are lost.
            left = bool(step.named) and not step.moved and not any(t in sent(self.calls[step.at].arguments)
                                                                    for t in tokens)
            if not step.moved and not left and (lost := self.dropped(step, held, asked, tokens)) is not None:
                return [lost]
            for reader, at, _ in asked[:1]:
                found.append(missing(RENAME_LOST, step.tool, reader.tool.name, at, tokens, (*step.facts, reader.fact),
                                     f"{step.tool} gave the record a new identity, and lost what it held")
                             if step.moved else
                             replace(missing("probe-data-lost", step.tool, reader.tool.name, at, tokens,
                                             (*step.facts, *step.guessed(), reader.fact),
                                             f"{step.tool} changed only the fields its call named, yet the "
                                             "record lost the values it left out"),
                                     confidence=allowed("high", step.guessed()))
                             if left else
                             missing("probe-silent-noop", step.tool, reader.tool.name, at, tokens,
                                     (*step.facts, reader.fact),
                                     f"{step.tool} answered a success, yet no reader shows what it wrote"))
            if not found and step.kind == "create":
                found += self.unlisted(step, held, readers, listed)
            elif not found and not step.moved:
                found += self.unapplied(step, held, readers)
            return found
        for reader, at, answer in readers:
            name = reader.tool.name
            # A search by any text is judged only on the records it showed: which text it matches
            # was shown for one record, not for every field a write sets.
            one_more = size(answer) == self.sizes.get(name, -1) + 1 and not self.continues(reader, answer) \
                and name not in self.unsized
            if reader.kind == "list" and name not in held.shown and shows(answer, tokens) and not differing(
                    answer, marking(answer, held), held.values, self.enums):
                # Shown again as last written after a series' writes left every listing's window unknown:
                # law 4 asks it again once the record is removed (fields are judged only where the
                # listing showed the record at its own write).
                held.relisted.add(name)
            expected = name in held.shown or reader.kind == "key" or (
                reader.kind == "search" and (reader.field != TEXT or shows(answer, tokens))) or (
                reader.kind == "list" and mine and step.kind == "create" and (one_more or shows(answer, tokens)))
            if not expected:
                continue
            if not shows(answer, tokens):
                if name in self.tailed and step.kind in ("create", "update") and not shows(
                        answer, tuple(sorted(held.stale))):
                    continue  # a write may push a record from the first page to one before the tail
                grew = size(answer) > self.sizes.get(name, 0) and not self.full(reader.tool, answer) \
                    and name not in self.unsized
                # A window keeps its size as a write pushes a record out; one that shrank at a create lost records.
                shrank = step.kind == "create" and name not in self.unsized and size(answer) < self.sizes.get(
                    name, 0) and marked(answer) < self.marked.get(name, 0)
                if reader.kind == "list" and step.kind in ("create", "update") and not mine and not grew \
                        and not shrank:
                    held.shown.discard(name)  # a window of the newest or oldest records, not a loss
                    continue
                rule, tool, what = self.blame(step, mine, name)
                facts = (*step.facts, reader.fact)
                if rule == "probe-data-lost" and (loss := self.fold_loss(step, held)) is not None:
                    rule, what, facts = FOLDED, loss[0], (*facts, loss[1])
                found.append(missing(rule, tool, name, at, tokens, facts, what))
                continue
            held.shown.add(name)
            mark = marking(answer, held)
            diffs = differing(answer, mark, held.values, self.enums)
            if mine and step.moved:
                found += self.left_behind(step, held, reader, answer, mark, at)
            if mark is not None:
                held.fields[name] = (frozenset(k for r in records_for(answer, mark) for k in r if k in held.values), at)
            if not diffs:
                held.agreed.add(name)
            elif not mine and name not in held.agreed:
                continue  # a field this reader never showed as written: not this step's doing
            if mine and reader.kind == "key" and (unseen := self.unshown(step, held, reader, answer, mark, at)):
                found.append(unseen)
            # Every named field as before where another reader shows them as written is a reader
            # behind (a cache), not an update that did nothing.
            ignored = mine and step.kind == "update" and bool(held.before) and all(
                any(d[0] == k and d[2] == v for d in diffs) for k, v in held.before.items()) and not any(
                r.tool.name != name and shows(a, tokens) and not differing(a, marking(a, held), held.values, self.enums)
                for r, _, a in readers)
            for diff in diffs:
                rule, tool, what = self.blame(step, mine, name)
                if ignored:
                    rule, tool, what = ("probe-silent-noop", step.tool, f"{step.tool} answered a success, yet every "
                                        "field it named reads back as before")
                elif mine and step.moved:
                    rule, tool, what = (RENAME_LOST, step.tool, f"{step.tool} gave the record a new identity "
                                        "and changed another field")
                elif mine and step.named and diff[0] not in step.named and self.set_by(step, diff[2]):
                    continue  # the update sent this value under another name (a state for a status)
                elif mine and step.named and diff[0] not in step.named:
                    patch = self.keeps_left_out(step, held, answer, mark, diffs, at) or step.guess
                    lost = field_breach("probe-data-lost", step.tool, name, at, mark or "", diff,
                                        (*step.facts, *(() if patch is None else (patch,)), reader.fact),
                                        f"{step.tool} changed a field its call did not name", tokens)
                    found.append(replace(lost, confidence=allowed(diff[3], () if patch is None else (patch,))))
                    continue
                elif rule == "probe-silent-noop" or (rule == "probe-readers-disagree" and not any(
                        not differing(a, marking(a, held), {diff[0]: diff[1]}, self.enums) and shows(a, tokens)
                        and r.tool.name != name for r, _, a in readers)):
                    rule, tool = "probe-value-changed", step.tool
                found.append(field_breach(rule, tool, name, at, mark or "", diff,
                                          (*step.facts, reader.fact), what, tokens))
        return found

    def dropped(self, step: Step, held: Held, asked: list[tuple[Reader, int, Outcome]],
                tokens: tuple[str, ...]) -> Breach | None:
        """A write no reader shows that a keyed read shows stored, without the fields that carried
        its marker (dropped.py): a field lost, not a success that stored nothing."""
        writers = [t for t, _ in self.learned.creators] + [a.tool for a in self.learned.updaters]
        writer = next((t for t in writers if t.name == step.tool), None)
        for reader, at, answer in asked:
            value = self.calls[at].arguments.get(reader.arg) if reader.kind == "key" and reader.arg else None
            if lost := dropped(answer, value, reader.field, held.values, tokens, writer):
                return Breach("probe-value-changed", step.tool, f"{step.tool} stored the record without "
                              f"{', '.join(lost)}: {reader.tool.name} shows it under {short(value)} with its "
                              "other values as written, and that field blank or left out",
                              ContainsAny(tokens, answered=True), at, (*step.facts, reader.fact),
                              details={"field": lost[0], "written": held.values.get(lost[0]), "read": None})
        return None

    def unshown(self, step: Step, held: Held, reader: Reader, answer: Outcome, mark: str | None,
                at: int) -> Breach | None:
        """Law 3 on a field the write sent that its record, as a keyed read shows it, leaves out: the
        one value of the call the record lacks (neither blank nor the schema's default, which a store
        may leave out), its other fields shown, and a field this reader never showed on any record
        the machine wrote (one shown on some records only is a sparse record, judged elsewhere).
        That the argument is a field of the record at all is the writer's schema's word (a guess:
        low), unless the write's own answer showed it on the record (medium: an answer may echo its
        call)."""
        if step.kind not in ("create", "update") or step.moved or mark is None:
            return None
        writers = [t for t, _ in self.learned.creators] + [a.tool for a in self.learned.updaters]
        writer = next((t for t in writers if t.name == step.tool), None)
        records = records_for(answer, mark)
        if writer is None or not records:
            return None
        props = writer.properties
        given = {k: v for k, v in self.calls[step.at].arguments.items()
                 if k in props and k not in (reader.arg, reader.field) and k in held.values}
        left = [k for k, v in given.items() if not blank(v) and not defaulted(props[k], v)
                and not any(k in r for r in records)]
        if len(left) != 1 or not any(k in r for k in given for r in records):
            return None
        name = left[0]
        token = held.tokens.get(name)
        if name in self.run.shapes.get(reader.tool.name, set()) or (token is not None and token in sent(records)):
            return None  # shown on another record, or under another name
        facts: tuple[Fact, ...] = (fact_guessed(f"{name} is a field of the record {step.tool} writes: its "
                                                "schema takes it", source="schema"),)
        wrote = held.answer if step.kind == "create" else self.run.answers.get(step.tool, (None, {}))[0]
        if wrote is not None and any(r.get(name) == given[name] for r in records_for(wrote, mark)):
            facts = (fact_shown(f"{step.tool}'s answer showed the record with {name} as written",
                                calls=(self.calls[step.at],), source="experiment"),)
        return Breach("probe-value-changed", step.tool, f"{step.tool} wrote {name} as {short(given[name])}, yet "
                      f"{reader.tool.name} shows the record without it (and never showed {name} on any record)",
                      FieldShown(name, mark), at, (*step.facts, *facts, reader.fact),
                      confidence="medium" if facts[0].shown else allowed("high", facts),
                      details={"field": name, "written": given[name], "read": None})

    def left_behind(self, step: Step, held: Held, reader: Reader, answer: Outcome, mark: str | None,
                    at: int) -> list[Breach]:
        """Law 11 on a field the move's call did not send that this reader showed on the record before
        the move and leaves out now (a field dropped, not reset: `differing` judges only the fields a
        record shows). The reader's two reads show it, each of the same record."""
        before = held.fields.get(reader.tool.name)
        records = records_for(answer, mark) if mark is not None else []
        if before is None or not records:
            return []
        sent_now = self.calls[step.at].arguments
        written = [c.arguments for c in self.calls[:step.at]]
        for name in sorted(before[0]):
            if name in sent_now or name not in held.values or any(name in r for r in records):
                continue
            # The record's token the read finds it by, and one a write of the field carried (the move
            # gave the record a new one): a replay judges the record by the first, written by the second.
            found = [t for t in held.token_list() if t not in held.shared and records_for(answer, t)]
            wrote = [t for t in (*held.token_list(), *sorted(held.stale)) if FieldShown(name, t).written_by(written)]
            if not found or not wrote:
                continue
            expect = FieldShown(name, found[0], "" if found[0] in wrote else wrote[0])
            shown_before = fact_shown(f"{reader.tool.name} showed the record's {name} before {step.tool}'s call",
                                      calls=(self.calls[before[1]],), source="experiment")
            return [Breach(RENAME_LOST, step.tool, f"{step.tool} gave the record a new identity, and lost its "
                           f"{name}: {reader.tool.name} showed it before and shows the record without it now",
                           expect, at, (*step.facts, reader.fact, shown_before),
                           details={"field": name, "written": held.values[name], "read": None})]
        return []

    def set_by(self, step: Step, shown_value: Any) -> bool:
        """The value a field reads back is one the step's call sent (as it was, or holding its marker)."""
        given = self.calls[step.at].arguments
        ours = set(MARKER.findall(sent(given)))
        return any(v == shown_value for v in given.values()) or bool(ours & set(MARKER.findall(sent(shown_value))))

    def keeps_left_out(self, step: Step, held: Held, answer: Outcome, mark: str | None,
                       diffs: list[tuple[str, Any, Any, str]], at: int) -> Fact | None:
        """Where the update was taken for a patch by guess, a field its call left out that the
        reader still shows with its own marked value shows the guess: no replace keeps a value
        that is not a default. None where no such field shows."""
        if step.guess is None or mark is None:
            return None
        changed = {d[0] for d in diffs}
        for name, token in sorted(held.tokens.items()):
            if name in step.named or name in changed or name not in held.values:
                continue
            if any(token in json.dumps(v, ensure_ascii=False, default=str) for v in field_values(answer, mark, name)):
                return fact_shown(f"{step.tool} keeps the fields its call leaves out: after it, "
                                  f"{self.calls[at].tool} still showed the record's {name} as last written",
                                  calls=(self.calls[step.at], self.calls[at]), source="experiment")
        return None

    def unlisted(self, step: Step, held: Held, readers: list[tuple[Reader, int, Outcome]],
                 listed: dict[str, tuple[int, Outcome]]) -> list[Breach]:
        """A write no reader shows whose listing did not grow, answered in no refusal shape the run
        knows and naming nothing it wrote: a full window, a full store, a refusal in a shape not learned,
        or a write that stored nothing. The same write again (its marker new) tells them apart: where it
        answers the same (markers aside) and the listing then grows by one and shows it, the listing was
        no full window and the answer no refusal, so the first write stored nothing while answering as
        a write that stores."""
        grown = [(r, at, a) for r, at, a in readers if r.kind == "list" and a.ok
                 and r.tool.name not in self.run.windows | self.unsized and not self.continues(r, a)
                 and not self.full(r.tool, a) and size(a) == self.sizes.get(r.tool.name, -1)]
        tool = next((t for t, _ in self.learned.creators if t.name == held.tool), None)
        if not grown or tool is None:
            return []
        reader, at, answer = grown[0]
        name, marker = reader.tool.name, self.run.marker()
        args = json.loads(json.dumps(self.calls[held.at].arguments).replace(held.marker, marker))
        again = self.call(tool, args)
        copy, copied_at = self.calls[-1], len(self.calls) - 1
        now = self.listing(reader, self.call(reader.tool, self.learned.widest(reader.tool)))
        listed[name] = (len(self.calls) - 1, now)
        stored = again.ok and size(now) == size(answer) + 1 and shows(now, tuple(sorted(marks(args, marker).values())))
        if stored:
            self.run.writes += 1
            self.made(tool.name, +1, copied_at)
        else:
            self.uncounted = self.uncounted or again.ok  # what the call made is not known: no count is judged
        self.untracked = True
        if not stored or MARKER.sub("", shown(again)) != MARKER.sub("", shown(held.answer)) or shows(
                now, tokens := tuple(sorted(held.tokens.values()))):
            if again.ok and size(now) == size(answer):
                self.run.windows.add(name)
            return []
        fact = fact_shown(f"{name} did not grow by a write of {held.tool}, and grew by one at the same write "
                          "again (another marker), which answered the same and which it then showed: no full "
                          "window, and an answer no refusal", calls=(self.calls[held.at], self.calls[at], copy,
                                                                     self.calls[-1]), source="experiment")
        return [missing("probe-silent-noop", step.tool, name, at, tokens, (*step.facts, reader.fact, fact),
                        f"{step.tool} answered as it answers a write it stores, yet stored nothing")]

    def unapplied(self, step: Step, held: Held, readers: list[tuple[Reader, int, Outcome]]) -> list[Breach]:
        """An update answered a success, and a listing still shows the record with the values its call
        replaced and none it sent: the record is in the listing's window, unchanged (a window of
        other records would show neither)."""
        old = standalone((t for t in held.stale if t in sent(held.before)), [*held.tokens.values(), *held.stale])
        tokens = tuple(sorted(held.tokens.values()))
        for reader, at, answer in readers:
            if reader.kind == "list" and old and shows(answer, old):
                return [Breach("probe-silent-noop", step.tool, f"{step.tool} answered a success, yet "
                               f"{reader.tool.name} still shows the values its call replaced, and none it sent",
                               ContainsAny(tokens, answered=True), at, (*step.facts, reader.fact))]
        return []

    def records_read(self, reader: Reader, at: int, answer: Outcome, tokens: tuple[str, ...]) -> list[dict[str, Any]]:
        """The records a keyed read of a live record showed: those holding its tokens, and the object
        that carries the asked id around them (a token nested in an object of the record finds that
        object, whose members are not the record's shape)."""
        found = [r for t in tokens for r in records_for(answer, t)]
        asked = self.calls[at].arguments.get(reader.arg) if reader.arg is not None else None
        if asked is None:
            return found
        return found + [r for r in records_under(answer.value(), [str(asked)]) if r not in found
                        and any(t in json.dumps(r, ensure_ascii=False) for t in tokens)]

    def found_refused(self, reader: Reader, held: Held, answer: Outcome) -> bool:
        """A keyed read of the identity a refused create sent that answers a success naming it, where
        the same read of an identity no call wrote (the identity reversed) answers a refusal. A refused
        overwrite (law 10) sends an identity a live record holds: that record answers, so it is not judged."""
        value = held.value_of(reader.field or "")
        creator = any(t.name == held.tool for t, _ in self.learned.creators)
        if reader.kind != "key" or not creator or not isinstance(value, str) or not answer.ok \
                or value not in shown(answer) or len(set(value)) < 3:
            return False
        if any(other is not held and other.live and other.value_of(reader.field or "") == value
               for other in self.held):
            return False
        args = self.ask(reader, held)
        other = value[::-1]
        if args is None or reader.arg is None or identity_text(other) in self.learned.used:
            return False
        control = {**args, reader.arg: other}
        if not self.valid(reader.tool, control):
            return False
        key = (reader.tool.name, other)
        if key not in self.run.controls:
            self.run.controls[key] = self.run.conn.call(reader.tool.name, control).ok
        return not self.run.controls[key]

    def continues(self, reader: Reader, answer: Outcome) -> bool:
        """The listing's answer names a next page: it is a window, whose size says nothing of the store's."""
        paging = self.run.paging(reader) if reader.kind == "list" else None
        return isinstance(paging, Pager) and scalars(answer).get(paging.member) is not None

    def whole(self, reader: Reader, answer: Outcome) -> bool:
        """A listing that shows the whole store: no next page, not full, not a window the run saw."""
        return answer.ok and not self.continues(reader, answer) and not self.full(reader.tool, answer) \
            and reader.tool.name not in self.run.windows | self.unsized | self.tailed

    def full(self, tool: Tool, answer: Outcome) -> bool:
        """A listing that answered as many records as the largest page it was asked for: a window
        (a series of writes between two checks can grow it to its full page)."""
        asked = self.learned.widest(tool)
        pages = [v for b in profile(tool).bounds if b.kind == "limit" and isinstance(v := asked.get(b.param), int)]
        return bool(pages) and size(answer) >= pages[0]

    def unasked(self, at: int, tokens: tuple[str, ...]) -> tuple[str, ...]:
        """The tokens the read at `at` was not asked with, unless the reader was seen not to echo
        that argument: an answer that only echoes the value it was asked for ("no note titled X")
        does not show the record."""
        call = self.calls[at]
        asked = [v for k, v in call.arguments.items() if isinstance(v, str) and self.run.echoes(call, k)]
        return tuple(t for t in tokens if not any(t in text for text in asked))

    def claims(self, held: Held) -> bool:
        """A write's answer that names what it wrote (a value sent, or a value it made): a success, not
        a refusal in a shape the run has not learned."""
        text = shown(held.answer)
        return any(t in text for t in held.tokens.values()) or bool(held.ids)

    def fold_loss(self, step: Step, lost: Held) -> tuple[str, Fact] | None:
        """Why a write lost another record, when its identity differs from the lost one's only in
        case, surrounding spaces or Unicode form: the two identities made one record (law 8), with
        the fact that showed the identity. None where the identity was not shown."""
        written = step.target
        seen = next((s for t, s in self.learned.creators if t.name == step.tool), None)
        if written is None or seen is None or seen.identity is None or seen.identity_fact is None:
            return None
        new, old = written.args.get(seen.identity), lost.args.get(seen.identity)
        if not isinstance(new, str) or not isinstance(old, str) or new == old or folded(new) != folded(old):
            return None
        return (f"{step.tool} wrote {new!r} after {old!r}: two identities made one record and the first "
                "one's data was lost", seen.identity_fact)

    @staticmethod
    def blame(step: Step, mine: bool, reader: str) -> tuple[Any, str, str]:
        if step.kind == "read":
            return READ_CHANGED, step.tool, f"a record was read by {step.tool}"
        if step.kind == "refused":
            # Law 2: a refused call changes nothing, the record it named (a refused patch that sent no
            # marked value, held by none of its own) or any other.
            return "probe-refusal-changed-state", step.tool, f"a call of {step.tool} was refused, yet a record changed"
        if mine and step.kind in ("create", "update"):
            return "probe-readers-disagree", reader, f"{step.tool} wrote a record and another reader shows it"
        if step.kind == "remove":
            return "probe-delete-took-other", step.tool, f"{step.tool} removed another record"
        return "probe-data-lost", step.tool, f"{step.tool} wrote another record"


def steps_of(calls: list[Call], checks: set[int]) -> frozenset[str]:
    """The tools an example's steps called (its checks' reads left out)."""
    return frozenset(c.tool for i, c in enumerate(calls) if i not in checks)


def claims_record(answer: Outcome, asked: Any, members: tuple[str, ...] = (), flags: tuple[str, ...] = ()) -> bool:
    """The answer shows a record under the asked id (rules.answers.claimed_record), in JSON or text;
    with `members`, the shape the reader showed stored records in, one in that shape counts too
    (rules.answers.shaped_record), unless it sets false a flag every stored record set true."""
    ids = [str(asked)]
    return any(claimed_record(r, ids) is not None or shaped_record(r, ids, members, flags) is not None
               for r in [answer.value(), *text_records(answer)])


def claims_id(answer: Outcome, value: Any, held: Held) -> bool:
    """The answer shows a record under `value` that also holds one of `held`'s other values as
    written: the record, moved."""
    found = [r for v in values_of(answer) for r in nested_objects(v)] or text_records(answer)
    return answer.ok and any(value in r.values() and any(
        r.get(k) == v for k, v in held.values.items() if v not in (None, "", [], {}, value) and not isinstance(v, bool))
        for r in found)


def standalone(tokens: Iterable[str], others: list[str]) -> tuple[str, ...]:
    """The tokens no other token of the record holds: a bare marker (`hm1a2b`, in a field whose
    pattern takes no more) shows wherever `hm1a2b-title` does, so it shows nothing of its own field."""
    return tuple(sorted(t for t in tokens if not any(t != o and t in o for o in others)))


def unnameable(held: Held, actor: Actor) -> dict[str, Any]:
    """The record's written fields the update's schema has no name for: it cannot mean to set them
    (to a default or any value), so an update that changes one lost it, whatever else it replaces."""
    return {k: v for k, v in held.values.items()
            if k != actor.arg and v is not None and k not in actor.tool.properties}


def marking(answer: Outcome, held: Held) -> str | None:
    """The record's token that finds its record in the answer: a field the write marked may be the
    one the store lost, so each is tried, the latest written first (a later marker sorts after). A
    token of a nested object's field finds that object: one that finds a record holding a field the
    write set at its top comes first."""
    marks = sorted((t for t in held.token_list() if t not in held.shared), reverse=True)
    found = [t for t in marks if records_for(answer, t)]
    return next((t for t in found if any(set(r) & set(held.values) for r in records_for(answer, t))),
                next(iter(found), held.mark()))


def enums(learned: Learned) -> dict[str, list[Any]]:
    """The members each enum field of the writers allows: one read back as another is a loss."""
    tools = [t for t, _ in learned.creators] + [a.tool for a in learned.updaters]
    return {name: sub["enum"] for t in tools for name, sub in t.properties.items()
            if isinstance(sub, dict) and isinstance(sub.get("enum"), list)}


@dataclass(frozen=True)
class Duty:
    """A step the machine takes itself, not one Hypothesis draws: called after every example's first
    record (with the example's draws), it decides whether to act (once a round, say). A check that
    must run on every server that allows it is a duty: a rule is drawn only as the search's order of
    rules and its draws happen to fall, which any other rule's change moves."""

    act: Callable[[Any, st.DataObject], None]


@dataclass(frozen=True)
class Check:
    """A judgement a law's module adds to every check, after the machine's own (the breaches it
    finds): it makes its calls inside the check, so it adds no rule and moves no draw."""

    breaches: Callable[[Example], list[Breach]]


Law = Callable[[Run], dict[str, Any]]
"""A law of its own module: the machine's rules it adds, by name, its duties (`Duty`) and its
judgements at every check (`Check`)."""


def build(run: Run, laws: tuple[Law, ...] = ()) -> type[RuleBasedStateMachine]:
    learned = run.learned
    creators = learned.creators
    keyed = [r for r in learned.readers if r.kind != "list"]
    lookers: list[tuple[Tool, Fact]] = [(r.tool, r.fact) for r in learned.listers] + [
        (c.tool, c.fact) for c in learned.counters]
    # Every plain text carries the marker whatever it is called, as in the experiments that showed the
    # roles: a record whose only text is named like a code (`color`) is then still told apart.
    writes = {t.name: full_arguments(t).map(partial(all_marked, t)) for t, _ in creators}
    patches = {a.tool.name: full_arguments(a.tool).map(partial(all_marked, a.tool)) for a in learned.updaters}

    def turned(which: int, count: int) -> int:
        """The tool a rule's draw picks, turned by the example's number: a search's first examples draw
        the first tool of each role again and again, and a role's other tools would go untried."""
        return (which + run.examples) % count

    class Laws(RuleBasedStateMachine):
        records = Bundle("records")

        def __init__(self) -> None:
            super().__init__()
            run.examples += 1
            if run.breaches and run.first_broken is None:
                run.first_broken = run.examples
            self.inert = run.first_broken is not None and run.examples - run.first_broken > SHRINK_EXAMPLES
            self.example = Example(run)

        @initialize(target=records, which=st.sampled_from(range(len(creators))), data=st.data())
        def begin(self, which: int, data: st.DataObject) -> Any:
            """Every example starts with a record: a step of any other rule then has one to act on.
            The laws' duties follow it."""
            if run.stop() or self.inert:
                return multiple()
            held = self.create(which, data)
            for duty in duties:
                duty.act(self, data)
            return held

        @precondition(lambda self: len(self.example.held) < MAX_RECORDS and not run.stop() and not self.inert)
        @rule(target=records, which=st.sampled_from(range(len(creators))), data=st.data())
        def create(self, which: int, data: st.DataObject) -> Any:
            tool, seen = creators[turned(which, len(creators))]
            run.last_refused = None
            held = self.example.create(tool, seen.identity, data.draw(writes[tool.name]))
            self.carry(data)
            return multiple() if held is None else held

        @precondition(lambda self: bool(learned.updaters) and bool(self.bundle("records")) and not self.inert)
        @rule(data=st.data())
        def amend(self, data: st.DataObject) -> None:
            """An update of a held record. Hypothesis draws the first rule of its order (no target, the
            fewest arguments, then the name) in its simplest examples, the first two of every round, and
            more often than any other after: with one draw and this name the update is that rule, so
            those examples change their own records instead of reading one listing again and again."""
            held = data.draw(self.records)
            which = data.draw(st.integers(0, len(learned.updaters) - 1))
            actor = learned.updaters[turned(which, len(learned.updaters))]
            run.last_refused = None
            self.example.update(actor, held, data.draw(patches[actor.tool.name]))
            self.carry(data)

        def carry(self, data: st.DataObject) -> None:
            """Law 2 across writers: a call the last step's writer was refused is made again at once
            through every other updater that takes the same fields, on the example's newest live
            record (a store's rule for a value holds for all its writers, and one of them may keep
            what it refuses). Hypothesis's draws alone seldom bring the refused values to another
            writer, and the updates may all come before the first refusal."""
            writer, live = run.last_refused, [h for h in self.example.held if h.live]
            if writer is None or not live:
                return
            for actor in [a for a in learned.updaters if a.tool.name != writer]:
                self.example.update(actor, live[-1], data.draw(patches[actor.tool.name]), carry=True)

        @precondition(lambda self: bool(learned.removers) and not self.inert)
        @rule(held=consumes(records), which=st.integers(0, max(0, len(learned.removers) - 1)))
        def remove(self, held: Held, which: int) -> None:
            """Where the machine begins with removers, law 4's own (removals.py) takes this name; this
            one removes through a remover a keyed read showed removing later in the run."""
            self.example.remove(learned.removers[turned(which, len(learned.removers))], held)

        @precondition(lambda self: bool(keyed) and not self.inert)
        @rule(held=records, which=st.integers(0, max(0, len(keyed) - 1)))
        def read(self, held: Held, which: int) -> None:
            self.example.read(keyed[turned(which, len(keyed))], self.example.oldest(held))

        @precondition(lambda self: bool(lookers or keyed) and not self.inert)
        @rule(which=st.integers(0, max(0, len(lookers) + len(keyed) - 1)))
        def look(self, which: int) -> None:
            """A step that only reads: a listing, a count, or a keyed read of the example's newest live
            record. The search draws this rule most (it takes the fewest draws): keyed reads here are
            as common as looks, where `read`, one rule among many, may go undrawn for a whole run."""
            at = turned(which, len(lookers) + len(keyed))
            live = [h for h in self.example.held if h.live]
            if at < len(lookers):
                self.example.look(*lookers[at])
            elif live:
                self.example.read(keyed[at - len(lookers)], self.example.oldest(live[-1]))

    duties: list[Duty] = []
    run.judges = []
    for law in laws:
        for name, method in law(run).items():
            if isinstance(method, Duty):
                duties.append(method)
            elif isinstance(method, Check):
                run.judges.append(method)
            else:
                setattr(Laws, name, method)
    return Laws
