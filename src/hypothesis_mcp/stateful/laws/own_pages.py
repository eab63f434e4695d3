"""Law 7 on a listing that takes no page size: it pages at its own fixed size, through a member of
its answer given back (an opaque cursor). No walk at several sizes is possible, so the listing is
walked at its own size after the example wrote one record more than a page holds: each of them
shows once. One shown on two items of a walk repeats (whether or not the walk reached its end); one
a walk that ended never showed, while a keyed read still finds it, was skipped.

The warm server holds other examples' records. Where the first page shows none of the example's
records (the listing shows the oldest first), the walk goes from where the listing ended when the
example began, and is judged where it ended and showed some of them (so they are at that end);
else it goes from the first page, a repeat judged on the pages read, a loss only where the walk
reached its end (either is a walk of the listing law 7 judged: the pages machine leaves it to the
law). No writes fall between its pages. The reproduction is the example's records and the first two
pages: a fresh server holds just those records, one page and part of the next, so the second page
ends the walk whether the listing shows the newest or the oldest first."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from hypothesis_mcp.catalog import snake
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.results import Binding
from hypothesis_mcp.rules.expectations import PagesCover, PagesDisjoint
from hypothesis_mcp.stateful.laws.laws import Breach, shows
from hypothesis_mcp.stateful.laws.machine import Example
from hypothesis_mcp.stateful.laws.model import Held
from hypothesis_mcp.stateful.laws.observe import Reader
from hypothesis_mcp.stateful.laws.tails import following_args, walk
from hypothesis_mcp.stateful.looking import Pager, items, scalars

MOST = 8
"""Records law 7 writes at most in one example: a listing whose own page holds as many is not walked
(a fresh replay would need more writes)."""


def own_pages(example: Example, reader: Reader, paging: tuple[Pager, Fact] | None, listed: list[Held],
              write: Callable[[], Held | None]) -> None:
    """Law 7 at the listing's own page size: `listed` are the example's records so far, `write`
    makes one more."""
    if paging is None:
        return
    (pager, fact), tool, name = paging, reader.tool, reader.tool.name
    base = example.learned.widest(tool)
    page = example.run.conn.call(name, base)
    size = len(items(page)) if page.ok and scalars(page).get(pager.member) is not None else 0
    if size < 1 or size >= MOST:
        return
    while len(listed) <= size:
        if (more := write()) is None:
            return
        listed.append(more)
    if len(listed) > 2 * size:
        return
    # The example's calls before these records are its checks here: a fresh replay holds just these.
    example.checks.update(range(0, min(h.at for h in listed)))
    start = len(example.calls)
    first = example.call(tool, base)
    at = example.step_at
    following = scalars(first).get(pager.member) if first.ok else None
    if following is None or not items(first):
        return
    example.calls[at] = replace(example.calls[at], binds=(Binding(following, (snake(pager.member),)),))
    second = example.call(tool, {**base, pager.param: following})
    judged = example.step_at
    if not second.ok:
        return

    def call(args: dict[str, Any]) -> Outcome:
        """A further page of the walk: read on the warm server, no step of the example."""
        return example.run.conn.call(name, args)

    marks = tuple(sorted(m for h in listed if (m := h.mark()) is not None))
    tail = example.tails.get(name)
    newest = any(m in text for text in texts(first) for m in marks)
    rest = following_args(base, base, second, pager)
    # The short walk first: from the tail, where a listing that shows the oldest first holds the
    # example's records (one whose first page shows them shows the newest first); then from the
    # first page, whose first two pages are read already.
    walks: list[Callable[[], list[Outcome]]] = [
        lambda: walk(call, base, tail, pager) if tail is not None and tail != base and not newest else [],
        lambda: [first, second, *(walk(call, base, rest, pager) if rest is not None else [])]]
    pinned = (*(h.at for h in listed), at, judged)
    said = f"walking {name} at its own page size ({size} a page), {pager.member} given back as {pager.param},"
    breaches: list[Breach] = []
    for index, walked in enumerate(walks):
        pages = walked()
        seen = {h.marker: sum(mark in text for page in pages for text in texts(page)) for h in listed
                if (mark := h.mark()) is not None}
        # From the tail, the example's records are at that end only where the walk showed some of them.
        if index == 0 and not (ended(base, pages, pager) and any(seen.values())):
            continue
        twice = [h for h in listed if seen.get(h.marker, 0) > 1]
        if twice or ended(base, pages, pager):  # a walk judged: to its end, or a repeat on the pages read
            example.run.walked.add(name)
        if twice:
            breaches.append(Breach("probe-pages-repeat", name, f"{said} showed {len(twice)} of the {len(listed)} "
                                   "records the example wrote on two items", PagesDisjoint(marks), judged,
                                   (reader.fact, fact), pinned=repeat(pinned, listed)))
            break
        gone = [h for h in listed if seen.get(h.marker) == 0]
        if not gone or not ended(base, pages, pager):
            break
        if (shown_by := found(example, gone[0])) is not None:
            breaches.append(Breach("probe-pages-skip", name, f"{said} walked to its end and never showed {len(gone)} "
                                   f"of the {len(listed)} records the example wrote, which {shown_by.tool.name} "
                                   "still finds", PagesCover(marks, (pager.member,), walked=True), judged,
                                   (reader.fact, fact, *keyed_fact(example, shown_by)), pinned=pinned))
        # A skip seen from the tail (one the store moved since, room made say) is not the last word:
        # the walk from the first page is read too, and a record it shows twice is reported first.
        if index > 0 or not breaches:
            break
    if breaches:
        example.report(breaches, start)
    example.checks.update(range(start, len(example.calls)))


def ended(base: dict[str, Any], pages: list[Outcome], pager: Pager) -> bool:
    return bool(pages) and following_args(base, base, pages[-1], pager) is None


def texts(page: Outcome) -> list[str]:
    return [json.dumps(i, ensure_ascii=False) for i in items(page)]


def found(example: Example, held: Held) -> Reader | None:
    """A keyed read that still shows the record (asked by the example, as one of its checks): the
    record was stored and is still there, so the walk lost it (not the store)."""
    for keyed in (r for r in example.learned.readers if r.kind == "key"):
        args = example.ask(keyed, held)
        if args is not None and shows(example.call(keyed.tool, args), example.unasked(len(example.calls) - 1,
                                                                                      held.token_list())):
            return keyed
    return None


def keyed_fact(example: Example, keyed: Reader) -> tuple[Fact, ...]:
    return (fact_shown(f"{keyed.tool.name} still found a record of the example that the walk of the listing never "
                       "showed", calls=(example.calls[-1],), source="experiment"),)


def repeat(pinned: tuple[int, ...], listed: list[Held]) -> tuple[int, ...]:
    """What a repeat rests on: the walk's calls, not the writes of the records it walked over. A page
    of a correct listing repeats none however few records it holds, and a record not written is on no
    page, so a replay may leave out every write it still repeats without (a skip keeps them all: a
    record not written is one no page shows)."""
    writes = {h.at for h in listed}
    return tuple(at for at in pinned if at not in writes)
