"""Read-only tools that never answer for a negative number, one way or another.

Without `--bug` the server is the correct twin: a negative id or timestamp gets an isError
result. One bug changes one tool:

- negative-hang: `lookup(id)` blocks the server's only thread when `id` is negative (a
  synchronous retry loop): that call and every later one on the same process go unanswered.
- negative-stall: `history(before, limit?)` waits forever on an event that never comes when
  `before` is negative: that call goes unanswered, later calls are served.

`status()` always answers. Bad arguments get JSON-RPC error -32602 from `lookup` and an isError
result from `history`; an unknown tool gets JSON-RPC error -32601.

    python tests/servers/hang_bugs.py [--bug NAME] [--http PORT]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import anyio
import jsonschema
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from serving import serve

BUGS = ("negative-hang", "negative-stall")

_READ = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
_RECORDS = {1: "alpha", 2: "beta", 3: "gamma"}
_SCHEMAS: dict[str, dict[str, Any]] = {
    "lookup": {"type": "object", "properties": {"id": {"type": "integer", "description": "Record id."}},
               "required": ["id"]},
    "history": {"type": "object", "properties": {
        "before": {"type": "number", "description": "Unix time; events before it are listed."},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50}}, "required": ["before"]},
    "status": {"type": "object", "properties": {}},
}


def _error(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


def build_server(bug: str | None = None) -> Server[Any]:
    tools = [types.Tool(name=name, description=f"The {name} of the record store.", input_schema=schema,
                        annotations=_READ) for name, schema in _SCHEMAS.items()]
    validators = {name: jsonschema.Draft202012Validator(schema) for name, schema in _SCHEMAS.items()}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in _SCHEMAS:
            raise MCPError(types.METHOD_NOT_FOUND, f"no tool {params.name}")
        args = params.arguments or {}
        error = jsonschema.exceptions.best_match(validators[params.name].iter_errors(args))
        if params.name == "lookup":
            if error is not None:
                raise MCPError(types.INVALID_PARAMS, error.message)
            if args["id"] < 0:
                if bug == "negative-hang":
                    while True:  # a retry loop that never yields: the whole process stops answering
                        time.sleep(1)
                return _error(f"no record with id {args['id']}: ids are positive")
            name = _RECORDS.get(args["id"])
            return _error(f"no record {args['id']}") if name is None else \
                types.CallToolResult(content=[types.TextContent(type="text", text=name)])
        if params.name == "history":
            if error is not None:
                return _error(f"bad arguments: {error.message}")
            if args["before"] < 0:
                if bug == "negative-stall":
                    await anyio.Event().wait()
                return _error("before must be a time after 1970")
            return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps([]))])
        return types.CallToolResult(content=[types.TextContent(type="text", text="ok")])

    return Server("hang-bugs", version=f"1.0.0+{bug or 'twin'}", on_list_tools=list_tools,
                  on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", choices=BUGS, help="switch on one bug (default: the correct twin)")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT/mcp")
    args = parser.parse_args(argv)
    serve(build_server(args.bug), args.http)


if __name__ == "__main__":
    main()
