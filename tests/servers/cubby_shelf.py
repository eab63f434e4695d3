"""Cubbies named by the caller, read one at a time: a store with no listing, only a keyed read.

The tools are bound methods of one `Shelf`, registered with `add_tool` under dotted names; every
answer is plain text (no structured content), `name = value` lines.
- cubby.stow(cubby, contents, owner): fills the cubby the caller names (a filled one is replaced);
  answers "stowed = <cubby>".
- cubby.peek(cubby): the cubby's three lines, or "(empty)" as a success for a cubby nothing fills.
- cubby.relabel(cubby, owner): gives a filled cubby a new owner; an empty one is refused (isError).
- cubby.clear(cubby): empties a cubby (annotated destructive).

`--bug drops-contents`: cubby.relabel stores the new owner and empties the contents.

    python tests/servers/cubby_shelf.py [--bug drops-contents]
"""

from __future__ import annotations

from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

BUGS = ("drops-contents",)
Name = Annotated[str, Field(min_length=1, max_length=60)]


class Shelf:
    def __init__(self, bug: str | None) -> None:
        self.bug = bug
        self.cubbies: dict[str, tuple[str, str]] = {}

    def stow(self, cubby: Name, contents: str, owner: str) -> str:
        """Put something in a cubby."""
        self.cubbies[cubby] = (contents, owner)
        return f"stowed = {cubby}"

    def peek(self, cubby: Name) -> str:
        """What a cubby holds."""
        if cubby not in self.cubbies:
            return "(empty)"
        contents, owner = self.cubbies[cubby]
        return f"cubby = {cubby}\nowner = {owner}\ncontents = {contents}"

    def relabel(self, cubby: Name, owner: str) -> str:
        """Give a cubby another owner."""
        if cubby not in self.cubbies:
            raise ValueError(f"cubby {cubby} is empty")
        contents, _ = self.cubbies[cubby]
        self.cubbies[cubby] = ("" if self.bug == "drops-contents" else contents, owner)
        return f"relabelled = {cubby}"

    def clear(self, cubby: Name) -> str:
        """Empty a cubby."""
        self.cubbies.pop(cubby, None)
        return f"cleared = {cubby}"


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("cubby-shelf", log_level="WARNING")
    shelf = Shelf(bug)
    for method, hints in ((shelf.stow, None), (shelf.peek, ToolAnnotations(read_only_hint=True)),
                          (shelf.relabel, None), (shelf.clear, ToolAnnotations(destructive_hint=True))):
        mcp.add_tool(method, name=f"cubby.{method.__name__}", annotations=hints, structured_output=False)
    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
