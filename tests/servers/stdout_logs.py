"""A greeter that logs every call, on stderr as it should, or on stdout with a bug.

- greet(name): "Hello, NAME!" (read-only).
- shout(text): the text in capitals (read-only).

    python tests/servers/stdout_logs.py [--bug logs-to-stdout|banner|garbage-only]

It serves stdio on the process's own stdin and stdout (explicit streams to the SDK's `stdio_server`,
as servers on the SDK 1.x did): the SDK 2.x points file descriptor 1 at stderr while it serves,
so a print could not reach the wire otherwise. The correct twin logs `called greet` and the like on
stderr. `logs-to-stdout` writes the same line on stdout before every answer; `banner` writes one
line on stdout at start and then serves correctly; `garbage-only` is no MCP server at all: it writes
a banner and answers every line it reads with one more line of text, never JSON-RPC.
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

import anyio
import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

BUGS = ("logs-to-stdout", "banner", "garbage-only")
_READ = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)


def _text_tool(name: str, description: str, argument: str, about: str) -> types.Tool:
    return types.Tool(name=name, description=description, annotations=_READ, input_schema={
        "type": "object", "properties": {argument: {"type": "string", "description": about}}, "required": [argument]})


TOOLS = [_text_tool("greet", "Greets someone by name.", "name", "Who to greet."),
         _text_tool("shout", "Answers the text in capital letters.", "text", "What to shout.")]


def build_server(bug: str | None) -> Server[Any]:
    log = sys.stdout if bug == "logs-to-stdout" else sys.stderr

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=TOOLS)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        args = params.arguments or {}
        if params.name not in ("greet", "shout"):
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        print(f"called {params.name}", file=log, flush=True)
        value = args.get("name" if params.name == "greet" else "text")
        if not isinstance(value, str):
            return types.CallToolResult(content=[types.TextContent(type="text", text="a string is required")],
                                        is_error=True)
        answer = f"Hello, {value}!" if params.name == "greet" else value.upper()
        return types.CallToolResult(content=[types.TextContent(type="text", text=answer)])

    return Server("stdout-logs", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_on_process_streams(server: Server[Any]) -> None:
    stdin = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    stdout = anyio.wrap_file(io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8"))
    async with stdio_server(stdin, stdout) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def garbage_only() -> None:
    print("Listening on http://127.0.0.1:8080", flush=True)
    for line in sys.stdin:
        print(f"unknown command ({len(line)} bytes)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bug", choices=BUGS, help="switch on one bug (default: the correct twin)")
    bug = parser.parse_args().bug
    serving.exit_on_signals()
    if bug == "garbage-only":
        garbage_only()
        return
    if bug == "banner":
        print("stdout-logs 1.0 starting", flush=True)
    anyio.run(serve_on_process_streams, build_server(bug))


if __name__ == "__main__":
    main()
