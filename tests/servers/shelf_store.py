"""A shelf of items whose `owner` must be a login name, though its schema says nothing of it.

- put_item(title, notes, owner): stores an item; the same title replaces it. An owner that is not
  1 to 32 letters, digits or underscores is refused with an isError result.
- get_item(title): the item as JSON, or an isError result for a title it does not have.
- list_items(): every item as a JSON list.

The correct twin keeps what it is given. `--bug keeps-old-notes`: a put to a title already stored
changes the owner but keeps the old notes, and answers as if it stored the new ones.

    python tests/servers/shelf_store.py [--bug keeps-old-notes]
"""

from __future__ import annotations

import json
import re

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

BUGS = ("keeps-old-notes",)
LOGIN = re.compile(r"[A-Za-z0-9_]{1,32}")


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("shelf-store", log_level="WARNING")
    items: dict[str, dict[str, str]] = {}

    @mcp.tool()
    def put_item(title: str, notes: str, owner: str) -> str:
        """Stores an item on the shelf; an item with the same title is replaced."""
        if not LOGIN.fullmatch(owner):
            raise ToolError(f"owner {owner!r} is not a login name")
        old = items.get(title)
        kept = old["notes"] if old is not None and bug == "keeps-old-notes" else notes
        items[title] = {"title": title, "notes": kept, "owner": owner}
        return f"stored {title!r}"

    @mcp.tool()
    def get_item(title: str) -> str:
        """Shows one item."""
        if title not in items:
            raise ToolError(f"no item {title!r}")
        return json.dumps(items[title])

    @mcp.tool()
    def list_items() -> str:
        """Lists every item."""
        return json.dumps(list(items.values()))

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
