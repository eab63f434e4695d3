"""notes-server: the sample MCP server hypothesis-mcp is demonstrated and tested against.

An in-memory notes store (one per process, seeded with three notes) built on the official SDK's
`MCPServer`, with the tools a real notes server would have:

- create_note(title, body, tags=[]): store a note; an existing title is updated ("Updated note ...").
- get_note(title): one note, or found: false.                                    (read-only)
- list_notes(limit=20): newest first, as {notes: [{title, body, tags}]}.          (read-only)
- search_notes(query, limit=20): case-insensitive match on title, body and tags.  (read-only)
- list_tags(): every tag in use with its note count.                              (read-only)
- delete_note(title): remove a note.                                             (destructive)
- export_notes(format="markdown"): every note as Markdown or JSON.

`--bug` switches on one effect bug for the effect probes to find:

- silent-skip: creating a note whose title exists says "Created note ..." and changes nothing.
- lose-on-write: every new note replaces all stored notes.
- limit-ignored: list_notes returns every note whatever its limit.
- prompt-default-arg: the summarize_note prompt answers without its required title instead of
  refusing the request.

It also has a resource (notes://index, every title), a resource template (notes://tag/{tag}, the
notes carrying one tag) and a prompt (summarize_note(title, style?)).

Some flaws are deliberate and present with or without `--bug`, so a scorecard shows every subscore
at work: export_notes breaks its own outputSchema for one value its input schema allows (format
"html" comes back under an `html` key instead of `result`); delete_note's
description is too short; search_notes' `limit` has no description; export_notes has no
annotations. docs/sample-server.md explains each. Schema-invalid arguments are always rejected.

    python -m hypothesis_mcp.sample_server [--bug silent-skip|...|prompt-default-arg] [--http PORT]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import signal
from collections.abc import Mapping
from typing import Annotated, Any, Literal

import jsonschema
from mcp.server import MCPServer
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

BUGS = ("silent-skip", "lose-on-write", "limit-ignored", "prompt-default-arg")

SEED_NOTES = (
    ("Welcome", "This is your notes server. Create, search and export notes from any MCP client.", ["help"]),
    ("Groceries", "oat milk, coffee beans, lemons, basil", ["shopping"]),
    ("Standup", "Ship the export feature; review the search ranking change.", ["work", "meetings"]),
)
"""Notes every process starts with, so reads and limits have something to show before any write."""


def _version() -> str:
    try:
        return importlib.metadata.version("hypothesis-mcp")
    except importlib.metadata.PackageNotFoundError:
        return "1.1.0"


class Note(BaseModel):
    title: str = Field(description="The note's unique title.")
    body: str = Field(description="The note's text.")
    tags: list[str] = Field(description="Labels for grouping and search.")


class NoteList(BaseModel):
    notes: list[Note] = Field(description="Matching notes, newest first.")


class TagCount(BaseModel):
    tag: str = Field(description="A tag used by at least one note.")
    notes: int = Field(description="How many notes carry it.")


class TagList(BaseModel):
    tags: list[TagCount] = Field(description="Every tag in use, most used first.")


class NoteLookup(BaseModel):
    found: bool = Field(description="Whether a note with this title exists.")
    note: Note | None = Field(description="The note, or null when none has this title.")


def _note_line(note: Note) -> str:
    tags = f" [{', '.join(note.tags)}]" if note.tags else ""
    return f"- {note.title}{tags}: {note.body}"


def _list_result(notes: list[Note], empty: str) -> CallToolResult:
    """Notes as structured content plus one readable line each for clients that read only text."""
    text = "\n".join(_note_line(note) for note in notes) if notes else empty
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=NoteList(notes=notes).model_dump(mode="json"),
    )


class NoteStore:
    """The notes, oldest write first (so reversed is newest first), with at most one bug on."""

    def __init__(self, bug: str | None = None) -> None:
        self.bug = bug
        self.notes: dict[str, Note] = {t: Note(title=t, body=b, tags=list(g)) for t, b, g in SEED_NOTES}

    def save(self, note: Note) -> str:
        if note.title in self.notes:
            if self.bug == "silent-skip":
                return f"Created note '{note.title}'"
            del self.notes[note.title]
            self.notes[note.title] = note
            return f"Updated note '{note.title}'"
        if self.bug == "lose-on-write":
            self.notes.clear()
        self.notes[note.title] = note
        return f"Created note '{note.title}'"

    def newest_first(self) -> list[Note]:
        return list(reversed(self.notes.values()))


class StrictArguments:
    """Middleware that answers unknown tools and schema-invalid arguments with JSON-RPC -32602.

    MCPServer validates arguments with pydantic in lax mode, which accepts "5" for an integer and a
    JSON-encoded string for a list, and it answers an unknown tool with an isError result. The
    published inputSchema is the contract, so this checks it before the SDK sees the call.
    """

    def __init__(self, server: MCPServer) -> None:
        self.server = server
        self.validators: dict[str, jsonschema.Draft202012Validator] | None = None

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        params = ctx.params
        if ctx.method == "tools/call" and isinstance(params, Mapping) and isinstance(params.get("name"), str):
            arguments = params.get("arguments") or {}
            if isinstance(arguments, Mapping):
                if self.validators is None:
                    self.validators = {
                        tool.name: jsonschema.Draft202012Validator(tool.input_schema)
                        for tool in await self.server.list_tools()
                    }
                name = params["name"]
                validator = self.validators.get(name)
                if validator is None:
                    raise MCPError(INVALID_PARAMS, f"Unknown tool: {name}")
                error = jsonschema.exceptions.best_match(validator.iter_errors(arguments))
                if error is not None:
                    raise MCPError(INVALID_PARAMS, f"Invalid arguments for {name}: {error.message}")
        return await call_next(ctx)


class HtmlEnvelope:
    """Deliberate flaw: HTML exports come back under an `html` key, breaking the declared
    outputSchema (which requires `result`) for one of the three formats the schema allows."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        params = ctx.params if isinstance(ctx.params, Mapping) else {}
        arguments = params.get("arguments") or {}
        if (ctx.method == "tools/call" and params.get("name") == "export_notes"
                and isinstance(arguments, Mapping) and arguments.get("format") == "html"):
            structured = result.get("structuredContent") if isinstance(result, dict) else None
            if isinstance(result, dict) and isinstance(structured, dict) and "result" in structured:
                return {**result, "structuredContent": {"html": structured["result"]}}
        return result


