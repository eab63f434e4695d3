"""The smoke-mode demo: four tools, two of them broken in the ways smoke mode exists to catch.

- honest: read-only, declares an output schema and returns exactly that shape.
- dishonest: read-only, declares an output schema whose `result` is required and leaves it out.
- sloppy: read-only, declares a required integer `count` and accepts any arguments at all.
- writer: unannotated, stores a value; smoke mode leaves it alone unless told to call every tool.

Built on the SDK's low-level server, because the high-level `MCPServer` checks a tool's structured
output against its own schema and validates arguments for us, and this demo needs both to go wrong.
Schema-invalid arguments (except for sloppy) and unknown tools get JSON-RPC error -32602.

    python examples/smoke_demo/server.py [--http PORT]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
from typing import Any

import anyio
import jsonschema
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

_READ_ONLY = types.ToolAnnotations(read_only_hint=True)
_RESULT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"result": {"type": "string", "description": "Outcome of the check."}},
    "required": ["result"],
}
_MESSAGE_INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "message": {"type": "string", "description": "Free text to attach to the check; it is not stored."}
    },
    "required": ["message"],
}

TOOLS = [
    types.Tool(
        name="honest",
        description='Health check that answers {"result": "ok"}, as its output schema promises.',
        input_schema=_MESSAGE_INPUT,
        output_schema=_RESULT_SCHEMA,
        annotations=_READ_ONLY,
    ),
    types.Tool(
        name="dishonest",
        description='Health check that promises {"result": ...} but answers {"status": "ok"}.',
        input_schema=_MESSAGE_INPUT,
        output_schema=_RESULT_SCHEMA,
        annotations=_READ_ONLY,
    ),
    types.Tool(
        name="sloppy",
        description="Reserve a number of slots; never checks its arguments and always reports success.",
        input_schema={
            "type": "object",
            "properties": {"count": {"type": "integer", "description": "How many slots to reserve."}},
            "required": ["count"],
        },
        annotations=_READ_ONLY,
    ),
    types.Tool(
        name="writer",
        description="Store a value under a key in this server's memory, replacing any earlier value.",
        input_schema={
            "type": "object",
            "properties": {
                "key": {"type": "string", "description": "Name to store the value under."},
                "value": {"type": "string", "description": "Text to store."},
            },
            "required": ["key", "value"],
        },
    ),
]


def _json_result(payload: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(payload))], structured_content=payload
    )


def build_server() -> Server[Any]:
    tools = {tool.name: tool for tool in TOOLS}
    validators = {tool.name: jsonschema.Draft202012Validator(tool.input_schema) for tool in TOOLS}
    stored: dict[str, str] = {}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=TOOLS)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        name, arguments = params.name, params.arguments or {}
        if name not in tools:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {name}")
        if name == "sloppy":
            return types.CallToolResult(content=[types.TextContent(type="text", text="{}")])
        error = jsonschema.exceptions.best_match(validators[name].iter_errors(arguments))
        if error is not None:
            raise MCPError(types.INVALID_PARAMS, f"Invalid arguments for {name}: {error.message}")
        if name == "honest":
            return _json_result({"result": "ok"})
        if name == "dishonest":
            return _json_result({"status": "ok"})
        stored[arguments["key"]] = arguments["value"]
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=f"Stored '{arguments['key']}'.")]
        )

    return Server("smoke-demo", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT/mcp"
    )
    args = parser.parse_args(argv)
    server = build_server()
    # uvicorn re-raises SIGTERM after its graceful shutdown; under stdio the stdin reader blocks in a
    # thread that cancellation cannot reach. Either way this handler ends the process with status 0.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: os._exit(0))
    if args.http is not None:
        import uvicorn

        app = server.streamable_http_app()
        uvicorn.run(app, host="127.0.0.1", port=args.http, log_level="warning", timeout_graceful_shutdown=1)
        return

    async def run_stdio() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run_stdio)


if __name__ == "__main__":
    main()
