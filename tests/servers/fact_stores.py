"""Stores whose shapes once kept `learn` from showing a fact its experiments could show (issue 42).

Every store is its own server (`--store NAME`), and a correct one: what the suite checks is what
`learn` shows of it (tests/test_learn_facts.py), not a finding. Tool names
are PascalCase, no tool has a description or an annotation, answers are JSON text under a `rows`
member, and a miss is refused with `isError`.

- tins: `TinStock(code, shade, litres)` keeps a tin under its code (`^[A-Z]{3}[0-9]{3}$`; a second
  stock of a code is refused) and answers `stocked`; its shade must be lowercase letters, so no
  value the run writes can carry a marker. `TinAll()` answers every tin, `TinOne(code)` one tin, and
  `ShadeMatch(text)` the tins whose shade holds the text, never looking at the code.
- crates: `CratePack(tag, note, kilos)` keeps a crate under its tag (a second pack of a tag is
  refused); `CrateAll()` answers every crate; `CrateFind(note)` the crates whose note holds every
  word of the text, its argument named like the field it searches.

    python tests/servers/fact_stores.py --store NAME
"""

from __future__ import annotations

import argparse
import json
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

Code = Annotated[str, Field(pattern=r"^[A-Z]{3}[0-9]{3}$")]
Shade = Annotated[str, Field(pattern=r"^[a-z]{3,16}$")]


def table(rows: list[dict[str, object]]) -> str:
    return json.dumps({"rows": rows, "n": len(rows)})


def tins(mcp: MCPServer) -> None:
    stock: dict[str, dict[str, object]] = {}

    @mcp.tool(name="TinStock", structured_output=False)
    def tin_stock(code: Code, shade: Shade, litres: Annotated[int, Field(ge=1, le=20)]) -> str:
        if code in stock:
            raise ToolError(f"{code} is on the shelf already")
        stock[code] = {"code": code, "shade": shade, "litres": litres}
        return "stocked"

    @mcp.tool(name="TinAll", structured_output=False)
    def tin_all() -> str:
        return table(list(stock.values()))

    @mcp.tool(name="TinOne", structured_output=False)
    def tin_one(code: Code) -> str:
        if code not in stock:
            raise ToolError(f"no tin {code}")
        return table([stock[code]])

    @mcp.tool(name="ShadeMatch", structured_output=False)
    def shade_match(text: Annotated[str, Field(min_length=1, max_length=40)]) -> str:
        return table([t for t in stock.values() if text.lower() in str(t["shade"])])


def crates(mcp: MCPServer) -> None:
    packed: dict[str, dict[str, object]] = {}

    @mcp.tool(name="CratePack", structured_output=False)
    def crate_pack(tag: Annotated[str, Field(min_length=1, max_length=30)], note: Annotated[str, Field(max_length=200)],
                   kilos: Annotated[int, Field(ge=0)] = 0) -> str:
        if tag in packed:
            raise ToolError(f"crate {tag} exists")
        packed[tag] = {"tag": tag, "note": note, "kilos": kilos}
        return json.dumps({"packed": tag})

    @mcp.tool(name="CrateAll", structured_output=False)
    def crate_all() -> str:
        return table(list(packed.values()))

    @mcp.tool(name="CrateFind", structured_output=False)
    def crate_find(note: Annotated[str, Field(min_length=1, max_length=200)]) -> str:
        words = set(note.lower().split())
        return table([c for c in packed.values() if words <= set(str(c["note"]).lower().split())])


STORES = {"tins": tins, "crates": crates}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--store", choices=sorted(STORES), required=True)
    store = parser.parse_args().store
    serving.exit_on_signals()
    mcp = MCPServer(f"facts-{store}", log_level="WARNING")
    STORES[store](mcp)
    mcp.run()


if __name__ == "__main__":
    main()
