"""Pages cover: a listing walked page by page shows every record the run wrote exactly once.

A reader that takes an offset (`offset`, `skip`, `start`), a page number (`page`) or a cursor
(`cursor`, `page_token`, the answer's `next_cursor`) is walked from its first page to the end,
for page sizes Hypothesis draws, on a fresh server holding records a write made with marked
values. A record on two pages was repeated; a record one large page shows and no page of the walk
shows was skipped. Only records this run wrote are judged: a store's own data has no known truth
to walk it against, so a read-only run does not judge pages.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import Flaky

from hypothesis_mcp.catalog import Tool, snake
from hypothesis_mcp.connection import Connection, Outcome
from hypothesis_mcp.model.facts import Fact, fact_guessed, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.results import CONFIDENCE_ORDER, Binding, Call, RuleId
from hypothesis_mcp.rules.answers import items_of, shown
from hypothesis_mcp.rules.bindings import find_id, says_no_more
from hypothesis_mcp.rules.expectations import PagesCover, PagesDisjoint
from hypothesis_mcp.search.seeding import own_draws, scope_salt, seeded
from hypothesis_mcp.stateful.host import ProbeHost, ProbeOutput
from hypothesis_mcp.stateful.judge import ProbeFailure, ProbeFinding
from hypothesis_mcp.stateful.readers import Reader, choose_readers, tokens
from hypothesis_mcp.stateful.roles import updated_id
from hypothesis_mcp.stateful.updates import needs_record
from hypothesis_mcp.strategies import PLACEHOLDER, marked_arguments, salted_marker, with_marker
from hypothesis_mcp.vocabulary import LIMIT_NAMES

OFFSETS = frozenset({"offset", "skip", "start"})
PAGE_NUMBERS = frozenset({"page", "page_number"})
NEXT_NAMES = ("next_cursor", "next_page_token", "next_token", "continuation_token", "next", "cursor", "page_token")
"""Where an answer holds the cursor of the page after it."""
MAX_RECORDS = 6
SHRINK_EXAMPLES = 4
"""Examples the search may spend shrinking a failure before `tighten` takes over."""
MAX_PAGES = 40
LARGE_PAGE = 100


@dataclass(frozen=True)
class Paging:
    """How a reader pages: the parameter that moves (`style` offset, page or cursor), the one that
    sizes a page (if any, with its range), and the number of the first page."""

    reader: Tool
    move: str
    style: str
    size: str | None
    smallest: int = 1
    largest: int = LARGE_PAGE
    first: int | None = 0
    """None: the schema does not say whether pages count from 0 or 1; the first walk asks."""


def paging_of(tool: Tool) -> Paging | None:
    """The paging a read tool's parameters name; None when it takes none or requires other values."""
    if not tool.is_read:
        return None
    read = profile(tool)
    move = next((p for p in read.cursors if snake(p) != "before"), None)
    if move is None:
        return None
    flat = snake(move)
    style = "offset" if flat in OFFSETS else "page" if flat in PAGE_NUMBERS else "cursor"
    size = next((p for p in tool.properties if snake(p) in LIMIT_NAMES), None)
    if any(name not in (move, size) for name in read.required):
        return None
    smallest, largest = 1, LARGE_PAGE
    if size is not None:
        bound = next((b for b in read.bounds if b.param == size), None)
        smallest = max(1, bound.minimum or 1) if bound else 1
        largest = min(LARGE_PAGE, bound.maximum) if bound and bound.maximum else LARGE_PAGE
    schema = tool.properties.get(move)
    first: int | None = 0
    if style == "page":
        low = schema.get("minimum", schema.get("default")) if isinstance(schema, dict) else None
        first = low if isinstance(low, int) and not isinstance(low, bool) else None
    return Paging(tool, move, style, size, smallest, max(smallest, largest), first)


def plain_values(drawn: Any, name: str | None = None) -> Any:
    """Drawn arguments with every marked text cut to its token (`<marker>-title`)."""
    token = f"{PLACEHOLDER}-{name}"
    if isinstance(drawn, str) and name is not None and drawn.startswith(token):
        return token
    if isinstance(drawn, dict):
        return {k: plain_values(v, k) for k, v in drawn.items()}
    if isinstance(drawn, list):
        return [plain_values(v, name) for v in drawn]
    return drawn


@dataclass
class Walk:
    """One walk of the pages: each page's call and answer, and whether it reached the end."""

    pages: list[tuple[Call, Outcome]] = field(default_factory=list)
    ended: bool = False

    def showing(self, marker: str) -> list[int]:
        return [i for i, (_, answer) in enumerate(self.pages) if marker in shown(answer)]


