"""Memos replaced by id, where nothing tells the id of a new memo.

- memo_write(text): keeps a memo; answers "Saved." and nothing else.
- memo_replace(memo_id, text): replaces a memo's text; an unknown id is refused (isError).
- memo_list(): every memo's text, one a line, without ids.

An update probe can create a memo but never learn its id: it says so. No bug, no twin.

    python tests/servers/memo_replaces.py
"""

from __future__ import annotations

from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from pydantic import Field


def build_server() -> MCPServer:
    mcp = MCPServer("memo-amends", log_level="WARNING")
    memos: dict[str, str] = {}

    @mcp.tool(structured_output=False)
    def memo_write(text: Annotated[str, Field(description="What to keep.")]) -> str:
        memos[f"m{len(memos) + 1}"] = text
        return "Saved."

    @mcp.tool(structured_output=False)
    def memo_replace(memo_id: Annotated[str, Field(description="The memo to change.")],
                   text: Annotated[str, Field(description="Its new text.")]) -> str:
        if memo_id not in memos:
            raise MCPError(-32602, f"no memo {memo_id}")
        memos[memo_id] = text
        return "Replaced."

    @mcp.tool(structured_output=False)
    def memo_list() -> str:
        return "\n".join(memos.values())

    return mcp


def main() -> None:
    serving.main_sdk(lambda _bug: build_server(), (), __doc__ or "")


if __name__ == "__main__":
    main()
