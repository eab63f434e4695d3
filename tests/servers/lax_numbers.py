"""A small text toolbox whose integer arguments are checked as numbers: one cause on three tools.

- lax-numbers: every integer argument is validated as a number and truncated, as a validator that
  checks `number` where the schema says `integer` does; `limit: 0.5` runs as 0 on count_words,
  page_words and repeat alike. Every other wrong type is still refused.

No bug: the correct twin, which validates each call against the published schema. Both refuse an
unknown tool with JSON-RPC error -32602.

    python tests/servers/lax_numbers.py [--bug lax-numbers] [--http PORT]
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import jsonschema
import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

BUGS = ("lax-numbers",)
_READ = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
_TEXT = {"type": "string", "maxLength": 200, "description": "Text to work on."}


def _integer(description: str) -> dict[str, Any]:
    return {"type": "integer", "description": description}


def _spec(name: str, description: str, inputs: dict[str, Any]) -> types.Tool:
    schema = {"type": "object", "properties": inputs, "required": list(inputs), "additionalProperties": False}
    return types.Tool(name=name, description=description, input_schema=schema, annotations=_READ)


TOOLS: dict[str, tuple[types.Tool, Callable[[dict[str, Any]], str]]] = {
    "count_words": (_spec("count_words", "Count the words of a text, at most `limit` of them.",
                          {"text": _TEXT, "limit": _integer("Most words to count.")}),
                    lambda a: str(min(len(a["text"].split()), max(a["limit"], 0)))),
    "page_words": (_spec("page_words", "The words of a text from `offset` on, one per line.",
                         {"text": _TEXT, "offset": _integer("Words to skip.")}),
                   lambda a: "\n".join(a["text"].split()[max(a["offset"], 0):])),
    "repeat": (_spec("repeat", "A text repeated `times` times (0 to 5), joined by spaces.",
                     {"text": _TEXT, "times": _integer("How often; values outside 0..5 are clamped.")}),
               lambda a: " ".join([a["text"]] * min(max(a["times"], 0), 5))),
}


def _as_numbers(schema: Any) -> Any:
    """The schema a lax validator checks: `integer` read as `number`."""
    if isinstance(schema, dict):
        return {k: "number" if k == "type" and v == "integer" else _as_numbers(v) for k, v in schema.items()}
    return schema


def build_server(bug: str | None = None) -> Server[Any]:
    validators = {name: jsonschema.Draft202012Validator(
        _as_numbers(copy.deepcopy(spec.input_schema)) if bug else spec.input_schema)
        for name, (spec, _) in TOOLS.items()}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[spec for spec, _ in TOOLS.values()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in TOOLS:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        error = jsonschema.exceptions.best_match(validators[params.name].iter_errors(arguments))
        if error is not None:
            text = f"Invalid arguments for {params.name}: {error.message}"
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)
        read = {k: int(v) if isinstance(v, float) else v for k, v in arguments.items()}
        answer = TOOLS[params.name][1](read)
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps({"result": answer}))])

    return Server("lax-numbers", version=f"1.0.0+{bug or 'twin'}", on_list_tools=list_tools, on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, BUGS, __doc__ or "", argv)


if __name__ == "__main__":
    main()
