"""A studio's kiln log: each firing of a piece gets a ticket the server makes (`k7`, `k8`…). Answers
are JSON text only, wrapped under `firing` or `firings` (no output schema, no structured content),
and a ticket with no firing is an `isError` result.

- fire(piece, cone, glazed?, kiln_note?): logs a firing; answers only its ticket (`{"ticket": "k7"}`).
- firing(ticket): the firing under that ticket.
- firings(): every firing, newest first.

`--bug glaze-forgotten`: `glazed` is accepted and never kept, so no reader ever shows it, whatever
was sent (the other fields as written).

    python tests/servers/kiln_log.py [--bug glaze-forgotten]
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

BUGS = ("glaze-forgotten",)


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("kiln-log", log_level="WARNING")
    log: dict[str, dict[str, Any]] = {}
    tickets = iter(range(7, 10**9))

    @mcp.tool(structured_output=False)
    def fire(piece: Annotated[str, Field(min_length=1, max_length=60)],
             cone: Annotated[int, Field(ge=1, le=12)],
             glazed: bool | None = None,
             kiln_note: Annotated[str, Field(max_length=200)] | None = None) -> str:
        """Logs one firing of a piece."""
        ticket = f"k{next(tickets)}"
        entry: dict[str, Any] = {"ticket": ticket, "piece": piece, "cone": cone}
        if glazed is not None and bug != "glaze-forgotten":
            entry["glazed"] = glazed
        if kiln_note is not None:
            entry["kiln_note"] = kiln_note
        log[ticket] = entry
        return json.dumps({"ticket": ticket})

    @mcp.tool(structured_output=False)
    def firing(ticket: str) -> str:
        """The firing under a ticket."""
        if ticket not in log:
            raise ValueError(f"ticket {ticket} was never fired")
        return json.dumps({"firing": log[ticket]})

    @mcp.tool(structured_output=False)
    def firings() -> str:
        """Every firing, newest first."""
        return json.dumps({"firings": list(reversed(log.values()))})

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
