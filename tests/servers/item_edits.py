"""Items edited by uid: an update-only write, the new record's id only in a JSON text.

No annotations: the verbs say what each tool does. Uids are random, so a replay meets new ones.
- item_add(title, note?): adds an item; answers the text {"uid": "<hex>", "status": "added"}.
- item_edit(uid, title): changes an item's title; an unknown uid answers the text "Error: no such item".
- items_list(): every item as a JSON text list of {uid, title, note}.

`--bug keeps-title`: item_edit answers {"uid": ..., "updated": true} and keeps the old title.
`--bug drops-note`: item_edit stores the new title and forgets the note.

    python tests/servers/item_edits.py [--bug keeps-title|drops-note]
"""

from __future__ import annotations

import json
import uuid
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

BUGS = ("keeps-title", "drops-note")


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("item-edits", log_level="WARNING")
    items: dict[str, dict[str, str]] = {}

    @mcp.tool(structured_output=False)
    def item_add(title: Annotated[str, Field(description="The item's title.")],
                 note: Annotated[str, Field(description="A longer note.")] = "") -> str:
        uid = uuid.uuid4().hex
        items[uid] = {"uid": uid, "title": title, "note": note}
        return json.dumps({"uid": uid, "status": "added"})

    @mcp.tool(structured_output=False)
    def item_edit(uid: Annotated[str, Field(description="The item's uid.")],
                  title: Annotated[str, Field(description="The new title.")]) -> str:
        if uid not in items:
            return "Error: no such item"
        if bug != "keeps-title":
            items[uid]["title"] = title
        if bug == "drops-note":
            items[uid]["note"] = ""
        return json.dumps({"uid": uid, "updated": True})

    @mcp.tool(structured_output=False)
    def items_list() -> str:
        return json.dumps(list(items.values()))

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
