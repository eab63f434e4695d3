"""Correct stores whose listings show a window (a first page smaller than the largest one may ask
for) or whose writes refuse a key already taken, each with a faulty twin (issue #43's twin alarms).

Every store is its own server (`--store NAME`); `--bug` switches on its twin's one fault. Answers are
structured (and the same JSON as text); a refusal is an isError result.

- tills (server ids): ring_up(cashier, memo, extras) answers {"receipt": n}, n from 1; receipt(number)
  shows one; receipts(page=1, per=2, at most 10) the oldest first, a page at a time, with the total.
  Past two records the newest lies past the first page, which is no loss. Fault: only the newest four
  receipts are kept, without a word.
- tags (user keys): tag_set(handle, blurb) keeps one tag per handle, a second write to a handle
  replacing it; tag_show(handle) shows one; tags_browse(page=1, per=3, at most 10) the oldest first.
  Handles that differ in case or surrounding spaces are other tags. Fault: handles are folded
  (trimmed, case-insensitive), so " Ab " replaces "ab".
- crates (user keys, a text listing): crate_put(label, note) keeps one crate per label;
  crates_listed(limit=5, at most 5; past=0) shows the newest first, one `label | note` line each,
  then a `total: N` line. Past five crates the oldest lie beyond the largest page, reached through
  `past`, which is no loss. Fault: every third put also drops the crate put just before it.
- stalls (user keys): stall_open(code, goods) opens one stall per code; stall_view(code) shows one;
  stall_close(code) closes one; stalls_listed(limit=4, at most 4) shows the oldest first, with no way
  past its largest page: once earlier stalls fill it, a new stall is never listed. Fault: the listing
  answers from a copy taken at the last open, so it still shows a stall closed since.
- kiosks (user keys, a paged listing): kiosk_open, kiosk_view, kiosk_close as the stalls';
  kiosks_listed(after) shows the newest first, two a page, with the cursor of the next page under
  `next` (null on the last). Fault: the listing answers from a copy taken at the last open, so it still shows a kiosk
  closed since, on whichever page its place falls.
- lockers (user keys, refused twice): locker_claim(code, contents) refuses a code already claimed;
  locker_free(code) frees one; lockers_shown() lists all. Fault: a free also empties the locker
  claimed just before the freed one.

    python tests/servers/window_stores.py --store NAME [--bug]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

Words = Annotated[str, Field(max_length=300)]
Page = Annotated[int, Field(ge=1, le=1000, description="Which page, from 1.")]


def page_of(rows: list[dict[str, Any]], page: int, per: int) -> list[dict[str, Any]]:
    return rows[(page - 1) * per:page * per]


def tills(mcp: MCPServer, bug: bool) -> None:
    kept: list[dict[str, Any]] = []
    numbers = itertools.count(1)

    @mcp.tool(description="Ring up a sale; answers the receipt number it was filed under.")
    def ring_up(cashier: Words, memo: Words, extras: dict[str, str] | None = None) -> dict[str, int]:
        number = next(numbers)
        kept.append({"receipt": number, "cashier": cashier, "memo": memo, "extras": extras or {}})
        if bug:
            del kept[:-4]
        return {"receipt": number}

    @mcp.tool(description="One receipt by its number.")
    def receipt(number: int) -> dict[str, Any]:
        found = next((r for r in kept if r["receipt"] == number), None)
        if found is None:
            raise ToolError(f"no receipt {number}")
        return found

    @mcp.tool(description="Receipts, oldest first, a page at a time.")
    def receipts(page: Page = 1, per: Annotated[int, Field(ge=1, le=10)] = 2) -> dict[str, Any]:
        return {"receipts": page_of(kept, page, per), "total": len(kept)}


def tags(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, dict[str, str]] = {}

    def filed(handle: str) -> str:
        return handle.strip().casefold() if bug else handle

    @mcp.tool(description="Set a tag: one per handle, a second set of a handle replaces it.")
    def tag_set(handle: Annotated[str, Field(min_length=1, max_length=80)], blurb: Words) -> dict[str, str]:
        kept.pop(filed(handle), None)
        kept[filed(handle)] = {"handle": handle, "blurb": blurb}
        return {"handle": handle}

    @mcp.tool(description="One tag by its handle.")
    def tag_show(handle: str) -> dict[str, str]:
        if filed(handle) not in kept:
            raise ToolError(f"no tag {handle!r}")
        return kept[filed(handle)]

    @mcp.tool(description="Tags, oldest first, a page at a time.")
    def tags_browse(page: Page = 1, per: Annotated[int, Field(ge=1, le=10)] = 3) -> dict[str, Any]:
        return {"tags": page_of(list(kept.values()), page, per)}


def crates(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, str] = {}
    puts = itertools.count(1)

    @mcp.tool(description="Put a crate under its label; a second put of a label replaces it.")
    def crate_put(label: Annotated[str, Field(pattern="^[a-z0-9]{3,12}$")], note: Words) -> str:
        kept.pop(label, None)
        if bug and next(puts) % 3 == 0 and kept:
            kept.pop(list(kept)[-1])
        kept[label] = note
        return f"{label} | {note}"

    @mcp.tool(description="Crates, newest first, one line each, then their total.")
    def crates_listed(limit: Annotated[int, Field(ge=1, le=5)] = 5, past: Annotated[int, Field(ge=0)] = 0) -> str:
        rows = list(kept.items())[::-1][past:past + limit]
        return "\n".join([*(f"{label} | {note}" for label, note in rows), "", f"total: {len(kept)}"])


def booths(mcp: MCPServer, bug: bool, noun: str) -> Callable[[], list[dict[str, str]]]:
    """`{noun}_open`, `{noun}_view` and `{noun}_close` over one store; the rows its listing shows,
    oldest first (with the bug, the copy taken at the last open)."""
    kept: dict[str, str] = {}
    listed: list[dict[str, str]] = []

    def rows() -> list[dict[str, str]]:
        return listed if bug else [{"code": c, "goods": g} for c, g in kept.items()]

    @mcp.tool(name=f"{noun}_open", description=f"Open a {noun} under its code; a code already open is refused.")
    def opened(code: Annotated[str, Field(pattern="^[a-z0-9]{3,12}$")], goods: Words) -> dict[str, str]:
        if code in kept:
            raise ToolError(f"{noun} {code} is already open")
        kept[code] = goods
        listed[:] = [{"code": c, "goods": g} for c, g in kept.items()]
        return {"code": code, "goods": goods}

    @mcp.tool(name=f"{noun}_view", description=f"One {noun} by its code.")
    def view(code: str) -> dict[str, str]:
        if code not in kept:
            raise ToolError(f"no {noun} {code}")
        return {"code": code, "goods": kept[code]}

    @mcp.tool(name=f"{noun}_close", description=f"Close a {noun} by its code.")
    def close(code: str) -> dict[str, str]:
        if kept.pop(code, None) is None:
            raise ToolError(f"no {noun} {code}")
        return {"closed": code}

    return rows


def stalls(mcp: MCPServer, bug: bool) -> None:
    rows = booths(mcp, bug, "stall")

    @mcp.tool(description="Stalls, oldest first.")
    def stalls_listed(limit: Annotated[int, Field(ge=1, le=4)] = 4) -> dict[str, Any]:
        return {"stalls": rows()[:limit]}


def kiosks(mcp: MCPServer, bug: bool) -> None:
    rows = booths(mcp, bug, "kiosk")

    @mcp.tool(description="Kiosks, newest first, two a page; pass a page's `next` as `after` for the one after.")
    def kiosks_listed(after: str | None = None) -> dict[str, Any]:
        newest = rows()[::-1]
        start = int(after) if after and after.isdigit() else 0
        more = start + 2 < len(newest)
        return {"kiosks": newest[start:start + 2], "next": str(start + 2) if more else None}


def lockers(mcp: MCPServer, bug: bool) -> None:
    kept: list[dict[str, str]] = []

    @mcp.tool(description="Claim a locker by its code; a code already claimed is refused.")
    def locker_claim(code: Annotated[str, Field(pattern="^[a-z0-9]{2,12}$")], contents: Words) -> dict[str, str]:
        if any(k["code"] == code for k in kept):
            raise ToolError(f"locker {code} is already claimed")
        kept.append({"code": code, "contents": contents})
        return {"code": code, "contents": contents}

    @mcp.tool(description="Free a locker by its code.")
    def locker_free(code: str) -> dict[str, str]:
        at = next((i for i, k in enumerate(kept) if k["code"] == code), None)
        if at is None:
            raise ToolError(f"no locker {code}")
        del kept[at - 1 if bug and at > 0 else at:at + 1]
        return {"freed": code}

    @mcp.tool(description="Every claimed locker, oldest first.")
    def lockers_shown() -> dict[str, Any]:
        return {"lockers": kept}


STORES: dict[str, Callable[[MCPServer, bool], None]] = {"tills": tills, "tags": tags, "crates": crates,
                                                         "stalls": stalls, "kiosks": kiosks,
                                                         "lockers": lockers}


def main() -> None:
    serving.main_stores(STORES, "window", __doc__ or "")


if __name__ == "__main__":
    main()