class PromptDefaults:
    """Deliberate flaw behind `--bug prompt-default-arg`: a prompts/get without the required
    `title` gets an empty one filled in, so the prompt answers instead of refusing the request."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        params = ctx.params
        if ctx.method == "prompts/get" and isinstance(params, dict) and params.get("name") == "summarize_note":
            arguments = params.get("arguments") or {}
            if isinstance(arguments, dict) and "title" not in arguments:
                params["arguments"] = {**arguments, "title": ""}
        return await call_next(ctx)


def build_server(bug: str | None = None) -> MCPServer:
    """A fresh server with its own store; `bug` is one of BUGS or None for the correct server."""
    if bug is not None and bug not in BUGS:
        raise ValueError(f"unknown bug {bug!r}; choose from {', '.join(BUGS)}")
    store = NoteStore(bug)
    mcp = MCPServer(
        "notes-server",
        version=_version(),
        instructions="Notes are keyed by title: creating a note with an existing title updates it.",
        log_level="WARNING",
    )
    mcp.middleware.append(StrictArguments(mcp))
    mcp.middleware.append(HtmlEnvelope())
    if bug == "prompt-default-arg":
        mcp.middleware.append(PromptDefaults())
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)

    @mcp.tool(
        description=(
            "Create a note, or update the note that already has this title. Answers "
            "\"Created note '<title>'\" for a new title and \"Updated note '<title>'\" when an existing "
            "note's body and tags were replaced."
        ),
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
        ),
    )
    def create_note(
        title: Annotated[
            str, Field(min_length=1, max_length=200, description="Unique title; the note's key.")
        ],
        body: Annotated[str, Field(description="The note's text (plain text or Markdown).")],
        tags: Annotated[list[str], Field(description="Labels for grouping and search.")] = [],  # noqa: B006
    ) -> str:
        """Store through the NoteStore, which decides between create and update."""
        return store.save(Note(title=title, body=body, tags=tags))

    @mcp.tool(annotations=read_only)
    def get_note(
        title: Annotated[str, Field(description="Exact title of the note to fetch.")],
    ) -> Annotated[CallToolResult, NoteLookup]:
        """Fetch one note by its exact title. A missing note is not an error: found is false."""
        note = store.notes.get(title)
        text = _note_line(note) if note else f"No note titled '{title}'."
        return CallToolResult(
            content=[TextContent(type="text", text=text)],
            structured_content=NoteLookup(found=note is not None, note=note).model_dump(mode="json"),
        )

    @mcp.tool(annotations=read_only)
    def list_notes(
        limit: Annotated[int, Field(ge=1, le=100, description="Maximum number of notes to return.")] = 20,
    ) -> Annotated[CallToolResult, NoteList]:
        """List notes, most recently created or updated first, as {notes: [{title, body, tags}]}."""
        notes = store.newest_first()
        return _list_result(notes if bug == "limit-ignored" else notes[:limit], "No notes yet.")

    @mcp.tool(annotations=read_only)
    def list_tags() -> TagList:
        """List every tag in use with the number of notes that carry it, most used first."""
        counts: dict[str, int] = {}
        for note in store.notes.values():
            for tag in note.tags:
                counts[tag] = counts.get(tag, 0) + 1
        ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        return TagList(tags=[TagCount(tag=tag, notes=n) for tag, n in ranked])

    @mcp.tool(annotations=read_only)
    def search_notes(
        query: Annotated[str, Field(description="Text to look for; an empty query matches every note.")],
        limit: Annotated[int, Field(ge=1, le=100)] = 20,
    ) -> Annotated[CallToolResult, NoteList]:
        """Find notes whose title, body or tags contain the query, ignoring case; newest first."""
        needle = query.casefold()
        found = [
            note
            for note in store.newest_first()
            if needle in note.title.casefold()
            or needle in note.body.casefold()
            or any(needle in tag.casefold() for tag in note.tags)
        ]
        return _list_result(found[:limit], f"No notes match '{query}'.")

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True))
    def delete_note(title: Annotated[str, Field(description="Exact title of the note to delete.")]) -> str:
        """Delete a note."""
        if store.notes.pop(title, None) is None:
            return f"No note titled '{title}'; nothing deleted."
        return f"Deleted note '{title}'"

    @mcp.tool()
    def export_notes(
        format: Annotated[
            Literal["markdown", "json", "html"], Field(description="Output format for the whole collection.")
        ] = "markdown",
    ) -> str:
        """Export every note as one Markdown document or as a JSON array of {title, body, tags}."""
        notes = list(store.notes.values())
        if format == "json":
            return json.dumps([note.model_dump() for note in notes], indent=2)
        if format == "markdown":
            return "\n\n".join(f"# {n.title}\n\n{n.body}\n\nTags: {', '.join(n.tags) or '-'}" for n in notes)
        return "".join(f"<h1>{n.title}</h1><p>{n.body}</p>" for n in notes)

    @mcp.resource("notes://index", name="index", mime_type="text/markdown",
                  description="Every note title, newest first, one Markdown list item each.")
    def index() -> str:
        return "\n".join(f"- {note.title}" for note in store.newest_first()) or "No notes yet."

    @mcp.resource("notes://tag/{tag}", name="notes-by-tag", mime_type="text/markdown",
                  description="The notes carrying one tag, newest first, as Markdown; none is an empty page.")
    def notes_by_tag(tag: str) -> str:
        return "\n".join(_note_line(note) for note in store.newest_first() if tag in note.tags)

    @mcp.prompt(description="Ask for a summary of one note, by its exact title, in a chosen style.")
    def summarize_note(
        title: Annotated[str, Field(description="Exact title of the note to summarize.")],
        style: Annotated[str, Field(description="How to summarize: bullets, one line, ...")] = "bullets",
    ) -> str:
        note = store.notes.get(title)
        text = _note_line(note) if note else f"(no note titled '{title}')"
        return f"Summarize this note as {style}:\n\n{text}"

    return mcp


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m hypothesis_mcp.sample_server",
        description="An in-memory notes MCP server to try hypothesis-mcp on (stdio unless --http).",
    )
    parser.add_argument("--bug", choices=BUGS, help="switch on one effect bug (default: none)")
    parser.add_argument(
        "--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT/mcp"
    )
    args = parser.parse_args(argv)
    mcp = build_server(args.bug)
    # uvicorn re-raises SIGTERM after its graceful shutdown; under stdio the stdin reader blocks in a
    # thread that cancellation cannot reach. Either way this handler ends the process with status 0.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: os._exit(0))
    if args.http is None:
        mcp.run()
    else:
        mcp.run("streamable-http", host="127.0.0.1", port=args.http)


if __name__ == "__main__":
    main()
