"""A visitors' book: each visitor signs once under a name of their own; the book's first page shows
the earliest signatures only. Answers are JSON text only (no output schema), no tool is annotated, and
a refusal is `isError` with a sentence.

- sign(name, note, city?): signs the book; a name already signed is refused.
- visitor(name): the signature under that name.
- first_signatures(limit?): the earliest signatures, oldest first, `limit` of them (1 to 3, 3 by
  default): `{"signatures": [...]}`.

`--bug read-moves`: visitor moves the signature it reads to the end of the book (as though signed
again), so first_signatures no longer shows it where it showed it before; the signature itself is
unchanged, so every read of it answers the same.

    python tests/servers/visitor_book.py [--bug read-moves]
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

BUGS = ("read-moves",)
Text = Annotated[str, Field(min_length=1, max_length=80)]


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("visitor-book", log_level="WARNING")
    book: dict[str, dict[str, Any]] = {}

    @mcp.tool(structured_output=False)
    def sign(name: Text, note: Text, city: Annotated[str, Field(max_length=80)] | None = None) -> str:
        """Signs the visitors' book under a name of the visitor's own."""
        if name in book:
            raise ValueError(f"{name} has already signed")
        book[name] = {"name": name, "note": note, "city": city}
        return json.dumps(book[name])

    @mcp.tool(structured_output=False)
    def visitor(name: str) -> str:
        """The signature under a name."""
        if name not in book:
            raise ValueError(f"no signature under {name}")
        if bug == "read-moves":
            book[name] = book.pop(name)
        return json.dumps(book[name])

    @mcp.tool(structured_output=False)
    def first_signatures(limit: Annotated[int, Field(ge=1, le=3)] = 3) -> str:
        """The earliest signatures in the book, oldest first."""
        return json.dumps({"signatures": list(book.values())[:limit]})

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
