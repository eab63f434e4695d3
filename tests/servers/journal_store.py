"""A journal whose entries may outlive the server process, for the isolation check.

- save_entry(slug, body): writes an entry (the same slug replaces it).
- browse_journal(): every entry, one `slug: body` line each, oldest first.
- lookup_entry(slug): one entry's body, or an isError answer when there is none.

The correct twin keeps the journal in memory, so every new process starts empty. With
`--bug keeps-file` it keeps it in the JSON file named by JOURNAL_FILE (default: journal-store.json
in the system temporary folder), read on every call and rewritten on every save, as servers with a
data file or a database do: a new process still holds what earlier processes wrote. Pointing
JOURNAL_FILE at a folder of its own per process ({tmpdir}) makes each process start empty again.

    python tests/servers/journal_store.py [--bug keeps-file] [--http PORT]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from serving import serve

_READ = types.ToolAnnotations(read_only_hint=True, open_world_hint=False)
_WRITE = types.ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
_SLUG = {"type": "string", "minLength": 1, "maxLength": 60, "description": "Short name of the entry."}


def _text(text: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


class Journal:
    """Entries by slug, in memory or in a file that every process shares."""

    def __init__(self, file: Path | None) -> None:
        self.file = file
        self.memory: dict[str, str] = {}

    def load(self) -> dict[str, str]:
        if self.file is None:
            return self.memory
        try:
            return dict(json.loads(self.file.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            return {}

    def save(self, entries: dict[str, str]) -> None:
        if self.file is None:
            self.memory = entries
            return
        self.file.parent.mkdir(parents=True, exist_ok=True)
        scratch = self.file.with_name(f"{self.file.name}.{os.getpid()}")
        scratch.write_text(json.dumps(entries), encoding="utf-8")
        scratch.replace(self.file)


def build_server(bug: str | None) -> Server[Any]:
    default = Path(tempfile.gettempdir()) / "journal-store.json"
    journal = Journal(Path(os.environ.get("JOURNAL_FILE") or default) if bug == "keeps-file" else None)
    tools = [
        types.Tool(name="save_entry", description="Saves a journal entry under its slug, replacing an older one.",
                   annotations=_WRITE, input_schema={
                       "type": "object", "required": ["slug", "body"], "additionalProperties": False,
                       "properties": {"slug": _SLUG, "body": {"type": "string", "maxLength": 400,
                                                              "description": "The entry's text."}}}),
        types.Tool(name="browse_journal", description="Shows every journal entry, one 'slug: body' line each.",
                   annotations=_READ, input_schema={"type": "object", "properties": {}}),
        types.Tool(name="lookup_entry", description="Shows the body of the entry with this slug.",
                   annotations=_READ, input_schema={"type": "object", "required": ["slug"], "properties": {
                       "slug": _SLUG}}),
    ]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        args = params.arguments or {}
        slug = args.get("slug")
        entries = journal.load()
        if params.name == "browse_journal":
            return _text("\n".join(f"{s}: {b}" for s, b in entries.items()) or "The journal is empty.")
        if not isinstance(slug, str) or not 1 <= len(slug) <= 60:
            return _text("slug must be a text of 1 to 60 characters", error=True)
        if params.name == "lookup_entry":
            return _text(entries[slug]) if slug in entries else _text(f"no entry named {slug!r}", error=True)
        if params.name == "save_entry":
            body = args.get("body")
            if not isinstance(body, str) or len(body) > 400 or set(args) - {"slug", "body"}:
                return _text("save_entry takes a slug and a body of at most 400 characters", error=True)
            entries.pop(slug, None)
            entries[slug] = body
            journal.save(entries)
            return _text(f"saved {slug!r}")
        raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")

    return Server("journal-store", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", choices=["keeps-file"], help="keep the journal in a file shared by every process")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT/mcp")
    args = parser.parse_args(argv)
    serve(build_server(args.bug), args.http)


if __name__ == "__main__":
    main()
