"""A one-tool server whose `server/discover` answer decides the era a client reports.

By default it is the SDK's own answer (modern versions only): era "modern". With `--dual` the
discover answer also lists the handshake-era versions the server answers `initialize` for: era
"dual". With `--slow-start SECONDS` it waits that long before it reads anything, as a server that
loads its data first does.

    python tests/servers/era_server.py [--dual] [--slow-start SECONDS] [--http PORT]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server
from mcp_types.version import SUPPORTED_PROTOCOL_VERSIONS
from serving import serve

PING = types.Tool(
    name="ping",
    description="Answers pong.",
    input_schema={"type": "object", "properties": {}, "additionalProperties": False},
    annotations=types.ToolAnnotations(read_only_hint=True),
)


def build_server(dual: bool) -> Server[Any]:
    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[PING])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(type="text", text="pong")])

    server: Server[Any] = Server("era-server", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)
    if dual:
        async def discover(ctx: Any, params: types.RequestParams | None) -> types.DiscoverResult:
            return types.DiscoverResult(
                supported_versions=list(SUPPORTED_PROTOCOL_VERSIONS),
                capabilities=server.get_capabilities(protocol_version=ctx.protocol_version),
            )

        server.add_request_handler("server/discover", types.RequestParams, discover)
    return server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dual", action="store_true", help="list the handshake-era versions in server/discover")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT/mcp")
    parser.add_argument("--slow-start", type=float, default=0.0, metavar="SECONDS", help="wait before serving")
    args = parser.parse_args(argv)
    time.sleep(args.slow_start)
    serve(build_server(args.dual), args.http)


if __name__ == "__main__":
    main()
