"""Stores whose removals some reader misses (`--store NAME`; `--bug` switches on the one bug).

- pantry (kebab-case names, structured output): add-jar(label, spice, grams) files a jar under its
  label; jar(label) answers one jar, refused (isError) for a label that holds none; jars() answers
  `{"jars": [...]}`; use-up(label) removes a jar and answers it (so its answer reads like a read's).
  Bug: jars() answers the jars as they were after the last add-jar, so a jar used up stays listed.
- badges (dotted names, JSON text; a badge's only text is its code): badge.issue(code, level, active)
  files a badge; badge.show(code) answers one, or `Error: no badge coded <code>` with isError unset
  (the refusal names the code asked); badge.all() answers every badge; badge.revoke(code) removes
  one. Bug: badge.show still answers a badge revoked.

    python tests/servers/lagging_views.py --store NAME [--bug]
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

Text = Annotated[str, Field(min_length=1, max_length=200)]
Code = Annotated[str, Field(pattern=r"^[a-z0-9]{4,24}$")]
READ = ToolAnnotations(read_only_hint=True)
GONE = ToolAnnotations(destructive_hint=True)


class Jar(BaseModel):
    label: str
    spice: str
    grams: int


class Jars(BaseModel):
    jars: list[Jar]


def pantry(mcp: MCPServer, bug: bool) -> None:
    shelf: dict[str, Jar] = {}
    seen: list[list[Jar]] = [[]]

    @mcp.tool(name="add-jar", description="Put a jar on the shelf under its label.")
    def add_jar(label: Text, spice: Text, grams: Annotated[int, Field(ge=1, le=5000)]) -> Jar:
        shelf[label] = Jar(label=label, spice=spice, grams=grams)
        seen[0] = list(shelf.values())
        return shelf[label]

    @mcp.tool(name="jar", description="The jar under a label.", annotations=READ)
    def jar(label: str) -> Jar:
        if label not in shelf:
            raise ToolError(f"the shelf has no jar labelled {label}")
        return shelf[label]

    @mcp.tool(name="jars", description="The jars on the shelf.", annotations=READ)
    def jars() -> Jars:
        return Jars(jars=seen[0] if bug else list(shelf.values()))

    @mcp.tool(name="use-up", description="Take a jar off the shelf; answers the jar taken.", annotations=GONE)
    def use_up(label: str) -> Jar:
        if label not in shelf:
            raise ToolError(f"the shelf has no jar labelled {label}")
        return shelf.pop(label)


def badges(mcp: MCPServer, bug: bool) -> None:
    issued: dict[str, dict[str, Any]] = {}
    revoked: dict[str, dict[str, Any]] = {}

    @mcp.tool(name="badge.issue", description="Issue a badge under a code.", structured_output=False)
    def issue(code: Code, level: Annotated[int, Field(ge=1, le=9)], active: bool) -> str:
        issued[code] = {"code": code, "level": level, "active": active}
        revoked.pop(code, None)
        return json.dumps(issued[code])

    @mcp.tool(name="badge.show", description="One badge by code.", annotations=READ, structured_output=False)
    def show(code: str) -> str:
        badge = issued.get(code) or (revoked.get(code) if bug else None)
        return json.dumps(badge) if badge is not None else f"Error: no badge coded {code}"

    @mcp.tool(name="badge.all", description="Every badge issued.", annotations=READ, structured_output=False)
    def all_() -> str:
        return json.dumps(list(issued.values()))

    @mcp.tool(name="badge.revoke", description="Revoke a badge.", annotations=GONE, structured_output=False)
    def revoke(code: str) -> str:
        if code not in issued:
            raise ToolError(f"no badge coded {code}")
        revoked[code] = issued.pop(code)
        return json.dumps({"revoked": code})


if __name__ == "__main__":
    serving.main_stores({"pantry": pantry, "badges": badges}, "lagging", __doc__ or "")
