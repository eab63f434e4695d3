"""Read-only tools whose bugs show only for some inputs, so one fixed smoke call misses them.

A smoke check calls each tool once with fixed values (defaults, the first enum value, zero values)
and once with a wrong type. Every bug here survives both calls and needs generated inputs: a longer
list, a bigger number, a value out of range, a string outside the enum, an extra property. Without
`--bug` the server is the correct twin: every tool rejects invalid arguments with an isError result
and honours its output schema for every valid input. One bug changes one tool and nothing else:

- long-list: count_items returns `count` as a string when given more than three items.
- big-number: square returns `square` as a string when n > 1000.
- picky-big-number: as big-number, and square also refuses n = 0, a valid value, with JSON-RPC
  error -32602: a search that stopped at that refusal would never reach the larger numbers.
- range-unchecked: score_label accepts n outside its declared 1..10 (wrong types are still rejected).
- enum-unchecked: greeting accepts any language string, not only its enum (wrong types still rejected).
- extra-props: echo accepts properties its additionalProperties: false forbids.

An unknown tool gets JSON-RPC error -32602.

    python tests/servers/smoke_bugs.py [--bug NAME] [--http PORT]
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jsonschema
import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

BUGS = ("long-list", "big-number", "picky-big-number", "range-unchecked", "enum-unchecked", "extra-props")

_UNCHECKED_KEYWORDS = {
    "range-unchecked": ("score_label", {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}),
    "enum-unchecked": ("greeting", {"enum"}),
    "extra-props": ("echo", {"additionalProperties"}),
}
"""For the validation bugs: the tool whose check skips them, and the schema keywords it skips."""

_READ = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
_GREETINGS = {"en": "Hello", "fr": "Bonjour", "de": "Hallo"}
_STRINGS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}


def _object(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), **extra}


def _integer(minimum: int, maximum: int, description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": minimum, "maximum": maximum, "description": description}


def _spec(
    name: str, description: str, inputs: dict[str, Any], outputs: dict[str, Any], **input_extra: Any
) -> types.Tool:
    return types.Tool(
        name=name,
        description=description,
        input_schema=_object(inputs, **input_extra),
        output_schema=_object(outputs),
        annotations=_READ,
    )


def _without(schema: Any, keywords: set[str]) -> Any:
    """The schema with some keywords removed at every depth: what a buggy validator checks."""
    if isinstance(schema, dict):
        return {k: _without(v, keywords) for k, v in schema.items() if k not in keywords}
    if isinstance(schema, list):
        return [_without(v, keywords) for v in schema]
    return schema


def _structured(payload: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(payload))], structured_content=payload
    )


@dataclass(frozen=True)
class _Tool:
    spec: types.Tool
    handler: Callable[[dict[str, Any]], dict[str, Any]]


def _tools(bug: str | None) -> list[_Tool]:
    def count_items(args: dict[str, Any]) -> dict[str, Any]:
        items: list[str] = args["items"]
        count: int | str = len(items)
        if bug == "long-list" and len(items) > 3:
            count = str(count)
        return {"count": count, "items": sorted(items)}

    def square(args: dict[str, Any]) -> dict[str, Any]:
        n: int = args["n"]
        result: int | str = n * n
        if bug == "picky-big-number" and n == 0:
            raise MCPError(types.INVALID_PARAMS, "n must be positive")
        if bug in ("big-number", "picky-big-number") and n > 1000:
            result = str(result)
        return {"n": n, "square": result}

    def score_label(args: dict[str, Any]) -> dict[str, Any]:
        n: int = args["n"]
        return {"label": "low" if n <= 3 else "medium" if n <= 7 else "high"}

    def greeting(args: dict[str, Any]) -> dict[str, Any]:
        return {"text": _GREETINGS.get(args["language"], "Hello")}

    def echo(args: dict[str, Any]) -> dict[str, Any]:
        return {"message": args["message"]}

    return [
        _Tool(
            _spec(
                "count_items",
                "Count a list of strings and return them sorted.",
                {"items": {**_STRINGS, "description": "Strings to count."}},
                {"count": {"type": "integer"}, "items": _STRINGS},
            ),
            count_items,
        ),
        _Tool(
            _spec(
                "square",
                "Square a whole number between 0 and 100000.",
                {"n": _integer(0, 100000, "Number to square.")},
                {"n": {"type": "integer"}, "square": {"type": "integer"}},
            ),
            square,
        ),
        _Tool(
            _spec(
                "score_label",
                "Turn a score from 1 to 10 into a label: low (1-3), medium (4-7) or high (8-10).",
                {"n": _integer(1, 10, "Score, 1 to 10.")},
                {"label": {"type": "string", "enum": ["low", "medium", "high"]}},
            ),
            score_label,
        ),
        _Tool(
            _spec(
                "greeting",
                "Say hello in English, French or German.",
                {"language": {"type": "string", "enum": list(_GREETINGS), "description": "ISO 639-1 code."}},
                {"text": {"type": "string"}},
            ),
            greeting,
        ),
        _Tool(
            _spec(
                "echo",
                "Return the message unchanged; no other argument is allowed.",
                {"message": {"type": "string", "description": "Text to echo."}},
                {"message": {"type": "string"}},
                additionalProperties=False,
            ),
            echo,
        ),
    ]


def build_server(bug: str | None = None) -> Server[Any]:
    """A low-level server: it publishes our schemas verbatim and never checks its own output."""
    tools = {t.spec.name: t for t in _tools(bug)}
    validators = {name: jsonschema.Draft202012Validator(t.spec.input_schema) for name, t in tools.items()}
    if bug in _UNCHECKED_KEYWORDS:
        name, keywords = _UNCHECKED_KEYWORDS[bug]
        validators[name] = jsonschema.Draft202012Validator(_without(tools[name].spec.input_schema, keywords))

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[t.spec for t in tools.values()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = tools.get(params.name)
        if tool is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        error = jsonschema.exceptions.best_match(validators[params.name].iter_errors(arguments))
        if error is not None:
            return types.CallToolResult(
                content=[
                    types.TextContent(
                        type="text", text=f"Invalid arguments for {params.name}: {error.message}"
                    )
                ],
                is_error=True,
            )
        return _structured(tool.handler(arguments))

    return Server(
        "smoke-bugs", version=f"1.0.0+{bug or 'twin'}", on_list_tools=list_tools, on_call_tool=call_tool
    )


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, BUGS, __doc__ or "", argv)


if __name__ == "__main__":
    main()
