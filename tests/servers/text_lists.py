"""Read-only tools that answer plain text, for limits that can only be counted in lines.

- list_items(limit): five items as a bulleted text list, at most `limit` of them; with
  `--bug limit-ignored` all five, whatever the limit.
- find_items(query, max_results): prose ("No item matches ..."), which has lines but no items.

No structuredContent and no JSON: neither answer is a list of items, so a built-in limit is not
judged on either (their lines may be items or prose), and the result says why.

    python tests/servers/text_lists.py [--bug limit-ignored] [--http PORT]
"""

from __future__ import annotations

from typing import Any

import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

ITEMS = ["apple", "banana", "cherry", "damson", "elderberry"]
_READ = types.ToolAnnotations(read_only_hint=True, open_world_hint=False)
_LIMIT = {"type": "integer", "minimum": 1, "maximum": 20, "description": "At most this many items."}


def _text(text: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def build_server(bug: str | None) -> Server[Any]:
    tools = [
        types.Tool(name="list_items", description="Lists the fruit in stock, one per line.", annotations=_READ,
                   input_schema={"type": "object", "properties": {"limit": _LIMIT}}),
        types.Tool(name="find_items", description="Finds fruit whose name contains the query.", annotations=_READ,
                   input_schema={"type": "object", "properties": {
                       "query": {"type": "string", "description": "Text to look for."}, "max_results": _LIMIT},
                       "required": ["query"]}),
    ]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        args = params.arguments or {}
        limit = args.get("limit", args.get("max_results", len(ITEMS)))
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 20:
            return _text("limit must be an integer from 1 to 20", error=True)
        if params.name == "list_items":
            shown = ITEMS if bug == "limit-ignored" else ITEMS[:limit]
            return _text("\n".join(f"- {item}" for item in shown))
        if params.name == "find_items":
            if not isinstance(args.get("query"), str):
                return _text("query must be a string", error=True)
            return _text(f"No item matches {args['query']!r}.\nTry a shorter query.")
        raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")

    return Server("text-lists", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, ["limit-ignored"], __doc__ or "", argv, bug_help="list_items ignores its limit")


if __name__ == "__main__":
    main()
