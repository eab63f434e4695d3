"""Berths of a dock, each under a code the harbour master chooses: a berth has a tonnage and, once
given, whether a crane serves it (a berth never given one shows no crane at all). Keyed reads and
the listing answer JSON texts; an unknown code is an exception the SDK turns into an `isError`
result. `recode_berth` gives a berth a new code and must keep everything else.

- open_berth(code, tonnage, crane=None): opens a berth; a code in use is refused.
- berth(code): the berth.
- berths(): every berth, in the order opened.
- recode_berth(code, new_code): the berth under its new code.

`--bug recode-drops-crane`: `recode_berth` leaves the crane behind: the berth under its new code shows
no crane.

    python tests/servers/dock_slots.py [--bug recode-drops-crane]
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

BUGS = ("recode-drops-crane",)
Code = Annotated[str, Field(min_length=2, max_length=60, description="The berth's code.")]


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("dock-slots", log_level="WARNING")
    berths_by_code: dict[str, dict[str, Any]] = {}

    def found(code: str) -> dict[str, Any]:
        if code not in berths_by_code:
            raise ValueError(f"no berth coded {code}")
        return berths_by_code[code]

    @mcp.tool(structured_output=False)
    def open_berth(code: Code, tonnage: Annotated[int, Field(ge=1, le=400)], crane: bool | None = None) -> str:
        """Opens a berth under a code not in use."""
        if code in berths_by_code:
            raise ValueError(f"berth {code} is open already")
        berths_by_code[code] = {"code": code, "tonnage": tonnage, **({} if crane is None else {"crane": crane})}
        return json.dumps(berths_by_code[code])

    @mcp.tool(structured_output=False)
    def berth(code: Code) -> str:
        """One berth, by its code."""
        return json.dumps(found(code))

    @mcp.tool(structured_output=False)
    def berths() -> str:
        """Every berth, in the order opened."""
        return json.dumps(list(berths_by_code.values()))

    @mcp.tool(structured_output=False)
    def recode_berth(code: Code, new_code: Code) -> str:
        """Gives a berth a new code; the rest of the berth stays as it was."""
        moved = {**found(code), "code": new_code}
        if new_code in berths_by_code and new_code != code:
            raise ValueError(f"berth {new_code} is open already")
        if bug == "recode-drops-crane":
            moved.pop("crane", None)
        del berths_by_code[code]
        berths_by_code[new_code] = moved
        return json.dumps(moved)

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
