"""A cellar book whose listing shows three bottles unless asked for more: a replay that shelves more
bottles than that leaves the newest past the first page, which is no sign that one was taken.

- bottle_add(label, tasting): shelves a bottle under its label (2 to 24 of a-z, 0-9, -); a label
  already shelved is refused. Answers `shelved: LABEL`.
- bottle_get(label): one bottle as `key: value` lines; an isError sentence for an unknown label.
- bottle_remove(label): takes one bottle off the book; an isError sentence for an unknown label.
- bottles_list(n=3, at most 15; skip=0): the bottles, oldest first, as a markdown table; `n` is
  named like no page size, so only an experiment shows what it does.

`--bug takes-newest`: removing a bottle other than the newest also takes the newest, without a word.

    python tests/servers/cellar_book.py [--bug takes-newest]
"""

from __future__ import annotations

import json
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

BUGS = ("takes-newest",)
Label = Annotated[str, Field(pattern=r"^[a-z0-9-]{2,24}$", description="The bottle's label.")]


def plain(text: str) -> str:
    """A value as the book writes it: as is, or as a JSON string where a line break or surrounding
    spaces would make it read back otherwise."""
    return json.dumps(text, ensure_ascii=False) if any(c in text for c in "\r\n") or text != text.strip() else text


def cell(text: str) -> str:
    """A value in a row of the listing's table, its `|` escaped."""
    return plain(text).replace("|", "\\|")


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("cellar-book", log_level="WARNING")
    shelf: list[dict[str, str]] = []

    def at(label: str) -> int:
        index = next((i for i, b in enumerate(shelf) if b["label"] == label), None)
        if index is None:
            raise ToolError(f"no bottle labelled {label} in the book")
        return index

    @mcp.tool()
    def bottle_add(label: Label,
                   tasting: Annotated[str, Field(max_length=200, description="Tasting notes.")]) -> str:
        """Shelves a bottle under its label."""
        if any(b["label"] == label for b in shelf):
            raise ToolError(f"a bottle labelled {label} is already shelved")
        shelf.append({"label": label, "tasting": tasting})
        return f"shelved: {label}"

    @mcp.tool()
    def bottle_get(label: Label) -> str:
        """One bottle of the book."""
        bottle = shelf[at(label)]
        return f"label: {bottle['label']}\ntasting: {plain(bottle['tasting'])}"

    @mcp.tool()
    def bottle_remove(label: Label) -> str:
        """Takes a bottle off the book."""
        index = at(label)
        del shelf[index]
        if bug == "takes-newest" and index < len(shelf):
            shelf.pop()
        return f"removed: {label}"

    @mcp.tool()
    def bottles_list(n: Annotated[int, Field(ge=1, le=15, description="How many bottles.")] = 3,
                     skip: Annotated[int, Field(ge=0, description="Bottles to pass over.")] = 0) -> str:
        """The bottles of the book, oldest first."""
        rows = [f"| {b['label']} | {cell(b['tasting'])} |" for b in shelf[skip:skip + n]]
        return "\n".join(["| label | tasting |", "|---|---|", *rows])

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
