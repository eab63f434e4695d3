"""Law 7: pages cover. A listing that pages is walked from its first page over three records the
law writes itself: through a member of its answer given back (stateful/looking.py learned which), or
through a number it takes, read as an offset and as a page from 0 and from 1. Where one large page
shows the records in order, the second page starts with the record that follows the first page's
last: one further on skipped a record, one already shown repeats it.

The warm server holds many records, so the walk is judged there by its first page boundary against
the large page (records told apart by their markers). The reproduction is the three writes and the
first pages: on a fresh server, where the listing showed none, they hold just those records, which
fill more than one page and at most two, so the expectation reads those pages as the whole walk.

A listing whose page boundary was compared with the large page is one law 7 walked (`Run.walked`):
under `laws: true` the pages machine (stateful/pages.py), which this law retires, walks only the others."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.results import Binding, Call
from hypothesis_mcp.rules.expectations import PagesCover, PagesDisjoint
from hypothesis_mcp.stateful.laws.laws import Breach
from hypothesis_mcp.stateful.laws.machine import Duty, Example, Run
from hypothesis_mcp.stateful.laws.model import Held
from hypothesis_mcp.stateful.laws.observe import Reader
from hypothesis_mcp.stateful.laws.own_pages import MOST, own_pages, repeat
from hypothesis_mcp.stateful.laws.tails import READINGS, limit_of, moving, page_args
from hypothesis_mcp.stateful.looking import Pager, find_pager, items, scalars
from hypothesis_mcp.stateful.watch import full_arguments
from hypothesis_mcp.strategies.markers import MARKER

SIZES = (2, 3)
"""Page sizes walked where the listing takes one: a boundary every few records."""
STEPPED = (3,)
"""Page sizes of a listing paged by a number it is given (an offset or a page number): the four
records the law writes then fill two pages, and a third ends the walk (at 2 a page, an offset that
starts each page one record late reads as a page number from 0)."""
RECORDS = 3
"""Records the law writes before it walks: more than one page and at most two at the sizes walked."""
LEARN_TRIES = 3
"""Tries to learn how a listing pages, while the store may still hold too few records to show it."""


def covering_rules(run: Run) -> dict[str, Any]:
    learned = run.learned
    listers = [r for r in learned.listers if r.tool.name in learned.empty]
    tries: dict[str, int] = {}
    done: list[Example] = []
    taken: dict[str, int] = {}
    """Walks of each listing the machine took itself this round (first_walks)."""

    def pager_of(reader: Reader) -> tuple[Pager, Fact] | None:
        """The experiments' pager, else one learned at the smallest page size (the experiments ask
        for the largest page, which may hold every record)."""
        name = reader.tool.name
        if name not in learned.pagers and tries.get(name, 0) < LEARN_TRIES:
            tries[name] = tries.get(name, 0) + 1
            if (found := learn(run, reader)) is not None:
                learned.pagers[name] = found
        return learned.pagers.get(name)

    def ready(machine: Any) -> bool:
        return (bool(listers) and machine.example not in done and not machine.inert and not run.stop())

    @precondition(ready)
    @rule(which=st.integers(0, max(0, len(listers) - 1)), data=st.data())
    def pages(machine: Any, which: int, data: st.DataObject) -> None:
        walk_listing(machine.example, listers[which], data)

    def first_walks(machine: Any, data: st.DataObject) -> None:
        """Each listing is walked in the first example of every round (its first examples, while
        the walk judged nothing and tries are left): the law does not wait for the search to draw
        its rule, whose share moves with every other rule's."""
        for reader in (r for r in listers if r.tool.properties):  # one that takes no argument has no pages
            name = reader.tool.name
            count = taken.get(name, 0)
            if not ready(machine) or (count > 0 and name in run.walked) or count >= LEARN_TRIES:
                continue
            taken[name] = count + 1
            walk_listing(machine.example, reader, data)

    def walk_listing(example: Example, reader: Reader, data: st.DataObject) -> None:
        done.append(example)
        maker = next(((t, seen) for t, seen in learned.creators if any(c.tool == t.name for c in reader.fact.shown_by)),
                     None)
        if maker is None:
            return
        # Every write's arguments drawn at once: how many the law makes follows what the warm server
        # answered, and a replayed prefix of draws that drew otherwise is a flaky strategy to Hypothesis.
        drawn = iter(data.draw(st.lists(full_arguments(maker[0]), min_size=MOST, max_size=MOST)))
        name = reader.tool.name
        unsized = learned.sized.get(name, "") is None and limit_of(learned, reader.tool) is None
        if unsized and name not in learned.pagers and tries.get(name, 0) >= LEARN_TRIES:
            return

        def write() -> Held | None:
            """The next record the store took, marked. A write it refused (by its own rule, say) is
            tried again with only the fields the schema requires and its texts (those carry the
            marker), then passed by for the next drawn: which writes it refused decides how many
            draws are left, never how many are drawn."""
            for args in drawn:
                leaner = lean(maker[0], args)
                for tried in (args, leaner) if leaner != args else (args,):
                    refused = example.refused
                    made: Held | None = example.create(maker[0], maker[1].identity, tried, judge=False)
                    if made is not None and made.mark():
                        return made
                    if example.refused == refused:
                        break  # taken, yet unmarked: no refusal to try again
            return None

        listed = [h for h in (write() for _ in range(RECORDS)) if h is not None]
        limit = sized(run, reader) if len(listed) == RECORDS else None
        if limit is None:
            if len(listed) == RECORDS:
                own_pages(example, reader, pager_of(reader), listed, write)
            return
        paging = pager_of(reader)
        # The example's calls before these records are its checks here: a fresh replay holds just these.
        example.checks.update(range(0, min(h.at for h in listed)))
        if paging is None:
            # At 2 a page, an offset one past each page's start reads as a page number from 0: one
            # more record lets the walk go at 3 a page.
            if (more := write()) is not None:
                stepped(example, reader, limit, [*listed, more])
            return
        example.checks.add(len(example.calls))
        whole = example.call(reader.tool, example.learned.widest(reader.tool))
        order = [key_of(i) for i in items(whole)] if whole.ok else []
        for size in (s for s in SIZES if s < len(listed) <= 2 * s and len(order) > 2 * s):
            example.report(judged(example, reader, paging, fresh_order(listed, order), order, size), len(example.calls))
        if not example.full(reader.tool, whole):
            example.report(ended(example, reader, paging, listed, len(order)), len(example.calls))

    return {"pages": pages, "first_walks": Duty(first_walks)}


