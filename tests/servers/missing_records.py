"""Stores whose answer to a record that does not exist takes a shape no fixed rule reads.

Every store is its own server (`--store NAME`); `--bug` switches on its twin's one bug.

- catalogue (noun first): book_add(isbn, title) keeps one book per isbn, replacing;
  book_fetch(isbn) answers the book as JSON; book_index() lists every book as JSON text. Book
  0000000001, "error log", is there from the start (a user's words that say "error"; and an isbn a
  listing shows, so a read-only run can see a found book answered apart from the sentence). An unknown
  isbn is refused with isError and the sentence `No book with ISBN '…' is on the shelf.` Bug: the
  same sentence with isError false.
- envelope (camelCase, every answer a JSON envelope): putItem(key, text) keeps one text per key,
  and refuses a text longer than 60 characters; getItem(key) answers one item, listItems() all.
  Successes answer `{"ok": true, ..., "meta": {...}}`; refusals `{"ok": false, "error": CODE,
  "meta": {...}}` with isError true. Bug: the refusals set isError false, the design of servers
  that put every refusal in a JSON failure field.
- profiles (kebab, structured output): profile-create(handle, displayName, bio) keeps one profile
  per handle, replacing; profile-get(handle) answers it (`{"result": null}` for a handle nobody
  created: an empty answer, no error); profile-list() lists all. Bug: profile-get of a handle nobody
  created answers a blank profile under that handle (empty texts, zero followers).

    python tests/servers/missing_records.py --store NAME [--bug]
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

Text = Annotated[str, Field(max_length=200)]
READ = ToolAnnotations(read_only_hint=True)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False)
LONGEST_ITEM = 60


def catalogue(mcp: MCPServer, bug: bool) -> None:
    books: dict[str, str] = {"0000000001": "error log"}

    @mcp.tool(name="book_add", description="Add a book to the catalogue by its ISBN (replacing the one before).",
              annotations=WRITE, structured_output=False)
    def add(isbn: Text, title: Text) -> str:
        books[isbn] = title
        return f"Added {isbn}."

    @mcp.tool(name="book_fetch", description="One book of the catalogue by its ISBN.", annotations=READ,
              structured_output=False)
    def fetch(isbn: str) -> str:
        if isbn not in books:
            sentence = f"No book with ISBN '{isbn}' is on the shelf."
            if bug:
                return sentence
            raise ToolError(sentence)
        return json.dumps({"isbn": isbn, "title": books[isbn]})

    @mcp.tool(name="book_index", description="Every book of the catalogue.", annotations=READ,
              structured_output=False)
    def index() -> str:
        return json.dumps([{"isbn": isbn, "title": title} for isbn, title in books.items()])


def envelope(mcp: MCPServer, bug: bool) -> None:
    items: dict[str, str] = {}
    meta = {"api": "items/2", "region": "local"}

    def refuse(code: str) -> str:
        answer = json.dumps({"ok": False, "error": code, "meta": meta})
        if bug:
            return answer
        raise ToolError(answer)

    @mcp.tool(name="putItem", description="Store a short text under a key (replacing the one before).",
              annotations=WRITE, structured_output=False)
    def put(key: Text, text: Text) -> str:
        if len(text) > LONGEST_ITEM:
            return refuse("text_too_long")
        items[key] = text
        return json.dumps({"ok": True, "key": key, "meta": meta})

    @mcp.tool(name="getItem", description="The text stored under a key.", annotations=READ,
              structured_output=False)
    def get(key: str) -> str:
        if key not in items:
            return refuse("item_not_found")
        return json.dumps({"ok": True, "item": {"key": key, "text": items[key]}, "meta": meta})

    @mcp.tool(name="listItems", description="Every stored item.", annotations=READ, structured_output=False)
    def every() -> str:
        return json.dumps({"ok": True, "items": [{"key": k, "text": t} for k, t in items.items()], "meta": meta})


class Profile(BaseModel):
    handle: str
    displayName: str
    bio: str
    followers: int


def profiles(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, Profile] = {}

    @mcp.tool(name="profile-create", description="Create or replace the profile of a handle.", annotations=WRITE)
    def create(handle: Text, displayName: Text, bio: Text) -> Profile:
        kept[handle] = Profile(handle=handle, displayName=displayName, bio=bio, followers=0)
        return kept[handle]

    @mcp.tool(name="profile-get", description="The profile of one handle.", annotations=READ)
    def get(handle: str) -> Profile | None:
        if handle in kept:
            return kept[handle]
        return Profile(handle=handle, displayName="", bio="", followers=0) if bug else None

    @mcp.tool(name="profile-list", description="Every profile.", annotations=READ)
    def every() -> list[Profile]:
        return list(kept.values())


STORES: dict[str, Callable[[MCPServer, bool], None]] = {
    "catalogue": catalogue, "envelope": envelope, "profiles": profiles,
}


def main() -> None:
    serving.main_stores(STORES, "missing", __doc__ or "")


if __name__ == "__main__":
    main()
