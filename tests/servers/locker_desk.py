"""A gym's locker desk whose refusal shape only its answers to invalid arguments show.

Tools, camelCase, in this catalog order: `releaseLocker(locker)` (write; frees a rented locker, a
free one is refused), `rentLocker(locker, holder)` (write; rents a free locker, one already rented
is refused: a second rental never replaces the first), `topUp(amount)` (write; adds credit, and
refuses 0, which the schema allows: so the plainest valid call is refused) and `lockerRoster(row?)`
(read; every rented locker, or one row's). No tool reads one locker by its id, so no read of an id
nobody wrote can show what a refusal looks like, and the one write that must fail (every text
empty) is a single answer. The server checks arguments against the schemas itself and refuses
invalid ones as it refuses the rest.
Successes answer structuredContent (`{"accepted": true, "locker": "B07", "holder": "ann"}`) with
its JSON as text; the roster answers `{"lockers": [...]}`.

Without `--bug` the server is the correct twin: every refusal is an `isError: true` result. Each
bug keeps isError false on every refusal, by design:

- flag: structuredContent `{"accepted": false, "note": "..."}`, a boolean no fixed rule reads; the
  tools the scenarios call answer invalid arguments with it, each naming what was wrong, and so
  does topUp its plainest valid call.
- sentence: a plain text `Request declined: ...` (no structuredContent), a sentence no fixed rule
  reads; the tools the scenarios call open their answers to invalid arguments with it.

    python tests/servers/locker_desk.py [--bug NAME] [--http PORT]
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

BUGS = ("flag", "sentence")
LOCKER = {"type": "string", "pattern": "^[A-F][0-9]{2}$",
          "description": "A locker: a row A-F and two digits, e.g. B07."}
TOOLS = [
    types.Tool(
        name="releaseLocker",
        description="Free a rented locker so it can be rented again; a locker that is not rented is refused.",
        input_schema={"type": "object", "properties": {"locker": LOCKER}, "required": ["locker"],
                      "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False),
    ),
    types.Tool(
        name="rentLocker",
        description="Rent a free locker to a holder; a locker already rented is refused (release it first).",
        input_schema={"type": "object", "properties": {
            "locker": LOCKER,
            "holder": {"type": "string", "maxLength": 40, "description": "Who rents it."}},
            "required": ["locker", "holder"], "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False),
    ),
    types.Tool(
        name="topUp",
        description="Add credit to the desk's till for locker fees; answers the credit. Nothing to add is refused.",
        input_schema={"type": "object", "properties": {
            "amount": {"type": "integer", "minimum": 0, "maximum": 500, "description": "Whole euros to add."}},
            "required": ["amount"], "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False),
    ),
    types.Tool(
        name="lockerRoster",
        description="Every rented locker with its holder, in the order they were rented; `row` keeps one row.",
        input_schema={"type": "object", "properties": {
            "row": {"type": "string", "enum": list("ABCDEF"), "description": "Only this row's lockers."}},
            "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
]


def _answer(payload: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(payload))],
                                structured_content=payload)


def build_server(bug: str | None = None) -> Server[Any]:
    tools = {t.name: t for t in TOOLS}
    validators = {name: jsonschema.Draft202012Validator(t.input_schema) for name, t in tools.items()}
    rented: dict[str, str] = {}
    till = {"credit": 0}

    def decline(why: str) -> types.CallToolResult:
        if bug == "flag":
            return _answer({"accepted": False, "note": why})
        text = f"Request declined: {why}"
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=bug is None)

    def serve(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        if name == "lockerRoster":
            row = arguments.get("row", "")
            return _answer({"lockers": [{"locker": k, "holder": v} for k, v in rented.items() if k.startswith(row)]})
        if name == "topUp":
            if arguments["amount"] == 0:
                return decline("nothing to add")
            till["credit"] += arguments["amount"]
            return _answer({"accepted": True, "credit": till["credit"]})
        locker = arguments["locker"]
        if name == "releaseLocker":
            if locker not in rented:
                return decline(f"locker {locker} is not rented")
            del rented[locker]
            return _answer({"accepted": True, "locker": locker, "holder": None})
        if locker in rented:
            return decline(f"locker {locker} is already rented")
        rented[locker] = arguments["holder"]
        return _answer({"accepted": True, "locker": locker, "holder": arguments["holder"]})

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=TOOLS)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in tools:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        problem = jsonschema.exceptions.best_match(validators[params.name].iter_errors(arguments))
        if problem is not None:
            return decline(f"{'.'.join(map(str, problem.absolute_path)) or 'arguments'}: {problem.message}")
        return serve(params.name, arguments)

    return Server("locker-desk", version=f"2.1.0+{bug or 'isError'}", on_list_tools=list_tools,
                  on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, BUGS, __doc__ or "", argv)


if __name__ == "__main__":
    main()