def lean(tool: Tool, args: dict[str, Any]) -> dict[str, Any]:
    """A write's arguments with only the fields the schema requires and its texts: the least a store
    can refuse by a rule of its own (a value that forbids another field, say)."""
    required = set(tool.input_schema.get("required") or ())
    return {k: v for k, v in args.items() if k in required or isinstance(v, str)}


def sized(run: Run, reader: Reader) -> str | None:
    """The parameter that sizes the listing's pages: named by the schema's bounds, else an optional
    integer one that, given 2, made the listing answer two of the records its largest page shows."""
    tool, found = reader.tool, run.learned.sized
    if (named := limit_of(run.learned, tool)) is not None or tool.name in found:
        return named  # asked once: None where no parameter sized the pages
    base = run.learned.widest(tool)
    whole = run.conn.call(tool.name, base)
    shown = items(whole) if whole.ok else []
    found[tool.name] = None
    for name in moving(tool, "") if len(shown) > 2 else []:
        if name in base:
            continue
        answer = run.conn.call(tool.name, {**base, name: 2})
        if answer.ok and items(answer) == shown[:2]:
            found[tool.name] = name
            break
    return found[tool.name]


def learn(run: Run, reader: Reader) -> tuple[Pager, Fact] | None:
    """How the listing continues, tried at the smallest page size on the warm server, or at the
    listing's own where it takes none (not part of any example: a reproduction walks from its first
    page)."""
    limit = limit_of(run.learned, reader.tool)
    name, calls = reader.tool.name, []

    def call(args: dict[str, Any]) -> Outcome:
        calls.append(Call(name, args))
        return run.conn.call(name, args)

    args = {**run.learned.widest(reader.tool), **({limit: SIZES[0]} if limit is not None else {})}
    first = call(args)
    tried: set[tuple[str, str]] = set()
    while True:
        pager = find_pager(call, reader.tool, args, first, tried) if first.ok else None
        if pager is None:
            return None
        # A member that names the same value on the page it opened (a total given back as an
        # offset, say) never moves a walk on: it reached other records by chance, not a next page.
        value = scalars(first).get(pager.member)
        if scalars(call({**args, pager.param: value})).get(pager.member) != value:
            break
    at = f"at {SIZES[0]} a page" if limit is not None else "at its own page size"
    return pager, fact_shown(f"{name} pages: {at}, its answer's {pager.member}, given back as "
                             f"{pager.param}, answered records the first page did not", calls=calls,
                             source="experiment")


def key_of(item: Any) -> str:
    """What tells a listed record apart from the others: its marker, else the whole item (the warm
    store's oldest records may be blank, written by the experiments with no marked field)."""
    text = json.dumps(item, ensure_ascii=False, sort_keys=True)
    found = MARKER.search(text)
    return found.group() if found else text


