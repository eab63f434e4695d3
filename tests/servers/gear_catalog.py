"""A catalog whose records hold fields of every type, each store with a twin that loses one kind of
value (another style than typed_fields.py: camelCase tools, answers in an {"ok", "data"} envelope,
refusals as {"ok": false, "error": ...}, records told apart by `sku`, `slug` and `ref`).

`--bug` switches on every store's bug at once; without it every store is the correct twin.

- parts: createPart(sku, description, grade A-D, weightKg); getPart(sku), listParts(). Bug: grade
  "D" is mapped to "C" on the way in.
- playlists: createPlaylist(slug, title, tracks up to 20); listPlaylists(). Bug: only the first
  five tracks are kept.
- tickets: saveTicket(ref, summary, assignee?, urgent?) creates a ticket or updates the one with
  that ref; listTickets(). Bug: a creation keeps only the ref and the summary, an update keeps
  every field.

    python tests/servers/gear_catalog.py [--bug]
"""

from __future__ import annotations

import argparse
import json
from typing import Annotated, Any, Literal

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

Text = Annotated[str, Field(max_length=160)]
GRADES_IN = {"A": "A", "B": "B", "C": "C", "D": "D"}
GRADES_IN_BUGGY = {**GRADES_IN, "D": "C"}
KEPT_TRACKS = 5


def ok(data: Any) -> str:
    return json.dumps({"ok": True, "data": data})


def refused(error: str) -> str:
    return json.dumps({"ok": False, "error": error})


def parts(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, dict[str, Any]] = {}
    grades = GRADES_IN_BUGGY if bug else GRADES_IN

    @mcp.tool(name="createPart", description="Create or replace a catalog part by SKU.", structured_output=False)
    def create_part(sku: Text, description: Text, grade: Literal["A", "B", "C", "D"],
                    weightKg: Annotated[float, Field(gt=0, le=250)]) -> str:
        if not sku.strip():
            return refused("sku must not be blank")
        kept[sku] = {"sku": sku, "description": description, "grade": grades[grade], "weightKg": weightKg}
        return ok({"sku": sku})

    @mcp.tool(name="getPart", description="One part by SKU.", structured_output=False)
    def get_part(sku: str) -> str:
        return ok(kept[sku]) if sku in kept else refused(f"unknown sku {sku!r}")

    @mcp.tool(name="listParts", description="Every part in the catalog.", structured_output=False)
    def list_parts() -> str:
        return ok(list(kept.values()))


def playlists(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, dict[str, Any]] = {}

    @mcp.tool(name="createPlaylist", description="Create or replace a playlist by slug.", structured_output=False)
    def create_playlist(slug: Text, title: Text, tracks: Annotated[list[Text], Field(max_length=20)]) -> str:
        kept[slug] = {"slug": slug, "title": title, "tracks": tracks[:KEPT_TRACKS] if bug else list(tracks)}
        return ok({"slug": slug, "tracks": len(tracks)})

    @mcp.tool(name="listPlaylists", description="Every playlist with its tracks.", structured_output=False)
    def list_playlists() -> str:
        return ok(list(kept.values()))


def tickets(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, dict[str, Any]] = {}

    @mcp.tool(name="saveTicket", description="Create a ticket, or update the ticket with this ref.",
              structured_output=False)
    def save_ticket(ref: Text, summary: Text, assignee: Text | None = None, urgent: bool | None = None) -> str:
        given = {k: v for k, v in {"assignee": assignee, "urgent": urgent}.items() if v is not None}
        if ref in kept:
            kept[ref].update({"summary": summary, **given})
        else:
            kept[ref] = {"ref": ref, "summary": summary, **({} if bug else given)}
        return ok({"ref": ref})

    @mcp.tool(name="listTickets", description="Every ticket.", structured_output=False)
    def list_tickets() -> str:
        return ok(list(kept.values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bug", action="store_true", help="every store's bug at once")
    args = parser.parse_args()
    serving.exit_on_signals()
    mcp = MCPServer("gear-catalog", log_level="WARNING")
    for store in (parts, playlists, tickets):
        store(mcp, args.bug)
    mcp.run()


if __name__ == "__main__":
    main()
