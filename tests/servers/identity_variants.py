"""Stores keyed by a text identity, whose variants (case, spaces, Unicode form, a shared prefix) must
stay distinct records. Without `--bug` a store is the correct twin; each `--bug NAME` (repeatable)
switches on one bug of its store.

- notes (snake names, structuredContent, refusals as isError): save_note(path, body) keeps one note
  per path; read_note(path) answers {"path", "body"}; list_notes() {"notes": [...]}.
  Bugs: `fold-case` keys notes by their lower-cased path (a warning: the store folds case);
  `prefix` makes a save whose path starts with a stored path overwrite that note (a failure);
  `slug` keys notes by their path's ASCII letters, digits, `-` and `_` only, so `abcé` and `abc`
  are one note (a fold, not a prefix match: `abcd` and `abc` stay two).
- pages (dotted names, JSON text, refusals as {"ok": false, "problem": ...}): page.save(slug, text)
  keeps one text per slug; page.get(slug) answers {"ok": true, "slug", "text"}; page.index() every
  page as an object keyed by slug. Bugs: `trim` strips the spaces around a slug and `nfc`
  normalises it to Unicode NFC (warnings: the store folds them); `prefix-get` makes page.get answer
  with the first page whose slug starts with the one asked for (a failure: a page is lost).
- shelf (dotted names, JSON text, no bugs: a control): shelf.put(label, note) keeps one note per
  label; shelf.get(label) answers it, refused (isError) for a label that holds none; shelf.front()
  shows only the three oldest notes, with no page to ask for: a listing that never shows a newer
  note, however its label is spelt.

    python tests/servers/identity_variants.py --store notes|pages|shelf [--bug NAME ...]
"""

from __future__ import annotations

import argparse
import json
import re
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

Text = Annotated[str, Field(max_length=300)]
READ_ONLY = ToolAnnotations(read_only_hint=True)


def notes(mcp: MCPServer, bugs: set[str]) -> None:
    stored: dict[str, dict[str, str]] = {}

    def key(path: str) -> str:
        path = re.sub(r"[^A-Za-z0-9_-]", "", path) if "slug" in bugs else path
        return path.lower() if "fold-case" in bugs else path

    @mcp.tool(description="Save a note at a path, replacing the note the path held.")
    def save_note(path: Annotated[Text, Field(min_length=1)], body: Text) -> dict[str, Any]:
        at = key(path)
        if "prefix" in bugs:
            at = next((k for k in stored if at.startswith(k)), at)
        stored[at] = {"path": path, "body": body}
        return {"saved": path}

    @mcp.tool(description="The note at a path.", annotations=READ_ONLY)
    def read_note(path: str) -> dict[str, Any]:
        if key(path) not in stored:
            raise ValueError(f"no note at {path!r}")
        return stored[key(path)]

    @mcp.tool(description="Every note.", annotations=READ_ONLY)
    def list_notes() -> dict[str, Any]:
        return {"notes": list(stored.values())}


def pages(mcp: MCPServer, bugs: set[str]) -> None:
    stored: dict[str, str] = {}

    def key(slug: str) -> str:
        slug = slug.strip() if "trim" in bugs else slug
        return unicodedata.normalize("NFC", slug) if "nfc" in bugs else slug

    def answer(**fields: Any) -> str:
        return json.dumps(fields, ensure_ascii=False)

    @mcp.tool(name="page.save", description="Store a page's text under its slug.", structured_output=False)
    def save(slug: Text, text: Text) -> str:
        if not slug:
            return answer(ok=False, problem="a page needs a slug")
        stored[key(slug)] = text
        return answer(ok=True, slug=slug)

    @mcp.tool(name="page.get", description="Read-only: the text of one page.", structured_output=False)
    def get(slug: str) -> str:
        found = key(slug) if key(slug) in stored else None
        if "prefix-get" in bugs:
            found = next((s for s in stored if s.startswith(key(slug))), None)
        if found is None:
            return answer(ok=False, problem=f"no page {slug!r}")
        return answer(ok=True, slug=found, text=stored[found])

    @mcp.tool(name="page.index", description="Read-only: every page and its text.", structured_output=False)
    def index() -> str:
        return answer(ok=True, pages=stored)


def shelf(mcp: MCPServer, bugs: set[str]) -> None:
    stored: dict[str, str] = {}

    @mcp.tool(name="shelf.put", description="Put a note on the shelf under a label.", structured_output=False)
    def put(label: Annotated[Text, Field(min_length=1)], note: Text) -> str:
        stored[label] = note
        return json.dumps({"label": label})

    @mcp.tool(name="shelf.get", description="The note under a label.", annotations=READ_ONLY,
              structured_output=False)
    def get(label: str) -> str:
        if label not in stored:
            raise ValueError(f"no note under {label!r}")
        return json.dumps({"label": label, "note": stored[label]})

    @mcp.tool(name="shelf.front", description="The three oldest notes.", annotations=READ_ONLY,
              structured_output=False)
    def front() -> str:
        return json.dumps([{"label": k, "note": v} for k, v in list(stored.items())[:3]])


STORES: dict[str, tuple[Callable[[MCPServer, set[str]], None], tuple[str, ...]]] = {
    "notes": (notes, ("fold-case", "prefix", "slug")),
    "pages": (pages, ("trim", "nfc", "prefix-get")),
    "shelf": (shelf, ()),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--store", choices=sorted(STORES), required=True)
    parser.add_argument("--bug", action="append", default=[], help="switch on one bug of the store")
    args = parser.parse_args()
    build, bugs = STORES[args.store]
    unknown = set(args.bug) - set(bugs)
    if unknown:
        parser.error(f"unknown bug(s) for {args.store}: {', '.join(sorted(unknown))} (known: {', '.join(bugs)})")
    serving.exit_on_signals()
    mcp = MCPServer(f"variants-{args.store}", log_level="WARNING")
    build(mcp, set(args.bug))
    mcp.run()


if __name__ == "__main__":
    main()