def judged(example: Example, reader: Reader, paging: tuple[Pager, Fact], listed: list[Held],
           order: list[str], size: int) -> list[Breach]:
    """The first page boundary of a walk at `size` a page, against the order one large page shows."""
    (pager, fact), name = paging, reader.tool.name
    args = {**example.learned.widest(reader.tool), limit_of(example.learned, reader.tool) or "": size}
    first = example.call(reader.tool, args)
    at = example.step_at
    following = scalars(first).get(pager.member) if first.ok else None
    if following is None or not items(first):
        return []
    example.calls[at] = replace(example.calls[at], binds=(Binding(following, (pager.member,)),))
    second = example.call(reader.tool, {**args, pager.param: following})
    if not second.ok or not items(second):
        return []
    last, then = key_of(items(first)[-1]), key_of(items(second)[0])
    if order.count(last) != 1 or order.count(then) != 1:
        return []
    example.run.walked.add(name)
    gap = order.index(then) - order.index(last)
    marks = tuple(sorted({m for h in listed if (m := h.mark()) is not None}))
    pinned = (*(h.at for h in listed), at, example.step_at)
    said = f"walking {name} at {size} a page, {pager.member} given back as {pager.param},"
    if gap < 1:
        return [Breach("probe-pages-repeat", name, f"{said} started page 2 with a record page 1 showed",
                       PagesDisjoint(marks), example.step_at, (reader.fact, fact), pinned=repeat(pinned, listed))]
    if gap > 1:
        return [Breach("probe-pages-skip", name, f"{said} skipped {gap - 1} record(s) between pages 1 and 2 that "
                       f"one large page of {name} shows there", PagesCover(marks, (pager.member,)), example.step_at,
                       (reader.fact, fact), pinned=pinned)]
    return []


def ended(example: Example, reader: Reader, paging: tuple[Pager, Fact], listed: list[Held], count: int) -> list[Breach]:
    """The end of a walk: at a page size that leaves fewer records than a page after the first (one
    less than the `count` one large page shows), the first page names where the rest go on. The
    reproduction asks, on a fresh server that holds just the law's records, for a page one record
    smaller than them."""
    (pager, fact), name = paging, reader.tool.name
    base, limit = example.learned.widest(reader.tool), limit_of(example.learned, reader.tool) or ""
    args = {**base, limit: count - 1}
    if count <= len(listed) or not example.valid(reader.tool, args):
        return []
    first = example.call(reader.tool, args)
    if first.ok and len(items(first)) == count - 1:
        example.run.walked.add(name)
    if not first.ok or len(items(first)) != count - 1 or scalars(first).get(pager.member) is not None:
        return []
    at = example.step_at
    example.calls[at] = Call(name, {**base, limit: len(listed) - 1})
    marks = tuple(sorted({m for h in listed if (m := h.mark()) is not None}))
    return [Breach("probe-pages-skip", name, f"walking {name}, a page that left one record after it named no "
                   f"{pager.member}: the walk ends without that record, which one large page of {name} shows",
                   PagesCover(marks, (pager.member,)), at, (reader.fact, fact), pinned=tuple(h.at for h in listed))]


def stepped(example: Example, reader: Reader, limit: str, listed: list[Held]) -> None:
    """A listing paged by a number: read as an offset and as a page number (from 0 and from 1), the
    first page holds the first records one large page shows, and the second starts with the record
    after the first page's last. Where no reading keeps that, while one reading starts where the
    large page does and goes on one record too far or too short, the pages skip or repeat a record:
    high where two steps of the number past the first pages showed that reading (one record a step,
    an offset; a page a step, a page number), else a reading by position and a medium warning."""
    size = next((s for s in STEPPED if s < len(listed) <= 2 * s), None)
    base = example.learned.widest(reader.tool)
    if size is None:
        return
    start = len(example.calls)
    whole = example.call(reader.tool, base)
    order = [key_of(i) for i in items(whole)] if whole.ok else []
    # Only the records the first pages reach must show once: a record written twice further on (an
    # experiment's write of the same values, say) leaves these pages as they are.
    if len(order) <= 2 * size or any(order.count(k) > 1 for k in order[:3 * size + 1]):
        return
    for param in moving(reader.tool, limit):
        off: list[tuple[str, int, int]] = []
        for reading in READINGS:
            pages = [page_args(base, limit, size, param, reading, page) for page in (0, 1)]
            if not all(example.valid(reader.tool, a) for a in pages) or pages[0] == pages[1]:
                continue
            first, second = (example.call(reader.tool, a) for a in pages)
            one, two = [key_of(i) for i in items(first)], [key_of(i) for i in items(second)]
            if not (first.ok and second.ok) or one != order[:size] or not two or two[0] not in order:
                continue
            gap = order.index(two[0]) - size + 1
            if gap == 1:
                example.run.walked.add(reader.tool.name)
                return  # a reading that pages as it should
            if abs(gap - 1) == 1 and two == order[order.index(two[0]):order.index(two[0]) + len(two)]:
                off.append((reading, gap, example.step_at))
        if off:
            example.run.walked.add(reader.tool.name)  # judged: its breach is law 7's
            step = step_shown(example, reader, limit, param, size, order)
            # The reading the listing's own steps showed, where one is off; else the first, by position.
            kind = None if step is None else "offset" if step[0] == 1 else "page"
            shown = next((o for o in off if kind is not None and o[0].startswith(kind)), None)
            reading, gap, at = shown or off[0]
            example.checks.update(range(start, at - 1))
            fresh = fresh_order(listed, order)
            facts = (step[1],) if shown is not None and step is not None else ()
            example.report([breach_of(example, reader, limit, fresh, param, reading, size, gap, at, facts)], at)
            return
    example.checks.update(range(start, len(example.calls)))


