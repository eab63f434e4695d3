"""Jottings browsed by a cursor whose member has a name of its own choosing; correct, no bug.

- jot_add(text): keeps a jotting; answers {"kept": <n>} as JSON text.
- jots_page(resume_from?, count=2): the jottings, oldest first, `count` of them, as the JSON text
  {"jots": [...], "resume_from": <text>}; the member is left out on the last page.
- jots_browse(cursor?, page_size=2): the same pages, asked for by parameters named like a cursor's.

The next cursor sits under a name the engine does not know. The round trip finds it by giving
the member back and follows it; the page probe, which walks by the names it knows, cannot go past
page one and must judge nothing, not report the later pages' records as skipped.

    python tests/servers/resume_cursor.py
"""

from __future__ import annotations

import json
import secrets
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("resume-cursor", log_level="WARNING")
    jots: list[str] = []
    marks: dict[str, int] = {}

    @mcp.tool()
    def jot_add(text: Annotated[str, Field(description="The jotting.")]) -> str:
        """Keeps a jotting."""
        jots.append(text)
        return json.dumps({"kept": len(jots)})

    def page_of(place: str | None, count: int) -> str:
        if place is not None and place not in marks:
            raise ValueError(f"unknown place {place!r}")
        start = marks.get(place, 0) if place is not None else 0
        page = jots[start:start + count]
        answer: dict[str, Any] = {"jots": page}
        if start + len(page) < len(jots):
            mark = secrets.token_hex(6)
            marks[mark] = start + len(page)
            answer["resume_from"] = mark
        return json.dumps(answer)

    @mcp.tool()
    def jots_page(resume_from: Annotated[str | None, Field(description="Where the page before stopped.")] = None,
                  count: Annotated[int, Field(ge=1, le=50, description="Jottings per page.")] = 2) -> str:
        """Lists the jottings a page at a time, oldest first."""
        return page_of(resume_from, count)

    @mcp.tool()
    def jots_browse(cursor: Annotated[str | None, Field(description="Where the page before stopped.")] = None,
                    page_size: Annotated[int, Field(ge=1, le=50, description="Jottings per page.")] = 2) -> str:
        """Browses the jottings a page at a time, oldest first."""
        return page_of(cursor, page_size)

    return mcp


def main() -> None:
    serving.main_sdk(build_server, (), __doc__ or "")


if __name__ == "__main__":
    main()
