"""A library server whose resources and prompts break the protocol in one way per `--bug`.

`python tests/servers/surface_bugs.py [--bug NAME] [--http PORT]`. Without `--bug` it is the correct
twin. One read-only tool (`count_books`), a resource `library://catalog` (application/json), a
template `library://books/{isbn}` (text/plain) and a prompt `recommend(genre, tone?)`.

- `decoded-uri`: a book read answers with the percent-decoded URI, so an isbn that needs escaping
  comes back under another URI than the one read.
- `bad-blob`: the catalog is answered as a blob that is not base64.
- `mime-lies`: the catalog is answered as text/csv, not the listed application/json.
- `unknown-resource-ok`: any URI the server does not have reads as empty text.
- `system-role`: `recommend` answers with role "system" (not a MCP role) when `tone` is longer
  than four characters.
- `unknown-prompt-ok`: any prompt name the server does not have answers a generic message.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
from collections.abc import Mapping
from typing import Annotated, Any
from urllib.parse import unquote

from mcp.server import MCPServer
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types import ToolAnnotations
from pydantic import Field

BUGS = ("decoded-uri", "bad-blob", "mime-lies", "unknown-resource-ok", "system-role", "unknown-prompt-ok")
BOOKS = {"9780141439518": "Pride and Prejudice", "9780451524935": "1984"}


class Faults:
    """Rewrites answers after the SDK made them, the way a later layer can break a contract."""

    def __init__(self, bug: str | None) -> None:
        self.bug = bug

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        params = ctx.params if isinstance(ctx.params, Mapping) else {}
        uri = str(params.get("uri", ""))
        known_uri = uri == "library://catalog" or uri.startswith("library://books/")
        if ctx.method == "resources/read" and self.bug == "unknown-resource-ok" and not known_uri:
            return {"contents": [{"uri": uri, "mimeType": "text/plain", "text": ""}]}
        if ctx.method == "prompts/get" and self.bug == "unknown-prompt-ok" and params.get("name") != "recommend":
            return {"messages": [{"role": "user", "content": {"type": "text", "text": "Recommend a book."}}]}
        result = await call_next(ctx)
        if ctx.method == "resources/read" and isinstance(result, dict):
            contents = [dict(c) for c in result.get("contents", [])]
            if self.bug == "decoded-uri" and uri.startswith("library://books/"):
                contents = [{**c, "uri": unquote(uri)} for c in contents]
            if uri == "library://catalog" and self.bug == "bad-blob":
                contents = [{"uri": uri, "mimeType": "application/json", "blob": "not base64!"}]
            if uri == "library://catalog" and self.bug == "mime-lies":
                contents = [{**c, "mimeType": "text/csv"} for c in contents]
            return {**result, "contents": contents}
        if ctx.method == "prompts/get" and isinstance(result, dict) and self.bug == "system-role":
            arguments = params.get("arguments") or {}
            if len(str(arguments.get("tone", ""))) > 4:
                return {**result, "messages": [{**m, "role": "system"} for m in result.get("messages", [])]}
        return result


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("library-server", log_level="WARNING")
    mcp.middleware.append(Faults(bug))

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    def count_books() -> int:
        """How many books the library holds."""
        return len(BOOKS)

    @mcp.resource("library://catalog", name="catalog", mime_type="application/json",
                  description="Every book in the library as a JSON object from ISBN to title.")
    def catalog() -> str:
        return json.dumps(BOOKS)

    @mcp.resource("library://books/{isbn}", name="book", mime_type="text/plain",
                  description="One book's title by its ISBN; an unknown ISBN is not found.")
    def book(isbn: str) -> str:
        return BOOKS.get(isbn, f"ISBN {isbn} is not in the library yet.")

    @mcp.prompt(description="Ask for a book recommendation in one genre, in a chosen tone.")
    def recommend(
        genre: Annotated[str, Field(description="The genre to recommend from.")],
        tone: Annotated[str, Field(description="How the answer should sound.")] = "warm",
    ) -> str:
        if not genre.strip():
            raise MCPError(-32602, "genre must not be empty")
        return f"In a {tone} tone, recommend one {genre} book from: {', '.join(BOOKS.values())}"

    return mcp


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bug", choices=BUGS)
    parser.add_argument("--http", type=int, metavar="PORT")
    args = parser.parse_args()
    mcp = build_server(args.bug)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: os._exit(0))
    if args.http is None:
        mcp.run()
    else:
        mcp.run("streamable-http", host="127.0.0.1", port=args.http)


if __name__ == "__main__":
    main()
