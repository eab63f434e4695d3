"""A shelf listed oldest first, two items a page, paged by a number under a name no vocabulary
knows. It comes with two items, so every item a client stows lies past the first page, and the
listing names no next page.

- stow(label, note): keeps an item; answers "stowed" as text.
- shelf(span=2, leaf=1): page `leaf` (from 1) of `span` items (at most 3), oldest first, as a
  markdown table; a page past the last answers the table's header alone.

A correct store (no bug): `learn` must find what it does by paging it, named and blind.

    python tests/servers/leaf_shelf.py
"""

from __future__ import annotations

from typing import Annotated

import serving
from mcp import types
from mcp.server.mcpserver import MCPServer
from pydantic import Field

Text = Annotated[str, Field(min_length=1, max_length=80)]


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("leaf-shelf", log_level="WARNING")
    items = [("broom", "by the door"), ("ladder", "folded flat")]

    @mcp.tool(structured_output=False, annotations=types.ToolAnnotations(read_only_hint=False))
    def stow(label: Text, note: Text) -> str:
        items.append((label, note))
        return "stowed"

    @mcp.tool(structured_output=False, annotations=types.ToolAnnotations(read_only_hint=True))
    def shelf(span: Annotated[int, Field(ge=1, le=3)] = 2, leaf: Annotated[int, Field(ge=1)] = 1) -> str:
        page = items[(leaf - 1) * span:leaf * span]
        return "\n".join(["| label | note |", "|---|---|", *(f"| {label} | {note} |" for label, note in page)])

    return mcp


def main() -> None:
    serving.main_sdk(build_server, (), __doc__ or "")


if __name__ == "__main__":
    main()
