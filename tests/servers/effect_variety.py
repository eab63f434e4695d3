"""Stores named unlike the sample server, each hiding one effect bug that short, narrow probes miss.

Verbs come last (`doc_put`, `kv_get`), keys are `doc_id`, `slug` and `username`, readers answer a
missing record with an isError "not found", list readers take `max_count`, and no tool carries
annotations. Without `--bug` the server is the correct twin of every bug.

- evict-5, evict-7, evict-9: doc_put keeps 4 (6, 8) documents; the next distinct doc_id silently
  drops the oldest, and doc_get then answers "no document" with isError.
- skip-odd-chars: profile_upsert silently keeps the old bio when the new one holds a character
  outside printable ASCII and whitespace (a first insert is stored).
- clamp-points: score_set stores `points` clamped to 1000 (the schema allows up to 1,000,000).
- cut-text: note_save stores only the first 200 characters of `text`.
- drop-tags: entry_add stores no tags when it is given more than one.
- drop-fourth: item_write reports success for every write but stores only three in four.

    python tests/servers/effect_variety.py [--bug NAME] [--http PORT]
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import jsonschema
import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

BUGS = ("evict-5", "evict-7", "evict-9", "skip-odd-chars", "clamp-points", "cut-text", "drop-tags", "drop-fourth")
TEXT = {"type": "string", "minLength": 1}
Handler = Callable[[dict[str, Any]], types.CallToolResult]


def _text(text: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def _json(payload: Any) -> types.CallToolResult:
    """JSON as text only: the reader shows structured data without declaring an output schema."""
    return _text(json.dumps(payload, ensure_ascii=False))


def _structured(payload: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(payload))],
                                structured_content=payload)


def _odd(text: str) -> bool:
    return any(not (ch.isascii() and (ch.isprintable() or ch.isspace())) for ch in text)


class Stores:
    """Six small stores; `bug` breaks one of them."""

    def __init__(self, bug: str | None) -> None:
        self.bug = bug
        self.docs: dict[str, str] = {}
        self.profiles: dict[str, str] = {}
        self.scores: dict[str, dict[str, Any]] = {}
        self.notes: dict[str, str] = {}
        self.entries: dict[str, dict[str, Any]] = {}
        self.items: dict[str, str] = {}
        self.item_writes = 0

    def doc_put(self, args: dict[str, Any]) -> types.CallToolResult:
        capacity = {"evict-5": 4, "evict-7": 6, "evict-9": 8}.get(self.bug or "")
        doc_id = args["doc_id"]
        if capacity is not None and doc_id not in self.docs and len(self.docs) >= capacity:
            del self.docs[next(iter(self.docs))]
        self.docs[doc_id] = args["body"]
        return _text("saved")

    def doc_get(self, args: dict[str, Any]) -> types.CallToolResult:
        doc_id = args["doc_id"]
        if doc_id not in self.docs:
            return _text(f"no document with doc_id {doc_id!r}", error=True)
        return _json({"doc_id": doc_id, "body": self.docs[doc_id]})

    def profile_upsert(self, args: dict[str, Any]) -> types.CallToolResult:
        name, bio = args["username"], args["bio"]
        if not (self.bug == "skip-odd-chars" and name in self.profiles and _odd(bio)):
            self.profiles[name] = bio
        return _text(f"profile {name} upserted")

    def profile_fetch(self, args: dict[str, Any]) -> types.CallToolResult:
        name = args["username"]
        if name not in self.profiles:
            return _text("not found", error=True)
        return _json({"username": name, "bio": self.profiles[name], "fetched": "now"})

    def score_set(self, args: dict[str, Any]) -> types.CallToolResult:
        points = args["points"]
        if self.bug == "clamp-points":
            points = min(points, 1000)
        self.scores[args["slug"]] = {"slug": args["slug"], "points": points, "label": args.get("label")}
        return _text("ok")

    def kv_get(self, args: dict[str, Any]) -> types.CallToolResult:
        found = self.scores.get(args["slug"])
        if found is None:
            return _text(f"unknown slug {args['slug']}", error=True)
        return _structured({**found, "version": 1})

    def note_save(self, args: dict[str, Any]) -> types.CallToolResult:
        text = args["text"]
        self.notes[args["slug"]] = text[:200] if self.bug == "cut-text" else text
        return _text("note saved")

    def note_list(self, args: dict[str, Any]) -> types.CallToolResult:
        count = args.get("max_count", 50)
        return _json({"notes": [{"slug": s, "text": t} for s, t in list(self.notes.items())[-count:]]})

    def entry_add(self, args: dict[str, Any]) -> types.CallToolResult:
        tags = list(args.get("tags", []))
        if self.bug == "drop-tags" and len(tags) > 1:
            tags = []
        self.entries[args["slug"]] = {"slug": args["slug"], "title": args["title"], "tags": tags}
        return _text("entry added")

    def entry_find(self, args: dict[str, Any]) -> types.CallToolResult:
        found = self.entries.get(args["slug"])
        return _json({"results": [found] if found else []})

    def item_write(self, args: dict[str, Any]) -> types.CallToolResult:
        self.item_writes += 1
        if not (self.bug == "drop-fourth" and self.item_writes % 4 == 0):
            self.items[args["slug"]] = args["value"]
        return _text("written")

    def x_read(self, args: dict[str, Any]) -> types.CallToolResult:
        value = self.items.get(args["slug"])
        if value is None:
            return _text("not found", error=True)
        return _text(f"{args['slug']}: {value}")

    def tools(self) -> dict[str, tuple[types.Tool, Handler]]:
        def tool(name: str, description: str, props: dict[str, Any], required: list[str],
                 handler: Handler) -> tuple[str, tuple[types.Tool, Handler]]:
            schema = {"type": "object", "properties": props, "required": required}
            return name, (types.Tool(name=name, description=description, input_schema=schema), handler)

        slug = {"slug": TEXT}
        return dict([
            tool("doc_put", "Store a document body under its doc_id.", {"doc_id": TEXT, "body": {"type": "string"}},
                 ["doc_id", "body"], self.doc_put),
            tool("doc_get", "Return one document.", {"doc_id": TEXT}, ["doc_id"], self.doc_get),
            tool("profile_upsert", "Create or replace a user's bio.",
                 {"username": TEXT, "bio": {"type": "string", "maxLength": 400}}, ["username", "bio"],
                 self.profile_upsert),
            tool("profile_fetch", "Fetches one profile by username.", {"username": TEXT}, ["username"],
                 self.profile_fetch),
            tool("score_set", "Record a score.",
                 {**slug, "points": {"type": "integer", "minimum": 0, "maximum": 1000000},
                  "label": {"type": "string"}}, ["slug", "points"], self.score_set),
            tool("kv_get", "Look a score up by slug.", slug, ["slug"], self.kv_get),
            tool("note_save", "Keep a note.", {**slug, "text": {"type": "string"}}, ["slug", "text"], self.note_save),
            tool("note_list", "Lists the newest notes.", {"max_count": {"type": "integer", "minimum": 1}}, [],
                 self.note_list),
            tool("entry_add", "Add an entry with tags.",
                 {**slug, "title": TEXT, "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 8}},
                 ["slug", "title"], self.entry_add),
            tool("entry_find", "Searches entries by slug.", slug, ["slug"], self.entry_find),
            tool("item_write", "Write an item value.", {**slug, "value": TEXT}, ["slug", "value"], self.item_write),
            tool("x_read", "Read an item.", slug, ["slug"], self.x_read),
        ])


def build_server(bug: str | None = None) -> Server[Any]:
    tools = Stores(bug).tools()
    validators = {name: jsonschema.Draft202012Validator(spec.input_schema) for name, (spec, _) in tools.items()}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[spec for spec, _ in tools.values()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in tools:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        error = jsonschema.exceptions.best_match(validators[params.name].iter_errors(arguments))
        if error is not None:
            return _text(f"Invalid arguments for {params.name}: {error.message}", error=True)
        return tools[params.name][1](arguments)

    return Server("effect-variety", version=f"1.0.0+{bug or 'twin'}", on_list_tools=list_tools,
                  on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, BUGS, __doc__ or "", argv)


if __name__ == "__main__":
    main()
