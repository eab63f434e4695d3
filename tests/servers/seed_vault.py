"""A seed vault whose tools are plain functions answering pydantic models (structured output), for
laws 6 to 9 of the laws machine. A packet is keyed by its `code`; it may name a `parent` packet,
whose variety a read shows beside its own.

- bank(code, variety, grams, parent=""): a new packet, refused (isError) when the code is taken
- packet(code): one packet, with `parent_variety`: the variety of its parent while that is banked
- vault(limit=4, cursor=""): packets oldest first, `limit` a page, `next_cursor` to the next page
- withdraw(code): removes a packet (destructive), refused when there is none

Bugs (`--bug NAME`, the correct twin without):
- evicts: the vault holds six packets; a seventh bank drops the oldest without a word
- fold: codes are filed trimmed and case-folded, so banking `AB` after `ab` overwrites `ab`
- merge: codes are filed trimmed and case-folded, and banking `AB` after `ab` answers `ab`'s packet
  as a success (a fold in plain sight that loses nothing: a warning)
- pages: `next_cursor` points one packet past the page's end, so each page boundary skips one
- dangle: a packet copies its parent's variety when banked and shows it after the parent is withdrawn

    python tests/servers/seed_vault.py [--bug evicts|fold|merge|pages|dangle]
"""

from __future__ import annotations

from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

BUGS = ("evicts", "fold", "merge", "pages", "dangle")
KEEP = 6
Code = Annotated[str, Field(min_length=1, max_length=80)]


class Packet(BaseModel):
    code: str
    variety: str
    grams: int
    parent: str
    parent_variety: str | None = None


class Page(BaseModel):
    packets: list[Packet]
    next_cursor: str | None = None


def build(bug: str | None) -> MCPServer:
    mcp = MCPServer("seed-vault", log_level="WARNING")
    held: dict[str, Packet] = {}
    copied: dict[str, str | None] = {}

    def filed(code: str) -> str:
        return code.strip().casefold() if bug in ("fold", "merge") else code

    def shown(packet: Packet) -> Packet:
        live = held.get(filed(packet.parent)) if packet.parent else None
        variety = copied.get(filed(packet.code)) if bug == "dangle" else live.variety if live else None
        return packet.model_copy(update={"parent_variety": variety})

    @mcp.tool(description="Bank a new packet of seeds under its code, optionally naming its parent packet.")
    def bank(code: Code, variety: Annotated[str, Field(max_length=200)],
             grams: Annotated[int, Field(ge=1, le=5000)], parent: Annotated[str, Field(max_length=80)] = "") -> Packet:
        key = filed(code)
        if key in held and bug == "merge":
            return shown(held[key])
        if key in held and bug != "fold":
            raise ToolError(f"code {code!r} is already banked")
        parent_packet = held.get(filed(parent)) if parent else None
        copied[key] = parent_packet.variety if parent_packet else None
        held.pop(key, None)
        held[key] = Packet(code=code, variety=variety, grams=grams, parent=parent)
        while bug == "evicts" and len(held) > KEEP:
            del held[next(iter(held))]
        return shown(held[key])

    @mcp.tool(description="One banked packet by its code.", annotations=ToolAnnotations(read_only_hint=True))
    def packet(code: Code) -> Packet:
        found = held.get(filed(code))
        if found is None:
            raise ToolError(f"no packet {code!r}")
        return shown(found)

    @mcp.tool(description="The banked packets, oldest first, a page at a time.",
              annotations=ToolAnnotations(read_only_hint=True))
    def vault(limit: Annotated[int, Field(ge=1, le=50)] = 4, cursor: str = "") -> Page:
        every = list(held.values())
        start = int(cursor.removeprefix("at-")) if cursor.removeprefix("at-").isdigit() else 0
        end = start + limit
        step = end + 1 if bug == "pages" else end
        following = f"at-{step}" if end < len(every) else None
        return Page(packets=[shown(p) for p in every[start:end]], next_cursor=following)

    @mcp.tool(description="Withdraw a packet from the vault for good.",
              annotations=ToolAnnotations(destructive_hint=True))
    def withdraw(code: Code) -> str:
        if held.pop(filed(code), None) is None:
            raise ToolError(f"no packet {code!r}")
        return f"withdrew {code}"

    return mcp


if __name__ == "__main__":
    serving.main_sdk(build, BUGS, __doc__ or "")
