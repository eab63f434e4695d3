"""A records server whose effect bugs hide from short, fixed probes.

Each `--bug` breaks one behaviour only after several steps or for some values, so a probe that
writes one record, overwrites it once and tries bounds 0, 1 and 2 passes while a state machine
that keeps writing and varies its numbers fails. Without `--bug` the server is the correct twin.
Bugs (tests/servers/README.md has the details):

- evict-after-3: the store keeps three records; the fourth distinct name silently drops the oldest.
- noop-some-values: an overwrite with a value shorter than the stored one is silently ignored.
- bound-over-5: list_records(limit=N) returns N+1 records when N > 5.
- tail-off-by-one: read_lines(tail=N) returns N+1 lines when N >= 3.
- ghost-writes: create_record says it created the record and stores nothing (not subtle: it
  checks how a write no read tool shows is reproduced).

Invalid arguments get an isError result; an unknown tool gets JSON-RPC error -32602.

    python tests/servers/probe_bugs.py [--bug NAME] [--http PORT]
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jsonschema
import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

BUGS = ("evict-after-3", "noop-some-values", "bound-over-5", "tail-off-by-one", "ghost-writes")

_RECORD_LIST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "records": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "value": {"type": "string"}},
                "required": ["name", "value"],
            },
        }
    },
    "required": ["records"],
}

_READ = types.ToolAnnotations(read_only_hint=True, open_world_hint=False)


def _text(text: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def _records_result(records: list[tuple[str, str]]) -> types.CallToolResult:
    """Records as JSON structured content, and the same JSON as text for clients that read only text."""
    payload = {"records": [{"name": name, "value": value} for name, value in records]}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(payload))], structured_content=payload
    )


@dataclass(frozen=True)
class _Tool:
    spec: types.Tool
    handler: Callable[[dict[str, Any]], types.CallToolResult]


class RecordStore:
    """Named text records in insertion order, with at most one bug switched on."""

    def __init__(self, bug: str | None) -> None:
        self.bug = bug
        self.records: dict[str, str] = {}

    def create_record(self, args: dict[str, Any]) -> types.CallToolResult:
        name, value = args["name"], args["value"]
        old = self.records.get(name)
        if old is not None:
            if not (self.bug == "noop-some-values" and len(value) < len(old)):
                self.records[name] = value
            return _text(f"Updated record '{name}'.")
        if self.bug == "ghost-writes":
            return _text(f"Created record '{name}'.")
        if self.bug == "evict-after-3" and len(self.records) >= 3:
            del self.records[next(iter(self.records))]
        self.records[name] = value
        return _text(f"Created record '{name}'.")

    def list_records(self, args: dict[str, Any]) -> types.CallToolResult:
        limit = args.get("limit", 10)
        if self.bug == "bound-over-5" and limit > 5:
            limit += 1
        return _records_result(list(self.records.items())[:limit])

    def search_records(self, args: dict[str, Any]) -> types.CallToolResult:
        query = args["query"]
        return _records_result([(n, v) for n, v in self.records.items() if query in n or query in v])

    def read_lines(self, args: dict[str, Any]) -> types.CallToolResult:
        name = args["name"]
        if name not in self.records:
            return _text(f"No record named '{name}'.", error=True)
        lines = self.records[name].splitlines()
        if "head" in args:
            lines = lines[: args["head"]]
        if "tail" in args:
            tail = args["tail"]
            if self.bug == "tail-off-by-one" and tail >= 3:
                tail += 1
            lines = lines[len(lines) - min(tail, len(lines)) :]
        return types.CallToolResult(
            content=[types.TextContent(type="text", text="\n".join(lines))],
            structured_content={"lines": lines},
        )

    def tools(self) -> list[_Tool]:
        return [
            _Tool(
                types.Tool(
                    name="create_record",
                    description=(
                        "Store a text value under a name. Writing an existing name replaces its value. "
                        "Values may span several lines; read_lines returns them line by line."
                    ),
                    input_schema={
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "minLength": 1, "description": "Unique record name."},
                            "value": {
                                "type": "string",
                                "description": "Text to store; may contain newlines.",
                            },
                        },
                        "required": ["name", "value"],
                    },
                    annotations=types.ToolAnnotations(
                        read_only_hint=False,
                        destructive_hint=False,
                        idempotent_hint=True,
                        open_world_hint=False,
                    ),
                ),
                self.create_record,
            ),
            _Tool(
                types.Tool(
                    name="list_records",
                    description="List stored records, oldest first, as {records: [{name, value}]}.",
                    input_schema={
                        "type": "object",
                        "properties": {
                            "limit": {
                                "type": "integer",
                                "minimum": 1,
                                "maximum": 50,
                                "default": 10,
                                "description": "Maximum number of records to return.",
                            }
                        },
                    },
                    output_schema=_RECORD_LIST_SCHEMA,
                    annotations=_READ,
                ),
                self.list_records,
            ),
            _Tool(
                types.Tool(
                    name="search_records",
                    description=(
                        "Find every record whose name or value contains the query (case-sensitive "
                        "substring; an empty query matches all)."
                    ),
                    input_schema={
                        "type": "object",
                        "properties": {"query": {"type": "string", "description": "Text to look for."}},
                        "required": ["query"],
                    },
                    output_schema=_RECORD_LIST_SCHEMA,
                    annotations=_READ,
                ),
                self.search_records,
            ),
            _Tool(
                types.Tool(
                    name="read_lines",
                    description=(
                        "Read a record's value as lines. head keeps the first N lines, tail the last N; "
                        "with both, head applies first."
                    ),
                    input_schema={
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "minLength": 1, "description": "Record to read."},
                            "head": {
                                "type": "integer",
                                "minimum": 0,
                                "description": "Return only the first N lines.",
                            },
                            "tail": {
                                "type": "integer",
                                "minimum": 0,
                                "description": "Return only the last N lines.",
                            },
                        },
                        "required": ["name"],
                    },
                    output_schema={
                        "type": "object",
                        "properties": {"lines": {"type": "array", "items": {"type": "string"}}},
                        "required": ["lines"],
                    },
                    annotations=_READ,
                ),
                self.read_lines,
            ),
        ]


def build_server(bug: str | None = None) -> Server[Any]:
    """A low-level server, so schemas are exactly what we declare and validation is ours."""
    tools = {t.spec.name: t for t in RecordStore(bug).tools()}
    validators = {name: jsonschema.Draft202012Validator(t.spec.input_schema) for name, t in tools.items()}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[t.spec for t in tools.values()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = tools.get(params.name)
        if tool is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        error = jsonschema.exceptions.best_match(validators[params.name].iter_errors(arguments))
        if error is not None:
            return _text(f"Invalid arguments for {params.name}: {error.message}", error=True)
        return tool.handler(arguments)

    return Server(
        "probe-bugs", version=f"1.0.0+{bug or 'twin'}", on_list_tools=list_tools, on_call_tool=call_tool
    )


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, BUGS, __doc__ or "", argv,
                 bug_help="switch on one effect bug (default: the correct twin)")


if __name__ == "__main__":
    main()
