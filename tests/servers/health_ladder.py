"""A small stock room graded at seven levels of health, from healthy to broken everywhere.

Tools: `add_item(name, quantity)` (write; answers the new item's sku), `get_item(sku)` (read; a
sku it does not have is refused), `list_items()` (read) and `count_stock(name)` (read; the
quantity in stock under that name, 0 for none). Schema-invalid arguments are refused. Without
`--bug` the server is healthy: every refusal is an `isError: true` result. Each bug lowers it:

- internal-refusals: schema-invalid arguments to add_item are refused with a JSON-RPC internal
  error (-32603) instead; everything else is healthy.
- not-found-success: get_item answers a sku it does not have with the success result
  `{"error": "..."}` (isError unset); everything else is healthy.
- writes-refused: add_item refuses every call with an isError result ("the stock room takes no
  deliveries today"); the reads are healthy. Nothing is wrong that the run saw, but no write was
  ever seen to work: the grade cannot vouch for the writes.
- half-broken: add_item and count_stock answer every valid call with a JSON-RPC internal error
  (their store is locked); get_item and list_items are healthy.
- all-json-errors: every call of every tool is answered `{"error": "..."}` with isError unset.
- all-is-error: every call of every tool is answered with an isError result.

    python tests/servers/health_ladder.py [--bug NAME] [--http PORT]
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

BUGS = ("internal-refusals", "not-found-success", "writes-refused", "half-broken", "all-json-errors", "all-is-error")
NAME = {"type": "string", "minLength": 1, "maxLength": 30, "description": "The item's name."}
TOOLS = [
    types.Tool(
        name="add_item",
        description="Put a quantity of an item in the stock room; answers the new item's sku.",
        input_schema={"type": "object", "properties": {
            "name": NAME, "quantity": {"type": "integer", "minimum": 1, "maximum": 1000,
                                       "description": "How many pieces."}},
            "required": ["name", "quantity"], "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False),
    ),
    types.Tool(
        name="get_item",
        description="One item by the sku add_item answered.",
        input_schema={"type": "object", "properties": {
            "sku": {"type": "string", "pattern": "^SKU-[0-9]{1,6}$", "description": "The item's sku."}},
            "required": ["sku"], "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
    types.Tool(
        name="list_items",
        description="Every item in the stock room, oldest first.",
        input_schema={"type": "object", "properties": {}, "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
    types.Tool(
        name="count_stock",
        description="How many pieces are in stock under a name, over every item of that name.",
        input_schema={"type": "object", "properties": {"name": NAME}, "required": ["name"],
                      "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
]


def _text(text: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def build_server(bug: str | None = None) -> Server[Any]:
    tools = {t.name: t for t in TOOLS}
    validators = {name: jsonschema.Draft202012Validator(t.input_schema) for name, t in tools.items()}
    items: dict[str, dict[str, Any]] = {}

    def refuse(message: str) -> types.CallToolResult:
        if bug == "all-json-errors":
            return _text(json.dumps({"error": message}))
        return _text(message, error=True)

    def serve(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        if name == "add_item":
            sku = f"SKU-{len(items) + 1}"
            items[sku] = {"sku": sku, "name": arguments["name"], "quantity": arguments["quantity"]}
            return _text(json.dumps({"sku": sku}))
        if name == "get_item":
            found = items.get(arguments["sku"])
            if found is None and bug == "not-found-success":
                return _text(json.dumps({"error": f"no item {arguments['sku']}"}))
            return _text(json.dumps(found)) if found else refuse(f"no item {arguments['sku']}")
        if name == "list_items":
            return _text(json.dumps(list(items.values())))
        total = sum(i["quantity"] for i in items.values() if i["name"] == arguments["name"])
        return _text(json.dumps({"name": arguments["name"], "in_stock": total}))

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=TOOLS)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in tools:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        if bug in ("all-json-errors", "all-is-error"):
            return refuse("the stock room is closed")
        arguments = params.arguments or {}
        problem = jsonschema.exceptions.best_match(validators[params.name].iter_errors(arguments))
        if problem is not None:
            if bug == "internal-refusals" and params.name == "add_item":
                raise MCPError(types.INTERNAL_ERROR, f"internal error: {problem.message}")
            return refuse(f"invalid arguments: {problem.message}")
        if bug == "writes-refused" and params.name == "add_item":
            return refuse("the stock room takes no deliveries today")
        if bug == "half-broken" and params.name in ("add_item", "count_stock"):
            raise MCPError(types.INTERNAL_ERROR, "the stock database is locked")
        return serve(params.name, arguments)

    return Server("health-ladder", version=f"1.0.0+{bug or 'healthy'}", on_list_tools=list_tools,
                  on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, BUGS, __doc__ or "", argv)


if __name__ == "__main__":
    main()
