"""A garden server whose beds are records the client makes, each listed as a resource, with one
bug per `--bug` that every resource template or every prompt shares.

`python tests/servers/garden_beds.py [--bug NAME]`. Without `--bug` it is the correct twin.
`dig_bed(label, crop)` makes a bed; each bed is listed as `garden://beds/LABEL` (the label
percent-encoded) beside the fixed `garden://plan`. Two templates, `garden://beds/{label}/crop` and
`garden://beds/{label}/area`, and two prompts, `plan_bed(label)` and `water_bed(label, litres?)`.

- `undecoded`: a bed read never percent-decodes its URI, so a bed whose label needs escaping is
  listed but cannot be read (one cause, as many beds as need escaping).
- `decoded-uri`: both templates answer with the percent-decoded URI, so a label that needs
  escaping comes back under another URI than the one read.
- `bad-role`: both prompts answer with the role "gardener", not an MCP role.
"""

from __future__ import annotations

import argparse
import os
import signal
from collections.abc import Mapping
from typing import Annotated, Any
from urllib.parse import quote, unquote

from mcp.server import MCPServer
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from pydantic import Field

BUGS = ("undecoded", "decoded-uri", "bad-role")
BEDS = "garden://beds/"


class Beds:
    """Lists and reads the beds the client dug (the SDK knows only fixed resources), and breaks
    answers the way `bug` says."""

    def __init__(self, bug: str | None, beds: dict[str, str]) -> None:
        self.bug = bug
        self.beds = beds

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        params = ctx.params if isinstance(ctx.params, Mapping) else {}
        uri = str(params.get("uri", ""))
        if ctx.method == "resources/read" and uri.startswith(BEDS) and "/" not in uri.removeprefix(BEDS):
            tail = uri.removeprefix(BEDS)
            label = tail if self.bug == "undecoded" else unquote(tail)
            if label not in self.beds:
                raise MCPError(-32002, f"no bed at {uri}")
            return {"contents": [{"uri": uri, "mimeType": "text/plain", "text": f"{label}: {self.beds[label]}"}]}
        result = await call_next(ctx)
        if ctx.method == "resources/list" and isinstance(result, dict):
            dug = [{"uri": BEDS + quote(label, safe=""), "name": f"bed {label}", "mimeType": "text/plain",
                    "description": f"The bed labelled {label} and what grows in it."} for label in self.beds]
            return {**result, "resources": [*result.get("resources", []), *dug]}
        if ctx.method == "resources/read" and isinstance(result, dict) and self.bug == "decoded-uri" \
                and uri.startswith(BEDS):
            return {**result, "contents": [{**c, "uri": unquote(uri)} for c in result.get("contents", [])]}
        if ctx.method == "prompts/get" and isinstance(result, dict) and self.bug == "bad-role":
            return {**result, "messages": [{**m, "role": "gardener"} for m in result.get("messages", [])]}
        return result


def build_server(bug: str | None = None) -> MCPServer:
    beds: dict[str, str] = {}
    mcp = MCPServer("garden-beds", log_level="WARNING")
    mcp.middleware.append(Beds(bug, beds))

    @mcp.tool()
    def dig_bed(label: Annotated[str, Field(min_length=1, max_length=40, description="The bed's label.")],
                crop: Annotated[str, Field(max_length=40, description="What to sow in it.")] = "beans") -> str:
        """Dig a new bed (or re-sow one) with a label and a crop; it is listed as a resource."""
        beds[label] = crop
        return f"dug {label}"

    @mcp.resource("garden://plan", name="plan", mime_type="text/plain",
                  description="How the garden is laid out, bed by bed.")
    def plan() -> str:
        return ", ".join(sorted(beds)) or "no beds yet"

    @mcp.resource(BEDS + "{label}/crop", name="crop", mime_type="text/plain",
                  description="What grows in a bed, by its label; a bed not dug grows nothing.")
    def crop(label: str) -> str:
        return beds.get(label, "nothing")

    @mcp.resource(BEDS + "{label}/area", name="area", mime_type="text/plain",
                  description="A bed's area in square metres, by its label (every bed is two).")
    def area(label: str) -> str:
        return "2" if label in beds else "0"

    @mcp.prompt(description="Ask for a planting plan for one bed, by its label.")
    def plan_bed(label: Annotated[str, Field(description="The bed to plan.")]) -> str:
        return f"Plan what to sow in the bed {label}."

    @mcp.prompt(description="Ask how much to water one bed, by its label.")
    def water_bed(label: Annotated[str, Field(description="The bed to water.")],
                  litres: Annotated[str, Field(description="A first guess in litres.")] = "5") -> str:
        return f"How much water does the bed {label} need? I guess {litres} litres."

    return mcp


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bug", choices=BUGS)
    args = parser.parse_args()
    mcp = build_server(args.bug)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: os._exit(0))
    mcp.run()


if __name__ == "__main__":
    main()
