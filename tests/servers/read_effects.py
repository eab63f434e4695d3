"""Stores whose reads must change nothing, each with a twin whose one read does (issue: invariants).

Every store is its own server (`--store NAME`); `--bug` switches on its one bug. Without it the
store is the correct twin.

- inbox (snake, readOnlyHint annotations): save_message(subject, body) keeps one message per
  subject; list_messages() answers {"messages": [...]}; search_messages(text) the messages whose
  subject or body holds the text. Bug: a search archives what it finds, and list_messages shows
  only messages not archived, while the search still finds them.
- kv (dotted, "read-only" in the descriptions, refusals as {"ok": false, "problem": ...}):
  kv.put(slot, content) keeps one content per slot; kv.fetch(slot) one entry, kv.all() every
  entry as an object keyed by slot. Bug: a fetch moves the entry into a recently-used cache that
  kv.fetch still reads and kv.all does not list.
- crate (dotted, no annotations, no word of reading but the verb): crate.stow(tag, note) keeps one
  note per tag; crate.read(tag) the note, refused for a tag that holds none; crate.manifest() every
  note; crate.count() how many the crate holds; crate.retag(tag, new_tag) moves a note to another
  tag. Bug: a read takes the note out of the crate, so its read shows a removal, which the manifest
  and the count both see (and no keyed read is left to follow a retag).
- tins (kebab, readOnlyHint on the reads, JSON text): put-tin(code, label) keeps one label per code
  (a code like `AB-12`), replacing what it held; tin(code) one tin, refused for a code that holds
  none; tins() every tin. Bug: a read of a tin takes it off the shelf, so the experiments' read by a
  code two writes shared changes what tins() shows.
- deck (kebab, readOnlyHint on the reads, JSON text): add-card(card, note) keeps one note per card;
  card(card) one card, refused for a card that holds none; cards() every card, oldest first. Bug: a
  read of a card moves it to the end of cards(), as a recently-used list would.

    python tests/servers/read_effects.py --store NAME [--bug]
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

Text = Annotated[str, Field(max_length=400)]
Code = Annotated[str, Field(pattern=r"^[A-Z]{2}-[0-9]{1,3}$")]
READ_ONLY = ToolAnnotations(read_only_hint=True)


def inbox(mcp: MCPServer, bug: bool) -> None:
    messages: dict[str, dict[str, str]] = {}
    archived: set[str] = set()

    @mcp.tool(name="save_message", description="Save a message; a subject holds one message.",
              structured_output=False)
    def save(subject: Text, body: Text) -> str:
        messages[subject] = {"subject": subject, "body": body}
        archived.discard(subject)
        return f"Saved '{subject}'."

    @mcp.tool(name="list_messages", description="Every message, oldest first.", annotations=READ_ONLY,
              structured_output=False)
    def list_messages() -> str:
        return json.dumps({"messages": [m for s, m in messages.items() if s not in archived]})

    @mcp.tool(name="search_messages", description="Messages whose subject or body holds the text.",
              annotations=READ_ONLY, structured_output=False)
    def search(text: str) -> str:
        found = [m for m in messages.values() if text in m["subject"] or text in m["body"]]
        if bug:
            archived.update(m["subject"] for m in found)
        return json.dumps({"messages": found})


def kv(mcp: MCPServer, bug: bool) -> None:
    entries: dict[str, str] = {}
    recent: dict[str, str] = {}

    def refused(problem: str) -> str:
        return json.dumps({"ok": False, "problem": problem})

    @mcp.tool(name="kv.put", description="Store content under a slot, replacing what it held.",
              structured_output=False)
    def put(slot: Text, content: Text) -> str:
        if not slot:
            return refused("a slot needs a name")
        entries[slot] = content
        recent.pop(slot, None)
        return json.dumps({"ok": True, "slot": slot})

    @mcp.tool(name="kv.fetch", description="Read-only: the content of one slot.", structured_output=False)
    def fetch(slot: str) -> str:
        if bug and slot in entries:
            recent[slot] = entries.pop(slot)
        content = entries.get(slot, recent.get(slot))
        if content is None:
            return refused(f"no slot {slot!r}")
        return json.dumps({"ok": True, "slot": slot, "content": content})

    @mcp.tool(name="kv.all", description="Read-only: every slot and its content.", structured_output=False)
    def every() -> str:
        return json.dumps({"ok": True, "entries": entries})


def crate(mcp: MCPServer, bug: bool) -> None:
    notes: dict[str, str] = {}

    @mcp.tool(name="crate.stow", description="Stow a note under a tag, replacing what it held.",
              structured_output=False)
    def stow(tag: Annotated[str, Field(min_length=1, max_length=80)], note: Text) -> str:
        notes[tag] = note
        return json.dumps({"tag": tag})

    @mcp.tool(name="crate.read", description="The note under a tag.", structured_output=False)
    def read(tag: str) -> str:
        if tag not in notes:
            raise ToolError(f"no note under {tag!r}")
        note = notes.pop(tag) if bug else notes[tag]
        return json.dumps({"tag": tag, "note": note})

    @mcp.tool(name="crate.retag", description="Move the note under a tag to another tag.", structured_output=False)
    def retag(tag: str, new_tag: Annotated[str, Field(min_length=1, max_length=80)]) -> str:
        if tag not in notes or new_tag in notes:
            raise ToolError(f"cannot move {tag!r} to {new_tag!r}")
        notes[new_tag] = notes.pop(tag)
        return json.dumps({"tag": new_tag})

    @mcp.tool(name="crate.manifest", description="Every note.", structured_output=False)
    def manifest() -> str:
        return json.dumps([{"tag": t, "note": n} for t, n in notes.items()])

    @mcp.tool(name="crate.count", description="How many notes the crate holds.", structured_output=False)
    def count() -> str:
        return json.dumps({"notes": len(notes)})


def tins(mcp: MCPServer, bug: bool) -> None:
    shelf: dict[str, str] = {}

    @mcp.tool(name="put-tin", description="Keep a label on a tin, replacing what it held.", structured_output=False)
    def put(code: Code, label: Text) -> str:
        shelf[code] = label
        return json.dumps({"code": code})

    @mcp.tool(name="tin", description="The label of one tin.", annotations=READ_ONLY, structured_output=False)
    def tin(code: str) -> str:
        if code not in shelf:
            raise ToolError(f"no tin {code!r}")
        label = shelf.pop(code) if bug else shelf[code]
        return json.dumps({"code": code, "label": label})

    @mcp.tool(name="tins", description="Every tin.", annotations=READ_ONLY, structured_output=False)
    def every() -> str:
        return json.dumps([{"code": c, "label": label} for c, label in shelf.items()])


def deck(mcp: MCPServer, bug: bool) -> None:
    cards: dict[str, str] = {}

    @mcp.tool(name="add-card", description="Keep a note on a card, replacing what it held.", structured_output=False)
    def add(card: Annotated[str, Field(min_length=1, max_length=80)], note: Text) -> str:
        cards[card] = note
        return json.dumps({"card": card})

    @mcp.tool(name="card", description="The note on a card.", annotations=READ_ONLY, structured_output=False)
    def card(card: str) -> str:
        if card not in cards:
            raise ToolError(f"no card {card!r}")
        if bug:
            cards[card] = cards.pop(card)
        return json.dumps({"card": card, "note": cards[card]})

    @mcp.tool(name="cards", description="Every card, oldest first.", annotations=READ_ONLY, structured_output=False)
    def all_() -> str:
        return json.dumps([{"card": c, "note": n} for c, n in cards.items()])


STORES: dict[str, Callable[[MCPServer, bool], None]] = {"inbox": inbox, "kv": kv, "crate": crate, "tins": tins,
                                                         "deck": deck}


def main() -> None:
    serving.main_stores(STORES, "reads", __doc__ or "")


if __name__ == "__main__":
    main()
