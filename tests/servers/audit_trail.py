"""A text service whose every call passes through one audit step: one cause on several tools.

The tools are methods of one service class, registered by a decorator with their schemas, and each
call goes through `Service.audited` before its method runs:

- ascii-audit: the audit trail is written as ASCII, so any call that carries a character outside
  ASCII in a text argument fails there, before its tool runs, with JSON-RPC error -32603
  `audit trail: cannot record TOOL(ARGUMENTS): 'ascii' codec can't encode ...`. slugify,
  word_count and reverse_words take text and fail alike; total takes only integers and never does.

No bug: the correct twin, whose trail is written as UTF-8. Invalid arguments get an isError result
on both; an unknown tool gets JSON-RPC error -32602.

    python tests/servers/audit_trail.py [--bug ascii-audit] [--http PORT]
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from typing import Any

import jsonschema
import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

BUGS = ("ascii-audit",)
Method = Callable[["Service", dict[str, Any]], Any]
CATALOG: dict[str, tuple[types.Tool, Method]] = {}


def tool(description: str, **properties: dict[str, Any]) -> Callable[[Method], Method]:
    """Registers a service method as a read-only tool taking `properties`, all required."""

    def register(method: Method) -> Method:
        schema = {"type": "object", "properties": properties, "required": list(properties),
                  "additionalProperties": False}
        annotations = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
        CATALOG[method.__name__] = (types.Tool(name=method.__name__, description=description, input_schema=schema,
                                               annotations=annotations), method)
        return method

    return register


TEXT = {"type": "string", "maxLength": 120, "description": "The text to work on."}


class Service:
    def __init__(self, encoding: str) -> None:
        self.trail = io.TextIOWrapper(io.BytesIO(), encoding=encoding)

    def audited(self, name: str, arguments: dict[str, Any]) -> Any:
        """Writes the call to the trail, then runs it: a call the trail cannot hold is not run."""
        try:
            self.trail.write(f"{name}({json.dumps(arguments, ensure_ascii=False)})\n")
            self.trail.flush()
        except UnicodeEncodeError as exc:
            raise MCPError(types.INTERNAL_ERROR, f"audit trail: cannot record {name}({arguments}): {exc}") from exc
        return CATALOG[name][1](self, arguments)

    @tool("A lowercase slug of a title: words joined by hyphens.", title=TEXT)
    def slugify(self, arguments: dict[str, Any]) -> Any:
        return {"slug": "-".join(re.findall(r"\w+", arguments["title"].lower()))}

    @tool("How many words a text holds.", text=TEXT)
    def word_count(self, arguments: dict[str, Any]) -> Any:
        return {"words": len(arguments["text"].split())}

    @tool("The words of a text in reverse order, joined by `separator`.", text=TEXT,
          separator={"type": "string", "maxLength": 3, "description": "What joins the words."})
    def reverse_words(self, arguments: dict[str, Any]) -> Any:
        return {"text": arguments["separator"].join(reversed(arguments["text"].split()))}

    @tool("The sum of two integers.", a={"type": "integer", "description": "The first term."},
          b={"type": "integer", "description": "The second term."})
    def total(self, arguments: dict[str, Any]) -> Any:
        return {"sum": arguments["a"] + arguments["b"]}


def build_server(bug: str | None = None) -> Server[Any]:
    service = Service("ascii" if bug == "ascii-audit" else "utf-8")

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[spec for spec, _ in CATALOG.values()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in CATALOG:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        error = jsonschema.exceptions.best_match(
            jsonschema.Draft202012Validator(CATALOG[params.name][0].input_schema).iter_errors(arguments))
        if error is not None:
            return types.CallToolResult(content=[types.TextContent(type="text", text=f"Invalid: {error.message}")],
                                        is_error=True)
        answer = service.audited(params.name, arguments)
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(answer))])

    return Server("audit-trail", version=f"1.0.0+{bug or 'twin'}", on_list_tools=list_tools, on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, BUGS, __doc__ or "", argv)


if __name__ == "__main__":
    main()
