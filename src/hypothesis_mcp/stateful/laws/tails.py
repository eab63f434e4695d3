"""A listing's tail: the pages past its first on a warm store. A listing that pages from its oldest
records shows only the first of them on its first page, and the records an example writes go to its
end, so a check would never see them there. The tail is found where the listing ended when the
example began (walked through the member its answer names the next page by, or through a number it
takes, read as an offset or a page); the records an example writes, changes and removes are all from
there on, so each check reads the first page and the tail, and judges them as one listing.

A fresh replay's read is its first page, where the store holds only its reproduction's records; a
record it said missing is looked for on the pages after it too (`read_on`): a reproduction may write
more records than a first page holds."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.stateful.laws.edges import fits
from hypothesis_mcp.stateful.laws.observe import Learned
from hypothesis_mcp.stateful.looking import Pager, items, scalars

READINGS = ("offset", "page from 0", "page from 1")
"""How a number a listing takes may page it: the records to pass, or the page, counted from 0 or 1."""
MAX_PAGES = 25
"""Pages one walk reads at most: a tail not reached within them is not read."""

Caller = Callable[[dict[str, Any]], Outcome]


@dataclass(frozen=True)
class Stepper:
    """A listing paged by a number: `param` read as `reading`, `size` records a page."""

    param: str
    reading: str
    limit: str
    size: int

    def page(self, base: dict[str, Any], index: int) -> dict[str, Any]:
        return page_args(base, self.limit, self.size, self.param, self.reading, index)

    def index(self, args: dict[str, Any]) -> int:
        """Which page `args` ask for (the first where they give no number)."""
        value = args.get(self.param)
        if not isinstance(value, int):
            return 0
        return {"offset": value // self.size, "page from 0": value, "page from 1": value - 1}[self.reading]


def limit_of(learned: Learned, tool: Tool) -> str | None:
    """The parameter that sizes the listing's pages, as the schema's bounds name it or as `sized` showed."""
    return next((b.param for b in profile(tool).bounds if b.kind == "limit"), None) or learned.sized.get(tool.name)


def page_size(tool: Tool, base: dict[str, Any], limit: str) -> int | None:
    """The records a page of the listing holds as `base` asks for it: the size it gives, else the one
    the schema says a page takes when none is given (its default, else its largest)."""
    schema = tool.properties.get(limit)
    said = [base.get(limit), *((schema.get("default"), schema.get("maximum")) if isinstance(schema, dict) else ())]
    return next((v for v in said if isinstance(v, int) and not isinstance(v, bool) and v > 0), None)


def moving(tool: Tool, limit: str) -> list[str]:
    """The listing's optional integer parameters besides its page size: those that may page it."""
    return [name for name, schema in sorted(tool.properties.items()) if name != limit and name not in tool.required
            and isinstance(schema, dict) and schema.get("type") == "integer"]


def page_args(base: dict[str, Any], limit: str, size: int, param: str, reading: str, page: int) -> dict[str, Any]:
    at = {"offset": page * size, "page from 0": page, "page from 1": page + 1}[reading]
    return {**base, limit: size, param: at}


def keys(answer: Outcome) -> list[str]:
    return [json.dumps(i, sort_keys=True, ensure_ascii=False) for i in items(answer)] if answer.ok else []


def stepper(call: Caller, learned: Learned, tool: Tool) -> tuple[Stepper | None, bool]:
    """The number that pages the listing at its largest page: the reading whose first page is the
    listing's own and whose second holds only records the first does not (a store larger than one
    page shows it; None before); and whether that was tried (a first page that was full)."""
    base = learned.widest(tool)
    limit = limit_of(learned, tool)
    size = page_size(tool, base, limit) if limit is not None else None
    if limit is None or size is None:
        return None, False  # no call made: the parameter may be learned later (covering.sized)
    first = keys(call(base))
    if len(first) < size:
        return None, False
    for param in moving(tool, limit):
        for reading in READINGS:
            pages = [page_args(base, limit, size, param, reading, index) for index in (0, 1)]
            if not all(fits(tool, a) for a in pages):
                continue
            one, two = keys(call(pages[0])), keys(call(pages[1]))
            if one == first and two and not set(two) & set(one):
                return Stepper(param, reading, limit, size), True
    return None, True


def last_page(call: Caller, base: dict[str, Any], start: dict[str, Any],
              paging: Pager | Stepper) -> dict[str, Any] | None:
    """The arguments of the listing's last page, walked from `start` (None: not reached)."""
    args = start
    for _ in range(MAX_PAGES):
        answer = call(args)
        if not answer.ok:
            return None
        following = following_args(base, args, answer, paging)
        if following is None:
            return args
        args = following
    return None


def following_args(base: dict[str, Any], args: dict[str, Any], answer: Outcome,
                   paging: Pager | Stepper) -> dict[str, Any] | None:
    """The next page's arguments, None where this page is the last."""
    if isinstance(paging, Pager):
        value = scalars(answer).get(paging.member)
        return None if value is None or not items(answer) else {**base, paging.param: value}
    if len(items(answer)) < paging.size:
        return None
    return paging.page(base, paging.index(args) + 1)


def walk(call: Caller, base: dict[str, Any], start: dict[str, Any], paging: Pager | Stepper) -> list[Outcome]:
    """The pages from `start` to the end (at most MAX_PAGES; none where one failed)."""
    pages: list[Outcome] = []
    args: dict[str, Any] | None = start
    while args is not None and len(pages) < MAX_PAGES:
        answer = call(args)
        if not answer.ok:
            return []
        pages.append(answer)
        args = following_args(base, args, answer, paging)
    return pages


def read_on(call: Caller, base: dict[str, Any], first: Outcome, paging: Pager | Stepper) -> list[Outcome]:
    """`first`, the page `base` asked for, and the pages after it to the end (`walk`: `first` alone
    where a later page failed)."""
    following = following_args(base, base, first, paging) if first.ok else None
    return [first, *(walk(call, base, following, paging) if following is not None else [])]
