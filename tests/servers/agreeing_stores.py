"""Stores whose readers must agree and whose overwrites must replace everywhere (issue: invariants).

Each style is one server holding two stores; `--bug` switches on one bug in each store. Without it
the server is the correct twin.

Style snake (JSON answers, refusals raised as tool errors):
- notes: save_note(title, body) keeps one note per title; get_note(title) one note;
  list_notes() {"notes": [...], "total": n}; count_notes() {"count": n}. Bug: get_note reads
  through a cache a save does not invalidate, so after an overwrite it shows the old body while
  list_notes shows the new one (readers disagree).
- tasks: add_task(name, detail) keeps one task per name; show_task(name) "name: detail";
  list_tasks() and search_tasks(text) one text line per task. Bug: the search's word index adds a
  task's new detail and keeps the old one, so a search for a replaced detail still finds the task.

Style dotted (camelCase identities, refusals as {"error": ...} answers):
- doc: doc.put(docId, text) keeps one text per document; doc.get(docId) the document;
  doc.find(term) {"matches": [...]} the documents whose id or text holds the term. Bug: the
  search index keeps every text a document ever had, so a search for a replaced text still finds
  the document (an overwrite leaves an old value in a secondary index).
- vault: vault.keep(label, content) keeps one content per label; vault.open(label) the content;
  vault.labels() one `label: content` line each (the listing that shows the stats count records);
  vault.stats() "N entries, B bytes". Bug: the vault keeps old versions for undo and its stats
  count versions, not entries (a count off by one after each overwrite).

    python tests/servers/agreeing_stores.py --style snake|dotted [--bug]
"""

from __future__ import annotations

import argparse
import json
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

Text = Annotated[str, Field(max_length=400)]


def notes(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, str] = {}
    cache: dict[str, str] = {}

    @mcp.tool(name="save_note", description="Save a note; a title holds one note.", structured_output=False)
    def save(title: Text, body: Text) -> str:
        kept[title] = body
        if not bug:
            cache.pop(title, None)
        return json.dumps({"saved": title})

    @mcp.tool(name="get_note", description="The note with this title.", structured_output=False)
    def get(title: str) -> str:
        if title not in kept:
            raise ValueError(f"no note titled {title!r}")
        body = cache.setdefault(title, kept[title])
        return json.dumps({"title": title, "body": body})

    @mcp.tool(name="list_notes", description="Every note.", structured_output=False)
    def list_notes() -> str:
        return json.dumps({"notes": [{"title": t, "body": b} for t, b in kept.items()], "total": len(kept)})

    @mcp.tool(name="count_notes", description="How many notes are saved.", structured_output=False)
    def count() -> str:
        return json.dumps({"count": len(kept)})


def tasks(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, str] = {}
    words: dict[str, set[str]] = {}

    @mcp.tool(name="add_task", description="Add a task, or replace the task of that name.", structured_output=False)
    def add(name: Text, detail: Text) -> str:
        kept[name] = detail
        words[name] = (words.get(name, set()) if bug else set()) | {detail}
        return f"task {name!r} saved"

    @mcp.tool(name="show_task", description="One task.", structured_output=False)
    def show(name: str) -> str:
        if name not in kept:
            raise ValueError(f"unknown task {name!r}")
        return f"{name}: {kept[name]}"

    @mcp.tool(name="list_tasks", description="Every task, one per line.", structured_output=False)
    def list_tasks() -> str:
        return "\n".join(f"- {n} — {d}" for n, d in kept.items()) or "no tasks"

    @mcp.tool(name="search_tasks", description="Tasks whose name or detail holds the text, one per line.",
              structured_output=False)
    def search(text: str) -> str:
        hits = [n for n, seen in words.items() if text in n or any(text in d for d in seen)]
        return "\n".join(f"- {n} — {kept[n]}" for n in hits) or "no match"


def docs(mcp: MCPServer, bug: bool) -> None:
    texts: dict[str, str] = {}
    index: dict[str, list[str]] = {}

    @mcp.tool(name="doc.put", description="Store a document's text under its id, replacing any earlier text.",
              structured_output=False)
    def put(docId: Text, text: Text) -> str:
        texts[docId] = text
        index[docId] = [*index.get(docId, []), text] if bug else [text]
        return json.dumps({"docId": docId, "stored": True})

    @mcp.tool(name="doc.get", description="The document with this id.", structured_output=False)
    def get(docId: str) -> str:
        if docId not in texts:
            return json.dumps({"error": f"no document {docId!r}"})
        return json.dumps({"docId": docId, "text": texts[docId]})

    @mcp.tool(name="doc.find", description="Documents whose id or text holds the term.", structured_output=False)
    def find(term: str) -> str:
        hits = [d for d, seen in index.items() if term in d or any(term in t for t in seen)]
        return json.dumps({"matches": [{"docId": d, "text": texts[d]} for d in hits]})


def vault(mcp: MCPServer, bug: bool) -> None:
    contents: dict[str, str] = {}
    versions: list[tuple[str, str]] = []

    @mcp.tool(name="vault.keep", description="Keep content under a label, replacing what it held.",
              structured_output=False)
    def keep(label: Text, content: Text) -> str:
        contents[label] = content
        versions.append((label, content))
        return json.dumps({"label": label})

    @mcp.tool(name="vault.open", description="The content kept under a label.", structured_output=False)
    def open_(label: str) -> str:
        if label not in contents:
            return json.dumps({"error": f"nothing under {label!r}"})
        return json.dumps({"label": label, "content": contents[label]})

    @mcp.tool(name="vault.labels", description="Every label and its content, one per line.",
              structured_output=False)
    def labels() -> str:
        return "\n".join(f"{label}: {content}" for label, content in contents.items())

    @mcp.tool(name="vault.stats", description="How many entries the vault holds, and their size.",
              structured_output=False)
    def stats() -> str:
        entries = len(versions) if bug else len(contents)
        return f"{entries} entries, {sum(len(c) for c in contents.values())} bytes"


STYLES = {"snake": (notes, tasks), "dotted": (docs, vault)}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--style", choices=sorted(STYLES), required=True)
    parser.add_argument("--bug", action="store_true", help="the buggy twin")
    args = parser.parse_args()
    serving.exit_on_signals()
    mcp = MCPServer(f"agreeing-{args.style}", log_level="WARNING")
    for store in STYLES[args.style]:
        store(mcp, args.bug)
    mcp.run()


if __name__ == "__main__":
    main()
