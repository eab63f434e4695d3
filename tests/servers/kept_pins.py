"""Pins kept one per place, where a second pin to a place is answered otherwise than a stored one.

- pin_put(place, label, memo): keeps a pin per place; a second put to a place replaces it. Answers
  {"pinned": place}.
- pin_get(place): the pin of a place (isError for an unknown place); pins_all(): every pin.

Bug `declines`: a put to a place already pinned keeps the old pin and answers {"held": place, "why":
"that place is pinned"}, isError false: a refusal in a shape of its own, told from a stored write's
answer only by its members, which no refusal word or learned shape marks.

    python tests/servers/kept_pins.py [--bug declines]
"""

from __future__ import annotations

import json
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

Text = Annotated[str, Field(max_length=200)]


def build_server(bug: str | None) -> MCPServer:
    mcp = MCPServer("kept-pins", log_level="WARNING")
    pins: dict[str, dict[str, str]] = {}

    @mcp.tool(structured_output=False)
    def pin_put(place: Text, label: Text, memo: Text) -> str:
        if bug == "declines" and place in pins:
            return json.dumps({"held": place, "why": "that place is pinned"})
        pins[place] = {"place": place, "label": label, "memo": memo}
        return json.dumps({"pinned": place})

    @mcp.tool(structured_output=False)
    def pin_get(place: str) -> str:
        if place not in pins:
            raise ToolError(f"nothing pinned at {place!r}")
        return json.dumps(pins[place])

    @mcp.tool(structured_output=False)
    def pins_all() -> str:
        return json.dumps(list(pins.values()))

    return mcp


def main() -> None:
    serving.main_sdk(build_server, ("declines",), __doc__ or "")


if __name__ == "__main__":
    main()
