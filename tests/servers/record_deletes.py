"""Two stores whose deletes must delete, in two styles, each with bugs a `--bug` switches on (issue: invariants).

Without `--bug` both stores are correct twins. `--bug` may be given more than once; each names a
store and its bug (`notes-kept`, `deck-neighbour`, ...), so one server can hold a bug in each store.

- notes (snake names, keyed get, isError refusals): add_note(title, text) keeps one note per title;
  get_note(title) answers the note as JSON, or an isError "no note titled ..."; delete_note(title),
  annotated destructiveHint, removes it (a second delete is refused with isError).
  Bugs: `notes-kept` answers "Deleted" and keeps the note; `notes-neighbour` removes the note and the
  one written after it (a slice one too long); `notes-again` answers a second delete of a deleted
  note with a success result reading "Error: ..." (a note never written is still refused with isError).
- deck (dotted names, a listing, refusals as {"error": ...} text): deck.put(label, detail) keeps one
  card per label; deck.all() answers {"cards": [...]}; deck.drop(label), whose description says it
  deletes, removes a card. Bugs: `deck-kept` marks the card dropped and deck.all still lists it;
  `deck-neighbour` drops every card whose label shares the first eight characters (a truncated compare).

`--log FILE` appends one JSON line per tool call (`{"tool": ..., "arguments": ...}`): the tests read it
to see which tools a run called.

    python tests/servers/record_deletes.py [--bug NAME ...] [--log FILE]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

Text = Annotated[str, Field(min_length=1, max_length=200)]
BUGS = ("notes-kept", "notes-neighbour", "notes-again", "deck-kept", "deck-neighbour")
READ_ONLY = ToolAnnotations(read_only_hint=True)
PREFIX = 8


def notes(mcp: MCPServer, bugs: set[str], logged: Callable[[str, dict[str, Any]], None]) -> None:
    kept: list[dict[str, str]] = []
    deleted: set[str] = set()

    def index(title: str) -> int | None:
        return next((i for i, n in enumerate(kept) if n["title"] == title), None)

    @mcp.tool(name="add_note", description="Add a note; a title holds one note.", structured_output=False)
    def add(title: Text, text: Text) -> str:
        logged("add_note", {"title": title, "text": text})
        at = index(title)
        if at is None:
            kept.append({"title": title, "text": text})
        else:
            kept[at] = {"title": title, "text": text}
        deleted.discard(title)
        return f"Added note '{title}'."

    @mcp.tool(name="get_note", description="The note with this title.", annotations=READ_ONLY,
              structured_output=False)
    def get(title: str) -> str:
        logged("get_note", {"title": title})
        at = index(title)
        if at is None:
            raise ValueError(f"no note titled {title!r}")
        return json.dumps(kept[at])

    @mcp.tool(name="delete_note", description="Remove the note with this title.",
              annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True), structured_output=False)
    def delete(title: str) -> str:
        logged("delete_note", {"title": title})
        at = index(title)
        if at is None:
            if "notes-again" in bugs and title in deleted:
                return f"Error: the note {title!r} was already deleted"
            raise ValueError(f"no note titled {title!r}")
        if "notes-kept" not in bugs:
            del kept[at:at + (2 if "notes-neighbour" in bugs else 1)]
        deleted.add(title)
        return f"Deleted note '{title}'."


def deck(mcp: MCPServer, bugs: set[str], logged: Callable[[str, dict[str, Any]], None]) -> None:
    cards: dict[str, dict[str, Any]] = {}

    def refused(why: str) -> str:
        return json.dumps({"error": why})

    @mcp.tool(name="deck.put", description="Store a card under its label, replacing the card it held.",
              structured_output=False)
    def put(label: Text, detail: Text) -> str:
        logged("deck.put", {"label": label, "detail": detail})
        cards[label] = {"label": label, "detail": detail, "dropped": False}
        return json.dumps({"stored": label})

    @mcp.tool(name="deck.all", description="Every card of the deck.", annotations=READ_ONLY,
              structured_output=False)
    def everything() -> str:
        logged("deck.all", {})
        shown = [{"label": c["label"], "detail": c["detail"]} for c in cards.values()
                 if "deck-kept" in bugs or not c["dropped"]]
        return json.dumps({"cards": shown})

    @mcp.tool(name="deck.drop", description="Delete one card by its label.", structured_output=False)
    def drop(label: str) -> str:
        logged("deck.drop", {"label": label})
        card = cards.get(label)
        if card is None or card["dropped"]:
            return refused(f"no card labelled {label!r}")
        if "deck-kept" in bugs:
            card["dropped"] = True
        elif "deck-neighbour" in bugs:
            for other in [k for k in cards if k[:PREFIX] == label[:PREFIX]]:
                del cards[other]
        else:
            del cards[label]
        return json.dumps({"dropped": label})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bug", choices=BUGS, action="append", default=[])
    parser.add_argument("--log", metavar="FILE")
    args = parser.parse_args()
    serving.exit_on_signals()

    def logged(tool: str, arguments: dict[str, Any]) -> None:
        if args.log:
            with open(args.log, "a", encoding="utf-8") as out:
                out.write(json.dumps({"tool": tool, "arguments": arguments}) + "\n")

    mcp = MCPServer("record-deletes", log_level="WARNING")
    notes(mcp, set(args.bug), logged)
    deck(mcp, set(args.bug), logged)
    mcp.run()


if __name__ == "__main__":
    main()
