"""Flash cards kept by title, where one write can break two fields in two ways.

- save_card(title, front, back, stars): keeps a card under its title (a second save replaces
  it); answers "Saved card TITLE.".
- get_card(title): the card as JSON, or an isError result for a title it does not have.
- list_cards(): every card as a JSON list.

`--bug two-fields`: save_card drops `back` (stored empty) and stores one star more than given.
Two fields, two laws: two findings on one tool, neither hiding the other. The twin keeps every
field as written.

    python tests/servers/flash_cards.py [--bug two-fields]
"""

from __future__ import annotations

import json
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

BUGS = ("two-fields",)


def build_server(bug: str | None) -> MCPServer:
    mcp = MCPServer("flash-cards", log_level="WARNING")
    cards: dict[str, dict[str, str]] = {}

    @mcp.tool()
    def save_card(title: str, front: str, back: str, stars: Annotated[int, Field(ge=1, le=5)]) -> str:
        """Keeps a card under its title; a card with the same title is replaced."""
        if bug == "two-fields":
            back, stars = "", stars + 1
        cards[title] = {"title": title, "front": front, "back": back, "stars": stars}
        return f"Saved card {title!r}."

    @mcp.tool()
    def get_card(title: str) -> str:
        """Shows one card."""
        if title not in cards:
            raise ToolError(f"no card {title!r}")
        return json.dumps(cards[title])

    @mcp.tool()
    def list_cards() -> str:
        """Lists every card."""
        return json.dumps(list(cards.values()))

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