@dataclass
class PageProbe:
    """The page probe of one paged reader, on records one write creates."""

    run: ProbeHost
    paging: Paging
    creator: Tool
    given: dict[str, Any]
    stated: Fact | None
    """That the reader shows the write's records, when the user's probe config says so."""
    examples: int = 0
    judged: int = 0
    refused: int = 0
    unseen: int = 0
    unended: int = 0
    moved: list[Call] = field(default_factory=list)
    """A page after the first that showed other records of the run than the first (new ones, or
    fewer of the first's where a page repeats its last): the parameter moves the page."""
    shows: Fact | None = None
    found: ProbeFinding | None = None
    failing: tuple[list[dict[str, Any]], int | None] | None = None
    """The drawn records and page size of the example that made `found`."""
    out_of_time: bool = False
    _count: int = 0

    def __post_init__(self) -> None:
        self.salt = scope_salt(self.run.profile.seed, "pages", self.paging.reader)
        self.base = {k: v for k, v in self.run.base(self.paging.reader).items()
                     if k not in (self.paging.move, self.paging.size)}

    def results(self) -> Iterator[ProbeOutput]:
        error = self.explore()
        self.run.examples += self.examples
        yield from self.verdict(error)

    def explore(self) -> str | None:
        p = self.paging
        sizes = st.integers(p.smallest, min(p.largest, p.smallest + 3)) if p.size else st.none()
        try:
            creating = st.lists(marked_arguments(self.creator, PLACEHOLDER, self.given or None),
                                min_size=1, max_size=MAX_RECORDS)
            budget = self.run.profile.probe_examples + SHRINK_EXAMPLES
            self.run.pool.expect(None)  # one fresh server per example, however many tighten takes

            @settings(self.run.profile.settings(self.run.profile.probe_examples))
            @given(creates=creating, size=sizes)
            def pages(creates: list[dict[str, Any]], size: int | None) -> None:
                if self.found is not None and self.examples >= budget:
                    return
                try:
                    self.example(creates, size)
                except ProbeFailure as failure:
                    if self.found is failure.finding:
                        self.failing = (creates, size)
                    raise

            with own_draws():
                seeded(pages, self.run.profile.seed, "pages", p.reader, self.creator)()
        except (ProbeFailure, Flaky):
            pass
        except Exception as exc:
            return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        if self.failing is not None:
            self.tighten(*self.failing)
        return None

    def tighten(self, creates: list[dict[str, Any]], size: int | None) -> None:
        """The fewest records and the smallest page that still fail, each on a fresh server: the
        search's own shrinking stops early (every example starts a server), and a paging bug lives in
        the count and the size, not in the values: each text is cut to its marked token."""
        plain = [plain_values(c) for c in creates]
        sizes: list[int | None] = list(range(self.paging.smallest, size + 1)) if size is not None else [None]
        for count in range(1, len(creates) + 1):
            for each in sizes if count > 1 else sizes[:1]:  # one record fills one page of any size
                try:
                    self.example(plain[:count], each)
                except ProbeFailure as failure:
                    if self.found is failure.finding:
                        return

    def example(self, creates: list[dict[str, Any]], size: int | None) -> None:
        if self.run.stop():
            self.out_of_time = True
            return
        self.examples += 1
        conn = self.run.pool.acquire()
        try:
            self.judge(conn, creates, size)
        finally:
            self.run.pool.release(conn)

    def judge(self, conn: Connection, creates: list[dict[str, Any]], size: int | None) -> None:
        writes: list[Call] = []
        markers: list[str] = []
        for drawn in creates:
            marker = salted_marker(self.salt, self._count)
            self._count += 1
            args = with_marker(drawn, marker)
            if not tokens(args, marker):
                continue
            if not conn.call(self.creator.name, args).ok:
                self.refused += 1
                continue
            writes.append(Call(self.creator.name, args))
            markers.append(marker)
        if not markers:
            return
        large = self.page_args(self.start(conn, None), self.paging.largest) if self.paging.size else None
        whole = shown(conn.call(self.paging.reader.name, large)) if large is not None else ""
        walk = self.walk(conn, size)
        if not walk.ended:
            self.unended += 1
            return
        places = {m: walk.showing(m) for m in markers}
        if not any(places.values()) and not any(m in whole for m in markers):
            self.unseen += 1
            return
        self.judged += 1
        first = {m for m in markers if places[m][:1] == [0]}
        for index, (call, _) in enumerate(walk.pages[1:], 1):
            on_page = {m for m in markers if index in places[m]}
            if not self.moved and on_page and on_page != first:
                self.moved.append(call)
        repeated = [m for m in markers if len(places[m]) > 1]
        stored = [m for m in markers if m in whole] if large is not None else markers
        skipped = [m for m in stored if not places[m]]
        seen = next((m for m in markers if places[m]), None)
        self.shows = self.stated or (
            fact_shown(f"{self.paging.reader.name} shows the records {self.creator.name} writes", marker=seen,
                       tools=(self.creator.name, self.paging.reader.name)) if seen is not None else
            fact_shown(f"{self.paging.reader.name} shows the records {self.creator.name} writes",
                       calls=[Call(self.paging.reader.name, large or {})], source="one large page showed them"))
        if repeated:
            self.repeat(writes, walk, repeated[0], markers, size)
        if skipped:
            self.skip(writes, walk, skipped, markers, size, large is not None)

    def page_args(self, at: Any, size: int | None) -> dict[str, Any]:
        args = dict(self.base)
        if self.paging.size is not None and size is not None:
            args[self.paging.size] = size
        if at is not None:
            args[self.paging.move] = at
        return args

    def start(self, conn: Connection, size: int | None) -> Any:
        """Where a walk starts: no cursor, offset 0, or the first page number, asked of the server
        when the schema does not say it (page 0 answers other records than page 1: pages count from 0)."""
        p = self.paging
        if p.style != "page" or p.first is not None:
            return None if p.style == "cursor" else p.first
        zero, one = (conn.call(p.reader.name, self.page_args(n, size)) for n in (0, 1))
        zero_items, one_items = (bool(a.ok and items_of(a)) for a in (zero, one))
        if zero_items or one_items:
            differ = zero_items and shown(zero) != shown(one)
            self.paging = replace(p, first=0 if differ else 1)
            return self.paging.first
        return 1

    def walk(self, conn: Connection, size: int | None) -> Walk:
        """From the first page to one that is empty or names no next page."""
        p, done = self.paging, Walk()
        at: Any = self.start(conn, size)
        for _ in range(MAX_PAGES):
            args = self.page_args(at, size)
            answer = conn.call(p.reader.name, args)
            if not answer.ok:
                return done
            items = items_of(answer)
            following = find_id(answer, NEXT_NAMES) if p.style == "cursor" else None
            binds = (Binding(following[1], NEXT_NAMES),) if following else ()
            done.pages.append((Call(p.reader.name, args, binds=binds), answer))
            if items is None or not items:
                done.ended = items is not None
                return done
            if p.style == "cursor" and following is None:
                # No next cursor: an end if the answer says so, if an earlier page named its cursor
                # (this one leaves it out) or if the page came short; a full first page whose cursor
                # sits under a name we do not know is a walk we cannot go on, not an end.
                done.ended = (says_no_more(answer, NEXT_NAMES) or len(done.pages) > 1
                              or (size is not None and len(items) < size))
                return done
            if len(done.pages) > 1 and shown(answer) == shown(done.pages[-2][1]):
                return done  # the same page again: the walk can go no further, and ends nowhere
            at = following[1] if following else at + (len(items) if p.style == "offset" else 1)
        return done

    def repeat(self, writes: list[Call], walk: Walk, marker: str, markers: list[str], size: int | None) -> None:
        """The two pages that both show the record; a cursor's pages keep the walk up to them."""
        a, b = walk.showing(marker)[:2]
        pages = walk.pages[:b + 1] if self.paging.style == "cursor" else [walk.pages[a], walk.pages[b]]
        if self.paging.style == "cursor" and b != a + 1:
            return
        name = self.paging.reader.name
        self.fail("probe-pages-repeat",
                  f"walking {name} page by page ({self.sized(size)}) showed a record {self.creator.name} wrote "
                  f"on page {a + 1} and again on page {b + 1}", writes, [c for c, _ in pages],
                  PagesDisjoint(tuple(markers)), "high")

    def skip(self, writes: list[Call], walk: Walk, skipped: list[str], markers: list[str], size: int | None,
             stored_shown: bool) -> None:
        """The last two pages must show every record no earlier page showed; an offset or a page number
        asks for a page by itself, so only a cursor's reproduction keeps the pages before them."""
        earlier = "".join(shown(a) for _, a in walk.pages[:-2])
        due = tuple(m for m in markers if m not in earlier and (m in skipped or walk.showing(m)))
        name = self.paging.reader.name
        held = f", though {name} with one page of {self.paging.largest} shows it" if stored_shown else ""
        self.fail("probe-pages-skip",
                  f"walking {name} page by page ({self.sized(size)}, {len(walk.pages)} page(s) to the end) never "
                  f"showed {len(skipped)} of the {len(markers)} record(s) {self.creator.name} wrote{held}",
                  writes, [c for c, _ in (walk.pages if self.paging.style == "cursor" else walk.pages[-2:])],
                  PagesCover(due, NEXT_NAMES if self.paging.style == "cursor" else ()),
                  "high" if stored_shown else "medium")

    def sized(self, size: int | None) -> str:
        p = self.paging
        by = {"offset": f"{p.move} advanced by the items each page returned",
              "page": f"{p.move} counted up from {p.first}", "cursor": f"{p.move} taken from each answer"}[p.style]
        return f"{p.size}={size}, {by}" if p.size and size is not None else by

    def fail(self, rule: RuleId, message: str, writes: list[Call], pages: list[Call], expect: Any,
             confidence: str) -> None:
        p = self.paging
        what = f"{p.move} moves {p.reader.name}'s page"
        moves = (fact_shown(what, calls=self.moved[:1], source="a later page showed other records than the first")
                 if self.moved else fact_guessed(what, f"the parameter name {p.move!r}"))
        finding = ProbeFinding(rule, p.reader.name, message, confidence,
                               f"records written by {self.creator.name}, read back page by page through {p.move}",
                               calls=[*writes, *pages], expect=expect, check="pages", fresh=True,
                               facts=tuple(f for f in (self.shows, moves) if f is not None))
        if self.found is None or CONFIDENCE_ORDER[finding.confidence] <= CONFIDENCE_ORDER[self.found.confidence]:
            self.found = finding  # a smaller failure, unless it is less sure than the one found
        raise ProbeFailure(finding)

    def verdict(self, error: str | None) -> Iterator[ProbeOutput]:
        run, name = self.run, self.paging.reader.name

        def inconclusive(message: str) -> ProbeOutput:
            return run.result(name, "pages", "inconclusive", "probe-pages-skip", message, confidence="low")

        if self.found is not None:
            if run.pool.shared or run.reproduces(self.found):
                yield replace(self.found, fresh=not run.pool.shared)
            else:
                yield inconclusive(f"{self.found.message}, but a replay on a fresh server did not show it again")
        elif self.out_of_time and not self.examples:
            yield run.result(name, "pages", "skip", "probe-pages-skip", "not run: --max-time was reached")
        elif error is not None:
            yield inconclusive(f"the probe could not run: {error}")
        elif self.judged and (self.moved or not self.unended):
            yield run.result(name, "pages", "pass", "pages",
                             f"walked to the end, the pages showed each of the records {self.creator.name} wrote "
                             f"once ({self.judged} walk(s), {self.examples} example(s))",
                             confidence="high" if self.moved else "medium",
                             basis=f"records written by {self.creator.name}, read back page by page")
        elif self.unended:
            yield inconclusive(f"no walk of {self.paging.move} could be followed to its end within {MAX_PAGES} "
                               "pages (a full page that names its next page under a member the probe does not "
                               "know ends nothing)")
        elif self.unseen:
            yield inconclusive(f"no page of {name} showed the records {self.creator.name} wrote")
        else:
            yield inconclusive(f"{self.creator.name} refused every write ({self.refused} tries)")


