"""A ticket desk with one rule of its own: a ticket at level `halted` takes no hours (any other
level does). Both writers keep the rule: open_ticket(code, summary, level, hours) files a ticket,
edit_ticket(code, summary?, level?, hours?) changes the fields it names, and either refuses a
halted ticket with hours (isError). get_ticket(code) and list_tickets() read them.

With `--bug`, edit_ticket applies a patch before it checks the rule: it answers the refusal, yet the
ticket now holds what the refused call sent. open_ticket keeps the rule in both, so the store's rule
is seen on one writer and broken on the other.

    python tests/servers/rule_desk.py [--bug]
"""

from __future__ import annotations

import argparse
import json
from typing import Annotated, Literal

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

Code = Annotated[str, Field(pattern="^[a-z0-9-]{3,40}$")]
Text = Annotated[str, Field(min_length=1, max_length=120)]
Hours = Annotated[int, Field(ge=0, le=500)]
Level = Literal["new", "triaged", "queued", "started", "review", "testing", "staged", "shipped", "parked",
                "halted", "closed", "reopened"]


def serve(bug: bool) -> MCPServer:
    mcp = MCPServer("rule-desk", log_level="WARNING")
    tickets: dict[str, dict[str, object]] = {}

    def check(ticket: dict[str, object]) -> None:
        if ticket["level"] == "halted" and ticket["hours"]:
            raise ToolError("a halted ticket takes no hours")

    @mcp.tool(description="Open a ticket under a new code.", structured_output=False)
    def open_ticket(code: Code, summary: Text, level: Level = "new", hours: Hours = 0) -> str:
        if code in tickets:
            raise ToolError(f"ticket {code} exists")
        ticket: dict[str, object] = {"code": code, "summary": summary, "level": level, "hours": hours}
        check(ticket)
        tickets[code] = ticket
        return json.dumps(ticket)

    @mcp.tool(description="Change the fields named of a ticket.", structured_output=False)
    def edit_ticket(code: Code, summary: Text | None = None, level: Level | None = None,
                    hours: Hours | None = None) -> str:
        if code not in tickets:
            raise ToolError(f"no ticket {code}")
        patch = {k: v for k, v in (("summary", summary), ("level", level), ("hours", hours)) if v is not None}
        changed = {**tickets[code], **patch}
        if bug:
            tickets[code] = changed
        check(changed)
        tickets[code] = changed
        return json.dumps(changed)

    @mcp.tool(description="One ticket by its code.", structured_output=False)
    def get_ticket(code: Code) -> str:
        if code not in tickets:
            raise ToolError(f"no ticket {code}")
        return json.dumps(tickets[code])

    @mcp.tool(description="Every ticket.", structured_output=False)
    def list_tickets() -> str:
        return json.dumps(list(tickets.values()))

    return mcp


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bug", action="store_true", help="edit_ticket stores a patch it refuses")
    args = parser.parse_args()
    serving.exit_on_signals()
    serve(args.bug).run()


if __name__ == "__main__":
    main()
