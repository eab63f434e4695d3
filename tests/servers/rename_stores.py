"""Three stores in one server whose records another tool gives a new identity or changes through
the identity the client chose: a rename or a move must carry every field to the new identity and
leave nothing under the old one; an update must change what it names and keep every other field.
Without `--bug` every store is correct; each `--bug NAME` (repeatable) switches on one bug.

- notes (snake names, structuredContent, refusals as isError): write_note(title, body, tags) keeps
  one note per title; note_get(title) answers {"title", "body", "tags"}; rename_note(title,
  new_title) "Renames a note". Bugs: `copy` keeps the note under its old title too; `drop-tags`
  leaves the tags behind (the renamed note has none). amend_note(title, body) "Replaces the body
  of the note with this title" (no update verb, no id): bugs `amend-noop` answers success and keeps
  the old body; `amend-drops-tags` stores the new body and empties the tags.
- shelf (dotted names, plain text, refusals as an "error: ..." text answered as success, no keyed
  reader): shelf.put(slot, label, owner) keeps one item per slot; shelf.contents() lists every item
  as a line `slot | label | owner`; shelf.relocate(source, destination) "Moves an item to another
  slot". Bugs: `keep-source` leaves the item in its old slot as well; `lose-owner` moves the label
  only (the owner is left empty). shelf.annotate(slot, remark), listed before it (refusing with
  isError), appends a remark to the label: called with a new slot's text as the remark, the
  listing shows that text on the item's own line, beside its old slot, which must not be taken for
  a move. shelf.relabel(slot, label), annotated as a write, "Gives the item on a slot a new
  label"; an empty slot is an "error: ..." text. Bugs: `relabel-noop` answers "relabelled" and keeps
  the old label; `relabel-drops-owner` stores the new label and empties the owner.
- drafts (a correct copy: no bug): save_draft(name, text), open_draft(name), and
  clone_draft(name, copy_name) "Copies a draft under a new name": the old draft stays, and must.

    python tests/servers/rename_stores.py [--bug NAME ...]
"""

from __future__ import annotations

import argparse
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

Text = Annotated[str, Field(min_length=1, max_length=300)]
READ_ONLY = ToolAnnotations(read_only_hint=True)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False)


def notes(mcp: MCPServer, bugs: set[str]) -> None:
    kept: dict[str, dict[str, Any]] = {}

    @mcp.tool(description="Write a note under its title, replacing the note of that title.")
    def write_note(title: Text, body: Text, tags: list[str]) -> dict[str, Any]:
        kept[title] = {"title": title, "body": body, "tags": list(tags)}
        return {"written": title}

    @mcp.tool(description="The note of a title.", annotations=READ_ONLY)
    def note_get(title: str) -> dict[str, Any]:
        if title not in kept:
            raise ValueError(f"no note titled {title!r}")
        return kept[title]

    @mcp.tool(description="Renames a note, keeping its body and tags.")
    def rename_note(title: str, new_title: Text) -> dict[str, Any]:
        if title not in kept:
            raise ValueError(f"no note titled {title!r}")
        if new_title in kept:
            raise ValueError(f"a note titled {new_title!r} exists")
        note = kept[title] if "copy" in bugs else kept.pop(title)
        kept[new_title] = {**note, "title": new_title, "tags": [] if "drop-tags" in bugs else note["tags"]}
        return {"renamed": title, "to": new_title}

    @mcp.tool(description="Replaces the body of the note with this title.")
    def amend_note(title: str, body: Text) -> dict[str, Any]:
        if title not in kept:
            raise ValueError(f"no note titled {title!r}")
        note = kept[title]
        kept[title] = {**note, "body": note["body"] if "amend-noop" in bugs else body,
                       "tags": [] if "amend-drops-tags" in bugs else note["tags"]}
        return {"amended": title}


def shelf(mcp: MCPServer, bugs: set[str]) -> None:
    slots: dict[str, tuple[str, str]] = {}

    @mcp.tool(name="shelf.put", description="Put an item on a slot.", structured_output=False)
    def put(slot: Text, label: Text, owner: Text) -> str:
        slots[slot] = (label, owner)
        return f"put {label} on {slot}"

    @mcp.tool(name="shelf.contents", description="Every item on the shelf, one per line.",
              annotations=READ_ONLY, structured_output=False)
    def contents() -> str:
        return "\n".join(f"{slot} | {label} | {owner}" for slot, (label, owner) in slots.items()) or "(empty)"

    @mcp.tool(name="shelf.annotate", description="Add a remark to an item's label.", structured_output=False)
    def annotate(slot: str, remark: Text) -> str:
        if slot not in slots:
            raise ValueError(f"slot {slot} is empty")
        label, owner = slots[slot]
        slots[slot] = (f"{label} ({remark})", owner)
        return f"annotated {slot}"

    @mcp.tool(name="shelf.relocate", description="Moves an item to another slot.", structured_output=False)
    def relocate(source: str, destination: Text) -> str:
        if source not in slots:
            return f"error: slot {source} is empty"
        if destination in slots:
            return f"error: slot {destination} is taken"
        label, owner = slots[source] if "keep-source" in bugs else slots.pop(source)
        slots[destination] = (label, "" if "lose-owner" in bugs else owner)
        return f"moved {label} from {source} to {destination}"

    @mcp.tool(name="shelf.relabel", description="Gives the item on a slot a new label.", annotations=WRITES,
              structured_output=False)
    def relabel(slot: str, label: Text) -> str:
        if slot not in slots:
            return f"error: slot {slot} is empty"
        old, owner = slots[slot]
        slots[slot] = (old if "relabel-noop" in bugs else label, "" if "relabel-drops-owner" in bugs else owner)
        return f"relabelled {slot}"


def drafts(mcp: MCPServer) -> None:
    kept: dict[str, str] = {}

    @mcp.tool(description="Save a draft under a name.")
    def save_draft(name: Text, text: Text) -> str:
        kept[name] = text
        return f"saved {name}"

    @mcp.tool(description="The text of a draft.", annotations=READ_ONLY)
    def open_draft(name: str) -> dict[str, str]:
        if name not in kept:
            raise ValueError(f"no draft named {name!r}")
        return {"name": name, "text": kept[name]}

    @mcp.tool(description="Copies a draft under a new name; the draft itself stays.")
    def clone_draft(name: str, copy_name: Text) -> str:
        if name not in kept:
            raise ValueError(f"no draft named {name!r}")
        kept[copy_name] = kept[name]
        return f"copied {name} to {copy_name}"


BUGS = ("copy", "drop-tags", "keep-source", "lose-owner", "amend-noop", "amend-drops-tags", "relabel-noop",
        "relabel-drops-owner")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", choices=BUGS, action="append", default=[])
    args = parser.parse_args()
    serving.exit_on_signals()
    mcp = MCPServer("rename-stores")
    notes(mcp, set(args.bug))
    shelf(mcp, set(args.bug))
    drafts(mcp)
    mcp.run()


if __name__ == "__main__":
    main()
