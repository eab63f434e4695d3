"""Stores whose first reads mislead (`--store NAME`; `--bug` switches on the one bug).

- racks (snake_case names, structured output, server-made ids): rack_add(label, colour, shelf) files
  a rack and answers `{"id": n}`; rack_get(id) answers one rack, refused (isError) for an id that
  holds none; racks() answers `{"racks": [...]}`; rack_set(id, label, colour, shelf) replaces a
  rack's values, every one left out back to its default (so it is marked destructive).
  Bug: racks() shows each rack as it was added, never as set since.
- stamps (kebab-case names, JSON text, every argument optional): stamp-add(note, tag) files a stamp
  and answers its id; it is listed before the count, so the first look of a run calls it and makes a
  stamp before the count is read; stamp-count() answers `{"total": n}`; stamp(id) answers one
  stamp; stamp-list() answers every stamp. Bug: stamp-add answers a success for a note that holds a
  character outside ASCII and keeps nothing.
- folios (snake_case names, JSON text, a text code the caller gives): folio_add(code, title, body)
  files a folio under a new code, refused (isError) for a code filed already; folio_find(text)
  answers the folios whose title or body holds the text (never their code); folio(code); folios().
  Bug: folio_add answers a success for a body that holds a character outside ASCII and keeps nothing.

    python tests/servers/lagging_edits.py --store NAME [--bug]
"""

from __future__ import annotations

import json
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

Text = Annotated[str, Field(max_length=200)]
READ = ToolAnnotations(read_only_hint=True)
REPLACE = ToolAnnotations(destructive_hint=True, idempotent_hint=True)


class Rack(BaseModel):
    id: int
    label: str
    colour: str
    shelf: int


class Racks(BaseModel):
    racks: list[Rack]


class Made(BaseModel):
    id: int


def racks(mcp: MCPServer, bug: bool) -> None:
    held: dict[int, Rack] = {}
    added: dict[int, Rack] = {}

    @mcp.tool(name="rack_add", description="File a rack; answers its id.")
    def rack_add(label: Text = "", colour: Text = "", shelf: Annotated[int, Field(ge=0, le=99)] = 0) -> Made:
        rack = Rack(id=1000 + len(added), label=label, colour=colour, shelf=shelf)
        held[rack.id] = added[rack.id] = rack
        return Made(id=rack.id)

    @mcp.tool(name="rack_get", description="One rack by id.", annotations=READ)
    def rack_get(id: int) -> Rack:
        if id not in held:
            raise ToolError(f"no rack {id}")
        return held[id]

    @mcp.tool(name="racks", description="Every rack.", annotations=READ)
    def racks_() -> Racks:
        return Racks(racks=[added[i] if bug else held[i] for i in held])

    @mcp.tool(name="rack_set", description="Replace a rack's values; those left out go back to their defaults.",
              annotations=REPLACE)
    def rack_set(id: int, label: Text = "", colour: Text = "",
                 shelf: Annotated[int, Field(ge=0, le=99)] = 0) -> Made:
        if id not in held:
            raise ToolError(f"no rack {id}")
        held[id] = Rack(id=id, label=label, colour=colour, shelf=shelf)
        return Made(id=id)


def stamps(mcp: MCPServer, bug: bool) -> None:
    kept: dict[int, dict[str, object]] = {}
    made = [0]

    @mcp.tool(name="stamp-add", description="File a stamp; answers its id.", structured_output=False)
    def stamp_add(note: Text = "", tag: Text = "") -> str:
        made[0] += 1
        stamp = {"id": made[0], "note": note, "tag": tag}
        if not (bug and not note.isascii()):
            kept[made[0]] = stamp
        return json.dumps({"id": made[0]})

    @mcp.tool(name="stamp-count", description="How many stamps are filed.", annotations=READ,
              structured_output=False)
    def stamp_count() -> str:
        return json.dumps({"total": len(kept)})

    @mcp.tool(name="stamp", description="One stamp by id.", annotations=READ, structured_output=False)
    def stamp(id: int) -> str:
        if id not in kept:
            raise ToolError(f"no stamp {id}")
        return json.dumps(kept[id])

    @mcp.tool(name="stamp-list", description="Every stamp filed.", annotations=READ, structured_output=False)
    def stamp_list() -> str:
        return json.dumps(list(kept.values()))


def folios(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, dict[str, str]] = {}

    @mcp.tool(name="folio_add", description="File a folio under a new code.", structured_output=False)
    def folio_add(code: Annotated[str, Field(min_length=1, max_length=40)], title: Text, body: Text) -> str:
        if code in kept:
            raise ToolError(f"a folio is filed under {code} already")
        if not (bug and not body.isascii()):
            kept[code] = {"code": code, "title": title, "body": body}
        return f"filed {code}"

    @mcp.tool(name="folio_find", description="Folios whose title or body holds the text.", annotations=READ,
              structured_output=False)
    def folio_find(text: Annotated[str, Field(min_length=1, max_length=200)]) -> str:
        return json.dumps([f for f in kept.values() if text in f["title"] or text in f["body"]])

    @mcp.tool(name="folio", description="One folio by code.", annotations=READ, structured_output=False)
    def folio(code: str) -> str:
        if code not in kept:
            raise ToolError(f"no folio {code}")
        return json.dumps(kept[code])

    @mcp.tool(name="folios", description="Every folio.", annotations=READ, structured_output=False)
    def folios_() -> str:
        return json.dumps(list(kept.values()))


if __name__ == "__main__":
    serving.main_stores({"racks": racks, "stamps": stamps, "folios": folios}, "lagging", __doc__ or "")