def paged_readers(run: ProbeHost) -> list[tuple[Paging, Tool, Reader]]:
    """Every paged reader that shows the records of a write creating them, with that write and how
    it reads them."""
    wanted = {t.name: set(run.write_args(t, None)) for t in run.write_tools()}
    writes = [t for t in run.write_tools()
              if updated_id(t, wanted[t.name], run.watched(), run.guesses()) is None
              and not needs_record(t, wanted[t.name])]
    excluded = set(run.config.exclude)
    found = []
    for tool in run.tools:
        paging = paging_of(tool)
        if paging is None or tool.name in excluded:
            continue
        chosen = [(w, r) for w in writes for r in choose_readers(w, run.tools, run.config.pair_for(w.name), excluded,
                                                                 run.watched())
                  if r.tool.name == tool.name and r.confidence != "low"]
        if chosen:
            found.append((paging, *chosen[0]))
    return found


def page_probes(run: ProbeHost, readers: list[tuple[Paging, Tool, Reader]] | None = None) -> Iterator[ProbeOutput]:
    """A page probe for each of `readers` (every paged reader, unless given)."""
    for paging, creator, reader in paged_readers(run) if readers is None else readers:
        if run.stop():
            yield run.result(paging.reader.name, "pages", "skip", "probe-pages-skip", "not run: --max-time was reached")
            continue
        given_args = run.write_args(creator, run.config.pair_for(creator.name))
        yield from PageProbe(run, paging, creator, given_args, reader.fact).results()
