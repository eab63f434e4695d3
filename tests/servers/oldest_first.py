"""A journal listed oldest first, a few entries per page at most: the newest entry lies past the
first page once the journal is longer than a page, which is no sign that it was lost.

- write_entry(subject, text): adds an entry; answers "added #n" as text.
- read_entries(max_items=3, at most 4): the oldest `max_items` entries as JSON text, a list of objects.

`--bug drops-fourth`: the fourth entry is answered "added #4" but never kept.

    python tests/servers/oldest_first.py [--bug drops-fourth]
"""

from __future__ import annotations

import json
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

BUGS = ("drops-fourth",)


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("oldest-first", log_level="WARNING")
    notes: list[dict[str, str]] = []
    posted = [0]

    @mcp.tool()
    def write_entry(subject: Annotated[str, Field(description="What the entry is about.")],
                  text: Annotated[str, Field(description="The entry itself.")]) -> str:
        """Adds an entry to the journal."""
        posted[0] += 1
        if not (bug == "drops-fourth" and posted[0] == 4):
            notes.append({"subject": subject, "text": text})
        return f"added #{posted[0]}"

    @mcp.tool()
    def read_entries(max_items: Annotated[int, Field(ge=1, le=4, description="Entries to list.")] = 3) -> str:
        """Lists the journal's entries, oldest first."""
        return json.dumps(notes[:max_items])

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
