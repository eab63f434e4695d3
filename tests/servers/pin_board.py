"""A pin board whose listing shows a number that rises with every write but counts no pins.

- pin-note(code, caption): pins a caption under a code; the same code replaces the caption.
- view-board(): a text page: a markdown table of the pins, oldest first, then two lines,
  `change no. N` (a change number that starts at 700 and rises with every write, replacing ones
  too: a sequence, not a count) and `pinned: N` (how many pins the board holds).
- read-pin(code): the caption under a code, or an isError answer when there is none.

With `--bug counts-changes` the `pinned:` line counts every pin-note call instead of the pins held,
so a caption replaced under the same code is counted twice. The correct twin's change number
moves by one with each new pin as a count would, and stays correct all the same.

    python tests/servers/pin_board.py [--bug counts-changes]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from serving import serve

_CODE = {"type": "string", "minLength": 1, "maxLength": 40}


@dataclass
class Board:
    counts_changes: bool
    pins: dict[str, str] = field(default_factory=dict)
    change: int = 700
    calls: int = 0

    def pin(self, args: dict[str, Any]) -> str:
        code, caption = args.get("code"), args.get("caption")
        if not isinstance(code, str) or not isinstance(caption, str) or not 1 <= len(code) <= 40 or len(caption) > 200:
            raise ValueError("pin-note takes a code (1 to 40 characters) and a caption (at most 200)")
        self.pins.pop(code, None)
        self.pins[code] = caption
        self.change += 1
        self.calls += 1
        return f"pinned {code}"

    def view(self, args: dict[str, Any]) -> str:
        rows = [f"| {code} | {caption.replace('|', '/')} |" for code, caption in self.pins.items()]
        pinned = self.calls if self.counts_changes else len(self.pins)
        return "\n".join(["| code | caption |", "|---|---|", *rows, "", f"change no. {self.change}",
                          f"pinned: {pinned}"])

    def read(self, args: dict[str, Any]) -> str:
        code = args.get("code")
        if not isinstance(code, str) or code not in self.pins:
            raise ValueError(f"nothing pinned under {code!r}")
        return self.pins[code]


def build_server(bug: str | None) -> Server[Any]:
    board = Board(counts_changes=bug == "counts-changes")
    handlers: dict[str, Callable[[dict[str, Any]], str]] = {
        "pin-note": board.pin, "view-board": board.view, "read-pin": board.read}
    tools = [
        types.Tool(name="pin-note", description="Pin a caption under a code; the same code replaces it.",
                   input_schema={"type": "object", "required": ["code", "caption"], "additionalProperties": False,
                                 "properties": {"code": _CODE, "caption": {"type": "string", "maxLength": 200}}}),
        types.Tool(name="view-board", description="The board: every pin, the change number, how many pins.",
                   input_schema={"type": "object", "properties": {}}),
        types.Tool(name="read-pin", description="The caption pinned under a code.",
                   input_schema={"type": "object", "required": ["code"], "properties": {"code": _CODE}}),
    ]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        handler = handlers.get(params.name)
        if handler is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        try:
            text, failed = handler(params.arguments or {}), False
        except ValueError as error:
            text, failed = str(error), True
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=failed)

    return Server("pin-board", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", choices=["counts-changes"], help="count every pin-note call as a pin")
    args = parser.parse_args(argv)
    serve(build_server(args.bug), None)


if __name__ == "__main__":
    main()
