"""A ledger listed by offset: entries added one by one, read back a page at a time.

- entry_add(title, body): adds an entry; answers {"id": n} (ids counted from 1).
- entry_list(offset=0, limit=5): the entries, newest first, `limit` (1 or more) of them from `offset`
  on, as structuredContent {"entries": [...], "total": n}.

`--bug offset-skips`: a page at an offset above 0 starts one entry later, so the entry at each page
boundary is never listed. `--bug offset-overlaps`: a page at an offset above 0 starts one entry
earlier, so the last entry of each page is listed again on the next.

    python tests/servers/ledger_pages.py [--bug offset-skips|offset-overlaps]
"""

from __future__ import annotations

from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

BUGS = ("offset-skips", "offset-overlaps")


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("ledger-pages", log_level="WARNING")
    entries: list[dict[str, Any]] = []

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False))
    def entry_add(title: Annotated[str, Field(description="A short title.")],
                  body: Annotated[str, Field(description="The entry's text.")]) -> dict[str, Any]:
        """Adds an entry to the ledger."""
        entries.append({"id": len(entries) + 1, "title": title, "body": body})
        return {"id": len(entries)}

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    def entry_list(offset: Annotated[int, Field(ge=0, description="Entries to pass over first.")] = 0,
                   limit: Annotated[int, Field(ge=1, description="Entries per page.")] = 5) -> dict[str, Any]:
        """Lists the ledger's entries, newest first, one page at a time."""
        start = offset
        if offset > 0 and bug == "offset-skips":
            start = offset + 1
        elif offset > 0 and bug == "offset-overlaps":
            start = offset - 1
        newest = entries[::-1]
        return {"entries": [dict(e) for e in newest[start:start + limit]], "total": len(entries)}

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
