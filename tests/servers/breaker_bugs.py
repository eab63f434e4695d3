"""Read-only tools that crash the whole process on one class of input that random draws rarely make.

Each bug kills the server process (as a native extension or an unchecked buffer would) on a
value that a small budget of generated examples seldom contains. Without `--bug` the server is
the correct twin: every value its schemas allow gets an answer. One bug changes one tool:

- nul-crash: `annotate(text, label?)` exits with code 139 when `text` contains a NUL character.
- long-crash: `digest(body)` (maxLength 200000) aborts when `body` is longer than 1,500 characters.
- huge-int-crash: `convert(amount, unit)` exits with code 1 when `amount` does not fit in 32 bits
  (it is below -2^31 or above 2^31 - 1).

`annotate` answers bad arguments with an isError result; `digest` and `convert` with JSON-RPC
error -32602; an unknown tool gets JSON-RPC error -32602 too.

    python tests/servers/breaker_bugs.py [--bug NAME] [--http PORT]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Callable
from typing import Any

import jsonschema
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from serving import serve

BUGS = ("nul-crash", "long-crash", "huge-int-crash")
INT32 = 2**31

_READ = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
_UNITS = {"cm": 0.01, "m": 1.0, "km": 1000.0}


def _die(code: int, why: str) -> None:
    print(f"fatal: {why}", file=sys.stderr, flush=True)
    if code < 0:
        os.abort()
    os._exit(code)


def _text(payload: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(payload))])


def build_server(bug: str | None = None) -> Server[Any]:
    def annotate(args: dict[str, Any]) -> dict[str, Any]:
        text: str = args["text"]
        if bug == "nul-crash" and "\x00" in text:
            _die(139, "segmentation fault in the tokenizer")
        return {"label": args.get("label", "note"), "words": len(text.split()), "chars": len(text)}

    def digest(args: dict[str, Any]) -> dict[str, Any]:
        body: str = args["body"]
        if bug == "long-crash" and len(body) > 1500:
            _die(-6, "buffer overflow: body longer than the 1500-byte frame")
        return {"sha256": hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()}

    def convert(args: dict[str, Any]) -> dict[str, Any]:
        amount: int = args["amount"]
        if bug == "huge-int-crash" and not -INT32 <= amount < INT32:
            _die(1, "integer overflow converting amount to int32")
        return {"metres": amount * _UNITS[args["unit"]]}

    specs: dict[str, tuple[dict[str, Any], Callable[[dict[str, Any]], dict[str, Any]], bool]] = {
        "annotate": ({"type": "object", "properties": {
            "text": {"type": "string", "description": "Text to annotate."},
            "label": {"type": "string", "maxLength": 40, "description": "Optional label."}},
            "required": ["text"]}, annotate, True),
        "digest": ({"type": "object", "properties": {
            "body": {"type": "string", "maxLength": 200000, "description": "Document body to hash."}},
            "required": ["body"], "additionalProperties": False}, digest, False),
        "convert": ({"type": "object", "properties": {
            "amount": {"type": "integer", "description": "A whole number of units."},
            "unit": {"type": "string", "enum": list(_UNITS)}},
            "required": ["amount", "unit"]}, convert, False),
    }
    tools = [types.Tool(name=name, description=f"{name.capitalize()} the input.", input_schema=schema,
                        annotations=_READ) for name, (schema, _, _) in specs.items()]
    validators = {name: jsonschema.Draft202012Validator(schema) for name, (schema, _, _) in specs.items()}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in specs:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        _, handler, soft_errors = specs[params.name]
        arguments = params.arguments or {}
        error = jsonschema.exceptions.best_match(validators[params.name].iter_errors(arguments))
        if error is not None:
            if soft_errors:
                return types.CallToolResult(content=[types.TextContent(type="text", text=error.message)],
                                            is_error=True)
            raise MCPError(types.INVALID_PARAMS, f"invalid arguments: {error.message}")
        return _text(handler(arguments))

    return Server("breaker-bugs", version=f"1.0.0+{bug or 'twin'}", on_list_tools=list_tools,
                  on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", choices=BUGS, help="switch on one bug (default: the correct twin)")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT/mcp")
    args = parser.parse_args(argv)
    serve(build_server(args.bug), args.http)


if __name__ == "__main__":
    main()
