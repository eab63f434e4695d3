"""Three stores whose correct behaviour once drew a high false finding, each with a buggy twin (issue 42).

Every store is its own server (`--store NAME`); `--bug` switches on its twin's one bug. Tool names
are dotted or dashed, writes are told by their annotations only (no description names a verb),
answers are JSON text, tab-separated rows or prose, and a miss is refused in prose.

- cookbook: `cookbook.file(title, method, cuisine)` answers `{"filed": N}`;
  `cookbook.lookup(phrase)` answers the recipes whose title holds the phrase (case-insensitive),
  never looking at the method or the cuisine; `cookbook.shelf()` answers every recipe, JSON text.
  Bug: lookup never sees the recipes of one shard (those whose title has an odd CRC-32).
- logbook: `log-append(log, entry, by)` adds a line to the log it names (a new name opens a log);
  `log-read(log)` answers the log's lines, one `by<TAB>entry` row each; `log-index()` answers a row
  per log: its name, its number of lines and its latest line. Bug: an entry of more than 40
  characters is dropped, though the append still answers that it added it.
- pinboard: `pin(label, body)` keeps a pin under its label and answers `Pinned under 'x'.`;
  `pins()` answers a prose line per pin; `pin-show(label)` answers one pin, JSON text. Control
  characters are dropped from the label and the body, and from the label a lookup asks by.
  Bug: a pin whose text held a control character is lost, though its pin answers as pinned.

    python tests/servers/shape_stores.py --store NAME [--bug]
"""

from __future__ import annotations

import json
import unicodedata
import zlib
from typing import Annotated

import serving
from mcp import types
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

Text = Annotated[str, Field(min_length=1, max_length=120)]
WRITES = types.ToolAnnotations(read_only_hint=False, destructive_hint=False)
READS = types.ToolAnnotations(read_only_hint=True)


def cookbook(mcp: MCPServer, bug: bool) -> None:
    recipes: list[dict[str, object]] = []

    @mcp.tool(name="cookbook.file", structured_output=False, annotations=WRITES)
    def file(title: Text, method: Text, cuisine: Text) -> str:
        recipes.append({"no": len(recipes) + 1, "title": title, "method": method, "cuisine": cuisine})
        return json.dumps({"filed": len(recipes)})

    @mcp.tool(name="cookbook.lookup", structured_output=False,
              annotations=READS)
    def lookup(phrase: Text) -> str:
        seen = [r for r in recipes if not bug or zlib.crc32(str(r["title"]).encode()) % 2 == 0]
        return json.dumps([r for r in seen if phrase.casefold() in str(r["title"]).casefold()])

    @mcp.tool(name="cookbook.shelf", structured_output=False,
              annotations=READS)
    def shelf() -> str:
        return json.dumps(recipes)


def logbook(mcp: MCPServer, bug: bool) -> None:
    logs: dict[str, list[tuple[str, str]]] = {}

    @mcp.tool(name="log-append", structured_output=False, annotations=WRITES)
    def append(log: Text, entry: Text, by: Text) -> str:
        if not (bug and len(entry) > 40):
            logs.setdefault(log, []).append((by, entry))
        return f"appended to {log}"

    @mcp.tool(name="log-read", structured_output=False, annotations=READS)
    def read(log: Text) -> str:
        if log not in logs:
            raise ToolError(f"there is no log called {log}")
        return "\n".join(f"{by}\t{entry}" for by, entry in logs[log])

    @mcp.tool(name="log-index", structured_output=False, annotations=READS)
    def index() -> str:
        return "\n".join(["log\tlines\tlatest", *(f"{name}\t{len(lines)}\t{lines[-1][1] if lines else ''}"
                                                   for name, lines in logs.items())])


def pinboard(mcp: MCPServer, bug: bool) -> None:
    board: dict[str, str] = {}

    def clean(text: str) -> str:
        return "".join(c for c in text if unicodedata.category(c) != "Cc")

    @mcp.tool(name="pin", structured_output=False, annotations=WRITES)
    def pin(label: Text, body: Text) -> str:
        if not (bug and (clean(label) != label or clean(body) != body)):
            board[clean(label)] = clean(body)
        return f"Pinned under {clean(label)!r}."

    @mcp.tool(name="pins", structured_output=False, annotations=READS)
    def pins() -> str:
        if not board:
            return "The board is empty."
        return "\n".join(f"The pin {label!r} reads {body!r}." for label, body in board.items())

    @mcp.tool(name="pin-show", structured_output=False, annotations=READS)
    def show(label: Text) -> str:
        if clean(label) not in board:
            raise ToolError(f"Nothing is pinned under {clean(label)!r}.")
        return json.dumps({"label": clean(label), "body": board[clean(label)]})


def main() -> None:
    serving.main_stores({"cookbook": cookbook, "logbook": logbook, "pinboard": pinboard}, "shapes", __doc__ or "")


if __name__ == "__main__":
    main()
