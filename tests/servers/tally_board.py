"""Cards on a board, added under a code the caller picks, and a tally that counts them per lane.

The tally has no total: only how many cards sit in each lane, so a number that grows by one with
each card posted into one lane counts that lane's cards, not every card.
- add_card(code, lane, text): puts a card in a lane; a code already added is replaced (its lane too).
- cards(): every card, as JSON.
- tally(): `{"todo": n, "doing": n, "done": n}`, the cards now in each lane.

A correct store only: a control for the count checks.

    python tests/servers/tally_board.py
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

import serving
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

Lane = Literal["todo", "doing", "done"]


def build_server(_: str | None = None) -> MCPServer:
    mcp = MCPServer("tally-board", log_level="WARNING")
    board: dict[str, dict[str, str]] = {}

    @mcp.tool()
    def add_card(code: Annotated[str, Field(pattern=r"^[A-Z]{2}-[0-9]{1,4}$")], lane: Lane, text: str) -> str:
        """Add a card under its code; adding a code again replaces that card."""
        board[code] = {"code": code, "lane": lane, "text": text}
        return f"posted {code}"

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True), structured_output=False)
    def cards() -> str:
        """Every card on the board."""
        return json.dumps(list(board.values()))

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    def tally() -> dict[str, int]:
        """How many cards each lane holds."""
        return {lane: sum(card["lane"] == lane for card in board.values()) for lane in ("todo", "doing", "done")}

    return mcp


def main() -> None:
    serving.main_sdk(build_server, (), __doc__ or "")


if __name__ == "__main__":
    main()
