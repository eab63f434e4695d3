"""Serving the test servers: stdio by default, or streamable HTTP at 127.0.0.1:PORT/mcp."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

import anyio
import jsonschema
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

# The SDK's own logging set-up renders every exception a tool raises as a Rich traceback, about half
# a second of CPU each; bug servers raise on every miss, so plain text logs keep a grading run
# bound by its calls. Set before any server is made, it wins: the SDK's basicConfig then does
# nothing. What a client sees over MCP is unchanged.
logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)


def validated_server(name: str, version: str, catalogue: list[types.Tool],
                     serve: Callable[[str, dict[str, Any]], types.CallToolResult],
                     refuse: Callable[[jsonschema.ValidationError], types.CallToolResult]) -> Server[Any]:
    """A low-level server over a fixed catalogue, for servers whose point is how they answer: an
    unknown tool is a protocol error, arguments its schema rejects go to `refuse` with the problem
    that matches best, the rest to `serve`."""
    tools = {t.name: t for t in catalogue}
    validators = {n: jsonschema.Draft202012Validator(t.input_schema) for n, t in tools.items()}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=catalogue)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in tools:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        problem = jsonschema.exceptions.best_match(validators[params.name].iter_errors(arguments))
        return serve(params.name, arguments) if problem is None else refuse(problem)

    return Server(name, version=version, on_list_tools=list_tools, on_call_tool=call_tool)


def exit_on_signals() -> None:
    """SIGTERM and SIGINT end the process at once, with status 0: an in-memory server has nothing to
    flush, and the stdin reader blocks in a thread that cancellation cannot interrupt."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: os._exit(0))


def serve(server: Server[Any], http_port: int | None) -> None:
    """Serve over stdio, or streamable HTTP at 127.0.0.1:PORT/mcp; SIGTERM ends either with status 0."""
    # Under HTTP, uvicorn shuts down gracefully and then re-raises the signal to this handler.
    exit_on_signals()
    if http_port is not None:
        import uvicorn

        app = server.streamable_http_app()
        uvicorn.run(app, host="127.0.0.1", port=http_port, log_level="warning", timeout_graceful_shutdown=1)
        return

    async def run_stdio() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run_stdio)


def main(build: Callable[[str | None], Server[Any]], bugs: Sequence[str], doc: str,
         argv: list[str] | None = None, *, bug_help: str = "switch on one bug (default: the correct twin)") -> None:
    """The command line every bug server shares: `[--bug NAME] [--http PORT]`."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--bug", choices=list(bugs), help=bug_help)
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT/mcp")
    args = parser.parse_args(argv)
    serve(build(args.bug), args.http)


def main_sdk(build: Callable[[str | None], MCPServer], bugs: Sequence[str], doc: str) -> None:
    """The command line of the servers written with the SDK's `MCPServer`: `[--bug NAME]`, stdio."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    if bugs:
        parser.add_argument("--bug", choices=list(bugs), help="switch on one bug (default: the correct twin)")
    args = parser.parse_args()
    exit_on_signals()
    build(getattr(args, "bug", None)).run()


def main_stores(stores: dict[str, Callable[[MCPServer, bool], None]], prefix: str, doc: str) -> None:
    """The command line of the files that hold several small SDK stores: `--store NAME [--bug]`."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--store", choices=sorted(stores), required=True)
    parser.add_argument("--bug", action="store_true", help="the buggy twin")
    args = parser.parse_args()
    exit_on_signals()
    mcp = MCPServer(f"{prefix}-{args.store}", log_level="WARNING")
    stores[args.store](mcp, args.bug)
    mcp.run()
