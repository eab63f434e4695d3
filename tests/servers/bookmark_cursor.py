"""Bookmarks browsed by an opaque cursor; answers are JSON text only, errors are isError text.

- bookmark_save(label, note): saves a bookmark; answers "saved bookmark <n>".
- bookmarks_browse(cursor?, page_size=3): the bookmarks, newest first, `page_size` (1 or more)
  of them, as the JSON text {"bookmarks": [...], "next_cursor": <text or null>}. A cursor is a
  random token the server made for the next page; an unknown one is refused.

`--bug cursor-repeats`: the next cursor points at the last bookmark of the page instead of just
after it, so that bookmark opens the next page again. `--bug last-page-lost`: when fewer than
`page_size` bookmarks remain after a page, it names no next cursor, so they are never browsed.

    python tests/servers/bookmark_cursor.py [--bug cursor-repeats|last-page-lost]
"""

from __future__ import annotations

import json
import secrets
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

BUGS = ("cursor-repeats", "last-page-lost")


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("bookmark-cursor", log_level="WARNING")
    saved: list[dict[str, str]] = []
    cursors: dict[str, int] = {}

    @mcp.tool()
    def bookmark_save(label: Annotated[str, Field(description="What the bookmark is called.")],
                      note: Annotated[str, Field(description="Why it was saved.")]) -> str:
        """Saves a bookmark."""
        saved.append({"label": label, "note": note})
        return f"saved bookmark {len(saved)}"

    @mcp.tool()
    def bookmarks_browse(cursor: Annotated[str | None, Field(description="The next_cursor of the page before.")]
                         = None,
                         page_size: Annotated[int, Field(ge=1, description="Bookmarks per page.")] = 3) -> str:
        """Browses the saved bookmarks a page at a time."""
        if cursor is not None and cursor not in cursors:
            raise ValueError(f"unknown cursor {cursor!r}")
        start = cursors.get(cursor, 0) if cursor is not None else 0
        newest = saved[::-1]
        page = newest[start:start + page_size]
        after = start + len(page)
        following = None
        if page and after < len(saved):
            following = secrets.token_hex(6)
            cursors[following] = after - 1 if bug == "cursor-repeats" else after
            if bug == "last-page-lost" and len(saved) - after < page_size:
                following = None
        return json.dumps({"bookmarks": page, "next_cursor": following})

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