def step_shown(example: Example, reader: Reader, limit: str, param: str, size: int,
               order: list[str]) -> tuple[int, Fact] | None:
    """How many records one step of `param` moves the listing's page, as two values past the first
    page and the second of every reading show it on the warm server (2 and 3, at `size` a page): one
    record (an offset) or `size` (a page number), with the experiment that showed it; None where the
    two pages are not runs of the large page's order or lie another distance apart."""
    name, base = reader.tool.name, example.learned.widest(reader.tool)
    calls = [Call(name, {**base, limit: size, param: value}) for value in (2, 3)]
    if not all(example.valid(reader.tool, c.arguments) for c in calls):
        return None
    pages = [example.run.conn.call(name, c.arguments) for c in calls]
    runs = [[key_of(i) for i in items(p)] if p.ok else [] for p in pages]
    if not all(run and run[0] in order and order[order.index(run[0]):order.index(run[0]) + len(run)] == run
               for run in runs):
        return None
    step = order.index(runs[1][0]) - order.index(runs[0][0])
    if step not in (1, size) or len(runs[0]) != size:
        return None
    how = "one record (an offset)" if step == 1 else f"{size} records, a page (a page number)"
    return step, fact_shown(f"{param} moves {name}'s page {how} a step: at {size} a page, {param}=2 and {param}=3 "
                            "answered pages that far apart in the order one large page shows",
                            calls=[Call(name, base), *calls], source="experiment")


def fresh_order(listed: list[Held], order: list[str]) -> list[Held]:
    """The example's records in the order a fresh server lists them: as the large page shows them,
    or, where it shows only some (a window of a large store), newest first if it shows the newest."""
    shown = [h for h in sorted(listed, key=lambda h: order.index(h.marker) if h.marker in order else 0)]
    if all(h.marker in order for h in listed):
        return shown
    written = sorted(listed, key=lambda h: h.at)
    return written[::-1] if written[-1].marker in order else written


def breach_of(example: Example, reader: Reader, limit: str, listed: list[Held], param: str, reading: str,
              size: int, gap: int, at: int, step: tuple[Fact, ...] = ()) -> Breach:
    """The breach, with the reproduction's walk: the example's records, then its first two pages (a
    fresh server holds just those records, so the second ends the walk). High where the listing's own
    steps showed the reading (`step`), else a reading by position: medium."""
    name, base = reader.tool.name, example.learned.widest(reader.tool)
    marks = tuple(sorted({m for h in listed if (m := h.mark()) is not None}))
    said = f"walking {name} at {size} a page, {param} read as {'an' if reading == 'offset' else 'a'} {reading},"
    walk = [Call(name, page_args(base, limit, size, param, reading, page)) for page in range(2)]
    example.calls[at - 1:] = walk
    pinned = (*(h.at for h in listed), at - 1)
    facts, sure = (reader.fact, *step), "high" if step else "medium"
    if gap < 1:
        return Breach("probe-pages-repeat", name, f"{said} started page 2 with a record page 1 showed",
                      PagesDisjoint(marks), at, facts, sure, pinned=repeat(pinned, listed))
    # Both pages are judged as the whole walk: a page past the records a fresh store holds ends it.
    return Breach("probe-pages-skip", name, f"{said} skipped a record between pages 1 and 2 that one large page "
                  f"of {name} shows there", PagesCover(marks, walked=True), at, facts, sure, pinned=pinned)
