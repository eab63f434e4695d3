"""A parts bin kept by a class whose bound methods are the tools (issue: one machine over the whole
server). Parts are keyed by `part`; stock comes in packs of two, so an odd `qty` is refused.

- stock(part, label, qty): a new part, refused (isError) when `qty` is odd or the part exists
- part(part): one part as JSON, refused when there is none
- parts(): every part as JSON lines `{"part": ..., "label": ..., "qty": ...}`
- tally(): `{"parts": n}`
- scrap(part): removes a part (destructive), refused when there is none
- relabel(part, new_part): files a part under a new key, refused when there is none or the new key
  is taken (a move: the part is then found only under its new key)

Bugs (`--bug NAME`, the correct twin without):
- refusal: a refused stock still files the part (the check runs after the write)
- cache: part() answers from a cache that scrap does not clear, so a scrapped part still reads

    python tests/servers/parts_bin.py [--bug refusal|cache]
"""

from __future__ import annotations

import json
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

Key = Annotated[str, Field(min_length=1, max_length=80)]
Label = Annotated[str, Field(max_length=200)]


class Bin:
    def __init__(self, bug: str | None) -> None:
        self.bug = bug
        self.held: dict[str, dict[str, object]] = {}
        self.cache: dict[str, dict[str, object]] = {}
        self.count = 0

    def stock(self, part: Key, label: Label, qty: Annotated[int, Field(ge=0, le=1000)]) -> str:
        """Put a new part in the bin; stock comes in packs of two (an even qty)."""
        if part in self.held:
            raise ToolError(f"part {part!r} is already in the bin")
        if qty % 2 and self.bug != "refusal":
            raise ToolError("qty must be even: stock comes in packs of two")
        self.held[part] = {"part": part, "label": label, "qty": qty}
        self.count += 1
        if qty % 2:
            raise ToolError("qty must be even: stock comes in packs of two")
        return json.dumps(self.held[part])

    def part(self, part: Key) -> str:
        """One part of the bin."""
        if self.bug == "cache" and part in self.held:
            self.cache[part] = self.held[part]
        found = self.cache.get(part) if self.bug == "cache" else self.held.get(part)
        if found is None:
            raise ToolError(f"no part {part!r}")
        return json.dumps(found)

    def parts(self) -> str:
        """Every part, one JSON object a line."""
        return "\n".join(json.dumps(p) for p in self.held.values())

    def tally(self) -> str:
        """How many parts the bin holds."""
        return json.dumps({"parts": self.count})

    def relabel(self, part: Key, new_part: Key) -> str:
        """File a part under a new key."""
        if part not in self.held or new_part in self.held:
            raise ToolError(f"no part {part!r}, or {new_part!r} is taken")
        self.held[new_part] = {**self.held.pop(part), "part": new_part}
        return json.dumps(self.held[new_part])

    def scrap(self, part: Key) -> str:
        """Throw a part away."""
        if self.held.pop(part, None) is None:
            raise ToolError(f"no part {part!r}")
        self.count -= 1
        return json.dumps({"scrapped": part})


def build(bug: str | None) -> MCPServer:
    mcp = MCPServer("parts-bin", log_level="WARNING")
    kept = Bin(bug)
    for method in (kept.stock, kept.part, kept.parts, kept.tally, kept.relabel):
        mcp.add_tool(method, structured_output=False)
    mcp.add_tool(kept.scrap, structured_output=False, annotations=ToolAnnotations(destructive_hint=True))
    return mcp


if __name__ == "__main__":
    serving.main_sdk(build, ("refusal", "cache"), __doc__ or "")
