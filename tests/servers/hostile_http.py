"""An SDK server whose tools crash or hang for some inputs, served over streamable HTTP like a deployment.

    python tests/servers/hostile_http.py [--http PORT] [--tools NAMES] [--huge-mb MB] [--mode MODE] [TOKEN...]

Tools (all read-only; arguments that break the inputSchema get an isError result; `--tools` lists the
ones to serve, comma-separated, default all three):

- `echo(text)`: answers with the arguments as JSON text; with `--huge-mb MB`, with MB megabytes of text.
- `crash_above(n)`, 0 <= n <= 1000: the serving process dies (`os._exit(9)`) when n > 50.
- `hang_long(text)`: never answers when the text is longer than 3 characters.

Without `--http` it serves stdio, where a crash ends the server and the client starts a new one.
With `--http PORT` it serves `http://127.0.0.1:PORT/mcp` the way gunicorn serves an app: this
process binds the port and keeps it open, a forked worker process serves it, and when a worker dies
a new one is forked at once. A crash therefore drops the request in flight and the sessions, and
the next connection is served by the fresh worker, never refused.

`--mode` (HTTP only) replaces the MCP server for the start-up failure cases:
  silent       accept connections, read the requests, never answer
  http-error   answer every request with HTTP 500 and a plain-text body

SIGTERM or SIGINT ends the server (and its worker) with status 0. Extra words (TOKEN) are ignored,
so a test can find the processes by a unique token in their command line. With HOSTILE_HTTP_LOG set,
every `hang_long` call that is cancelled (the client gave up) appends a line to that file.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp import types
    from mcp.server.lowlevel import Server

# The SDK is imported only to serve MCP, so the --mode servers start at once.
_TEXT = {"type": "string", "description": "Any text."}
TOOL_SPECS: dict[str, tuple[str, dict[str, Any]]] = {
    "crash_above": ("Kills the serving process when n is greater than 50.",
                    {"n": {"type": "integer", "minimum": 0, "maximum": 1000, "description": "A number."}}),
    "hang_long": ("Never answers when the text is longer than 3 characters.", {"text": _TEXT}),
    "echo": ("Answers with its arguments as JSON text.", {"text": _TEXT}),
}


def build_server(huge_mb: float | None, names: set[str]) -> Server[Any]:
    import anyio
    import jsonschema
    from mcp import types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError

    read_only = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
    served = [
        types.Tool(name=name, description=description, annotations=read_only,
                   input_schema={"type": "object", "properties": properties, "required": list(properties)})
        for name, (description, properties) in TOOL_SPECS.items() if name in names
    ]
    validators = {t.name: jsonschema.Draft202012Validator(t.input_schema) for t in served}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=served)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in validators:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        problem = jsonschema.exceptions.best_match(validators[params.name].iter_errors(arguments))
        if problem is not None:
            return _text(f"invalid arguments: {problem.message}", is_error=True)
        if params.name == "crash_above" and arguments["n"] > 50:
            sys.stderr.write(f"fatal: n={arguments['n']} overflows the buffer\n")
            sys.stderr.flush()
            os._exit(9)
        if params.name == "hang_long" and len(arguments["text"]) > 3:
            try:
                await anyio.sleep_forever()
            finally:
                _log(f"cancelled hang_long {json.dumps(arguments['text'])}")
        if params.name == "echo" and huge_mb:
            return _text("y" * int(huge_mb * 1_000_000))
        return _text(json.dumps(arguments))

    return Server("hostile-http", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def _log(line: str) -> None:
    path = os.environ.get("HOSTILE_HTTP_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")


def _text(value: str, *, is_error: bool = False) -> types.CallToolResult:
    from mcp import types

    return types.CallToolResult(content=[types.TextContent(type="text", text=value)], is_error=is_error)


def serve_stdio(server: Server[Any]) -> None:
    import anyio
    from mcp.server.stdio import stdio_server

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)


def serve_http(server: Server[Any], port: int) -> None:
    """A supervisor that owns the listening socket and re-forks the worker that serves it."""
    import uvicorn

    listener = socket.create_server(("127.0.0.1", port), backlog=128)
    worker = 0

    def stop(*_: object) -> None:
        if worker:
            os.kill(worker, signal.SIGKILL)
        os._exit(0)

    while True:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        worker = os.fork()
        if worker == 0:
            for sig in (signal.SIGTERM, signal.SIGINT):
                signal.signal(sig, lambda *_: os._exit(0))
            app = server.streamable_http_app()
            config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
            uvicorn.Server(config).run(sockets=[listener])
            os._exit(0)
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, stop)
        _, status = os.waitpid(worker, 0)
        worker = 0
        sys.stderr.write(f"hostile_http: worker exited ({status}), starting a new one\n")
        time.sleep(0.05)


def serve_broken(mode: str, port: int) -> None:
    """Accept connections and either say nothing or answer HTTP 500."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: os._exit(0))
    listener = socket.create_server(("127.0.0.1", port), backlog=128)
    held: list[socket.socket] = []
    while True:
        conn, _ = listener.accept()
        if mode == "silent":
            held.append(conn)  # keep it open, never answer
            continue
        conn.settimeout(2)
        try:
            conn.recv(65536)
            body = b"internal error: database unavailable\n"
            head = (b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                    b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
            conn.sendall(head + body)
        except OSError:
            pass
        conn.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", type=int, metavar="PORT", help="serve 127.0.0.1:PORT/mcp")
    parser.add_argument("--huge-mb", type=float, default=None, help="echo answers with this many MB of text")
    parser.add_argument("--mode", choices=("silent", "http-error"), default=None)
    parser.add_argument("--tools", default=",".join(TOOL_SPECS), help="comma-separated tool names")
    args, _tokens = parser.parse_known_args(argv)
    names = set(args.tools.split(","))
    if args.mode is not None:
        if args.http is None:
            parser.error("--mode needs --http")
        serve_broken(args.mode, args.http)
    elif args.http is not None:
        serve_http(build_server(args.huge_mb, names), args.http)
    else:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: os._exit(0))
        serve_stdio(build_server(args.huge_mb, names))


if __name__ == "__main__":
    main()
