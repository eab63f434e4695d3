"""A yard of crates, racks and a tape, each store with a twin that loses data one way the laws
machine once missed (PascalCase tools, structured answers, records numbered by the server).

Every store is its own server (`--store NAME`); `--bug` switches on its one bug.

- crates: AddCrate(label, contents up to 8 texts) answers {"crateNo": n}; RelabelCrate(crateNo,
  label) changes the label (it has no way to name the contents); Crates() lists every crate. Bug:
  a relabel empties the crate's contents.
- racks: PutRack(code, slots up to 9 texts) creates or replaces the rack with that code; Racks()
  lists every rack. Bug: only the first four slots are kept.
- tape: Record(line, source) adds a line and answers {"lineNo": n}; Tape() lists every line, oldest
  first. Bug: once the tape holds three lines, the next one rewinds it: only the first line is kept
  before the new one.

    python tests/servers/crate_yard.py --store NAME [--bug]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

Label = Annotated[str, Field(max_length=120)]


def crates(mcp: MCPServer, bug: bool) -> None:
    kept: dict[int, dict[str, Any]] = {}
    numbers = itertools.count(1)

    @mcp.tool(name="AddCrate", description="Add a crate with a label and its contents.")
    def add(label: Label, contents: Annotated[list[Label], Field(max_length=8)]) -> dict[str, Any]:
        number = next(numbers)
        kept[number] = {"crateNo": number, "label": label, "contents": list(contents)}
        return {"crateNo": number}

    @mcp.tool(name="RelabelCrate", description="Give a crate a new label.")
    def relabel(crateNo: int, label: Label) -> dict[str, Any]:
        if crateNo not in kept:
            raise ToolError(f"no crate {crateNo}")
        kept[crateNo]["label"] = label
        if bug:
            kept[crateNo]["contents"] = []
        return {"crateNo": crateNo, "relabelled": True}

    @mcp.tool(name="Crates", description="Every crate in the yard.")
    def every() -> dict[str, Any]:
        return {"crates": list(kept.values())}


def racks(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, dict[str, Any]] = {}

    @mcp.tool(name="PutRack", description="Create or replace the rack with this code.")
    def put(code: Label, slots: Annotated[list[Label], Field(max_length=9)]) -> dict[str, Any]:
        kept[code] = {"code": code, "slots": list(slots)[:4] if bug else list(slots)}
        return {"code": code, "stored": True}

    @mcp.tool(name="Racks", description="Every rack with its slots.")
    def every() -> dict[str, Any]:
        return {"racks": list(kept.values())}


def tape(mcp: MCPServer, bug: bool) -> None:
    lines: list[dict[str, Any]] = []
    numbers = itertools.count(1)

    @mcp.tool(name="Record", description="Add a line to the tape.")
    def record(line: Label, source: Label) -> dict[str, Any]:
        if bug and len(lines) >= 3:
            del lines[1:]
        entry = {"lineNo": next(numbers), "line": line, "source": source}
        lines.append(entry)
        return {"lineNo": entry["lineNo"]}

    @mcp.tool(name="Tape", description="Every line on the tape, oldest first.")
    def every() -> dict[str, Any]:
        return {"lines": lines}


STORES: dict[str, Callable[[MCPServer, bool], None]] = {"crates": crates, "racks": racks, "tape": tape}


def main() -> None:
    serving.main_stores(STORES, "yard", __doc__ or "")


if __name__ == "__main__":
    main()
