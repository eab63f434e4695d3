"""Stores whose writes need a value only the server knows, each with a buggy twin (issue 42, item 5).

Every store is its own server (`--store NAME`); `--bug` switches on its twin's one bug, which only a
call the server accepts can reach. Answers are prose and markdown, never JSON.

- workshop: projectsOverview() prints the projects as a markdown table (`| Key | Title |`);
  raiseTicket(projectKey, summary, severity) refuses a key no project has ("project 'x' not
  found") and a severity outside the set its description names ("one of low, high or urgent").
  Bug: an urgent ticket fails with internal error -32603.
- sessions: startSession(owner) answers a prose line with the session it opened (`Session s-4f1c2a
  is open for ...`); jot(session, line) refuses a session it did not open. Bug: a line of fewer
  than three characters fails with internal error -32603.
- dispatch: routeParcel(lane, grams) refuses any lane but three, named only in its refusal
  ("unknown lane 'x'; expected one of north, south or harbour"). Bug: a harbour parcel fails with
  internal error -32603. reserveDock(dockCode, vessel) refuses every dock ("dock 'x' not found"):
  no tool prints a dock, so no call of a run can make it succeed.

    python tests/servers/owned_values.py --store NAME [--bug]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Annotated

import serving
from mcp import types
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from pydantic import Field

Text = Annotated[str, Field(max_length=200)]


def workshop(mcp: MCPServer, bug: bool) -> None:
    projects = {"PRJ-7Q2": "Garden shed", "PRJ-4K9": "Kitchen shelves"}
    tickets: list[tuple[str, str, str]] = []

    @mcp.tool(name="projectsOverview", description="The workshop's projects.", structured_output=False)
    def overview() -> str:
        rows = "\n".join(f"| {key} | {title} | {sum(t[0] == key for t in tickets)} |"
                         for key, title in projects.items())
        return f"| Key | Title | Tickets |\n|---|---|---|\n{rows}"

    @mcp.tool(name="raiseTicket", structured_output=False,
              description="Raise a ticket against a project. The severity must be one of low, high or urgent.")
    def raise_ticket(projectKey: str, summary: Text, severity: str) -> str:
        if projectKey not in projects:
            raise ToolError(f"project {projectKey!r} not found")
        if severity not in ("low", "high", "urgent"):
            raise ToolError(f"severity {severity!r} is not allowed")
        if bug and severity == "urgent":
            raise MCPError(types.INTERNAL_ERROR, "pager gateway unreachable")
        tickets.append((projectKey, summary, severity))
        return f"Ticket #{len(tickets)} raised on {projects[projectKey]} ({severity})."


def sessions(mcp: MCPServer, bug: bool) -> None:
    opened: dict[str, list[str]] = {}
    serial = itertools.count(0x4F1C2A)

    @mcp.tool(name="startSession", description="Open a writing session.", structured_output=False)
    def start(owner: Text) -> str:
        session = f"s-{next(serial):x}"
        opened[session] = []
        return f"Session {session} is open for {owner!r}; jot lines into it."

    @mcp.tool(name="jot", description="Add a line to an open session.", structured_output=False)
    def jot(session: str, line: Text) -> str:
        if session not in opened:
            raise ToolError(f"no open session {session!r}")
        if bug and len(line) < 3:
            raise MCPError(types.INTERNAL_ERROR, "line buffer underflow")
        opened[session].append(line)
        return f"{len(opened[session])} line(s) in {session}."


def dispatch(mcp: MCPServer, bug: bool) -> None:
    lanes = ("north", "south", "harbour")

    @mcp.tool(name="routeParcel", description="Send a parcel down a lane.", structured_output=False)
    def route(lane: str, grams: Annotated[int, Field(ge=1, le=30000)]) -> str:
        if lane not in lanes:
            raise ToolError(f"unknown lane {lane!r}; expected one of north, south or harbour")
        if bug and lane == "harbour":
            raise MCPError(types.INTERNAL_ERROR, "harbour scale offline")
        return f"{grams} g routed {lane}."

    @mcp.tool(name="reserveDock", description="Reserve a dock for a vessel.", structured_output=False)
    def reserve(dockCode: str, vessel: Text) -> str:
        raise ToolError(f"dock {dockCode!r} not found")


STORES: dict[str, Callable[[MCPServer, bool], None]] = {
    "workshop": workshop, "sessions": sessions, "dispatch": dispatch,
}


def main() -> None:
    serving.main_stores(STORES, "owned", __doc__ or "")


if __name__ == "__main__":
    main()
