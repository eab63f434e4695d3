"""Read-only tools whose bugs are in how they refuse: the wrong error for the wrong thing.

Without `--bug` the server is the correct twin: schema-invalid arguments get an isError result, an
unknown tool gets JSON-RPC error -32602, and `fetch_page` answers a page it does not have (above 20)
with an isError result, which is a refusal of a made-up value and no failure. One bug changes one
behaviour only:

- unknown-as-result: an unknown tool gets an isError result, as if it existed and failed.
- internal-on-invalid: `convert_units` answers schema-invalid arguments with internal error -32603.
- params-on-valid: `fetch_page` answers a schema-valid page above 20 with JSON-RPC error -32602,
  calling a valid argument invalid.
- digits-in-name: `unit_name` returns names with a digit, which its outputSchema's ECMA-262
  pattern `^\\p{L}+$` (letters only) forbids.

    python tests/servers/verdict_bugs.py [--bug NAME] [--http PORT]
"""

from __future__ import annotations

from typing import Any

import jsonschema
import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

BUGS = ("unknown-as-result", "internal-on-invalid", "params-on-valid", "digits-in-name")
PAGES = 20

TOOLS = [
    types.Tool(
        name="fetch_page",
        description="Return one page of the catalogue by its number.",
        input_schema={"type": "object", "properties": {
            "number": {"type": "integer", "minimum": 1, "maximum": 400, "description": "Page number."}},
            "required": ["number"], "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
    types.Tool(
        name="convert_units",
        description="Convert a length between metres and feet.",
        input_schema={"type": "object", "properties": {
            "value": {"type": "number", "description": "The length."},
            "to": {"type": "string", "enum": ["m", "ft"], "description": "Target unit."}},
            "required": ["value", "to"], "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
    types.Tool(
        name="unit_name",
        description="The name of a length unit by its symbol.",
        input_schema={"type": "object", "properties": {
            "symbol": {"type": "string", "enum": ["m", "ft", "in"], "description": "Unit symbol."}},
            "required": ["symbol"], "additionalProperties": False},
        output_schema={"type": "object", "properties": {"name": {"type": "string", "pattern": "^\\p{L}+$"}},
                       "required": ["name"]},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
]
NAMES = {"m": "metre", "ft": "foot", "in": "inch"}


def _text(text: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def build_server(bug: str | None = None) -> Server[Any]:
    tools = {t.name: t for t in TOOLS}
    validators = {name: jsonschema.Draft202012Validator(t.input_schema) for name, t in tools.items()}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=TOOLS)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in tools:
            if bug == "unknown-as-result":
                return _text(f"tool {params.name} failed", error=True)
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        problem = jsonschema.exceptions.best_match(validators[params.name].iter_errors(arguments))
        if problem is not None:
            if bug == "internal-on-invalid" and params.name == "convert_units":
                raise MCPError(types.INTERNAL_ERROR, f"conversion crashed: {problem.message}")
            return _text(f"invalid arguments: {problem.message}", error=True)
        if params.name == "fetch_page":
            number = arguments["number"]
            if number > PAGES:
                if bug == "params-on-valid":
                    raise MCPError(types.INVALID_PARAMS, f"page {number} is out of range")
                return _text(f"no page {number}: the catalogue has {PAGES} pages", error=True)
            return _text(f"page {number} of {PAGES}")
        if params.name == "unit_name":
            name = NAMES[arguments["symbol"]] + ("2" if bug == "digits-in-name" else "")
            return types.CallToolResult(content=[types.TextContent(type="text", text=name)],
                                        structured_content={"name": name})
        factor = 3.28084 if arguments["to"] == "ft" else 1 / 3.28084
        return _text(f"{arguments['value'] * factor:.3f} {arguments['to']}")

    return Server("verdict-bugs", version=f"1.0.0+{bug or 'twin'}", on_list_tools=list_tools,
                  on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, BUGS, __doc__ or "", argv)


if __name__ == "__main__":
    main()
