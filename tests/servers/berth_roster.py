"""A marina of few berths: boats moored under their hull number, and a count of the berths taken.

- moor(hull, skipper): moors a boat; mooring a hull already moored changes its skipper and takes no
  other berth. Refused (isError) once every berth is taken.
- cast_off(hull): frees the boat's berth; refused for a hull not moored.
- roster(): one `HULL skipper` line per moored boat.
- berths(): `{"taken": n, "free": m}`.

Bug (`--bug stowed`): a mooring refused because the marina is full still puts the boat on the roster
and counts its berth: a refused call changed the store, which only a full marina shows.

    python tests/servers/berth_roster.py [--bug stowed]
"""

from __future__ import annotations

from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

BERTHS = 3
Hull = Annotated[str, Field(pattern=r"^[A-Z]{3}[0-9]{2,5}$")]


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("berth-roster", log_level="WARNING")
    moored: dict[str, str] = {}

    @mcp.tool(structured_output=False)
    def moor(hull: Hull, skipper: Annotated[str, Field(min_length=1, max_length=60)]) -> str:
        """Moor a boat under its hull number (again: a new skipper, the same berth)."""
        if hull not in moored and len(moored) >= BERTHS:
            if bug == "stowed":
                moored[hull] = skipper
            raise ToolError(f"no free berth for {hull}: all {BERTHS} are taken")
        moored[hull] = skipper
        return f"{hull} moored"

    @mcp.tool(structured_output=False)
    def cast_off(hull: Hull) -> str:
        """Free a boat's berth."""
        if moored.pop(hull, None) is None:
            raise ToolError(f"{hull} is not moored here")
        return f"{hull} cast off"

    @mcp.tool(structured_output=False)
    def roster() -> str:
        """The boats moored now."""
        return "\n".join(f"{hull} {skipper}" for hull, skipper in moored.items()) or "(no boats)"

    @mcp.tool()
    def berths() -> dict[str, int]:
        """Berths taken and free."""
        return {"taken": len(moored), "free": max(0, BERTHS - len(moored))}

    return mcp


def main() -> None:
    serving.main_sdk(build_server, ("stowed",), __doc__ or "")


if __name__ == "__main__":
    main()
