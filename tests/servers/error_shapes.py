"""A ticket desk whose refusals are answered as successes, in the style `--bug` names.

Tools: `create_ticket(summary, priority)` (write; the desk refuses a blank summary, one longer
than 40 characters, and every `high` priority: nobody is on call), `get_ticket(ticket_id)` (read;
an id it does not have is refused) and `list_tickets()` (read; every ticket as
`#id [priority] summary` lines, always served). Schema-invalid arguments are refused too.
Without `--bug` the server is the correct twin: every refusal is an `isError: true` result.
Each bug answers refusals with `isError` unset, in one style:

- json-error: the text `{"error": "..."}`.
- errors-structured: structuredContent `{"errors": [{"message": "..."}]}`, and the same as text.
- success-false: the text `{"success": false, "message": "..."}`.
- status-error: structuredContent `{"status": "error", "detail": "..."}`, and the same as text.
- error-text: the text `Error: ...`.
- failed-text: the text `Failed to ...: ...`.
- db-error: the text `Database error: ...` for the desk's own refusals only; schema-invalid
  arguments still get an isError result (as a framework that validates arguments answers them).

With `TICKET_AUDIT_LOG=FILE` in its environment the desk appends the name of every tool it is
called with to FILE, one a line: a test can see where a server ran.

    python tests/servers/error_shapes.py [--bug NAME] [--http PORT]
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import jsonschema
import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError


def _text(text: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def _structured(value: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(value))],
                                structured_content=value)


STYLES: dict[str, Callable[[str], types.CallToolResult]] = {
    "json-error": lambda message: _text(json.dumps({"error": message})),
    "errors-structured": lambda message: _structured({"errors": [{"message": message}]}),
    "success-false": lambda message: _text(json.dumps({"success": False, "message": message})),
    "status-error": lambda message: _structured({"status": "error", "detail": message}),
    "error-text": lambda message: _text(f"Error: {message}"),
    "failed-text": lambda message: _text(f"Failed to complete the request: {message}"),
    "db-error": lambda message: _text(f"Database error: {message}"),
}
BUGS = tuple(STYLES)
VALIDATES_PROPERLY = {"db-error"}
MAX_SUMMARY = 40

TOOLS = [
    types.Tool(
        name="create_ticket",
        description="Open a support ticket with a short summary and a priority; returns its id.",
        input_schema={"type": "object", "properties": {
            "summary": {"type": "string", "description": "What went wrong, in a few words."},
            "priority": {"type": "string", "enum": ["low", "normal", "high"], "description": "How urgent."}},
            "required": ["summary", "priority"], "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False),
    ),
    types.Tool(
        name="get_ticket",
        description="One ticket by its id.",
        input_schema={"type": "object", "properties": {
            "ticket_id": {"type": "integer", "minimum": 1, "description": "The id create_ticket returned."}},
            "required": ["ticket_id"], "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
    types.Tool(
        name="list_tickets",
        description="Every open ticket, one line each, oldest first.",
        input_schema={"type": "object", "properties": {}, "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
]


def build_server(bug: str | None = None) -> Server[Any]:
    tools = {t.name: t for t in TOOLS}
    validators = {name: jsonschema.Draft202012Validator(t.input_schema) for name, t in tools.items()}
    tickets: dict[int, tuple[str, str]] = {}

    def refuse(message: str, *, invalid: bool = False) -> types.CallToolResult:
        if bug is None or (invalid and bug in VALIDATES_PROPERLY):
            return _text(message, error=True)
        return STYLES[bug](message)

    def line(number: int) -> str:
        summary, priority = tickets[number]
        return f"#{number} [{priority}] {summary}"

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=TOOLS)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in tools:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        if audit := os.environ.get("TICKET_AUDIT_LOG"):
            with open(audit, "a", encoding="utf-8") as log:
                log.write(params.name + "\n")
        arguments = params.arguments or {}
        problem = jsonschema.exceptions.best_match(validators[params.name].iter_errors(arguments))
        if problem is not None:
            return refuse(f"invalid arguments: {problem.message}", invalid=True)
        if params.name == "create_ticket":
            summary = arguments["summary"].strip()
            if not summary or len(summary) > MAX_SUMMARY:
                return refuse(f"a summary must have 1 to {MAX_SUMMARY} characters")
            if arguments["priority"] == "high":
                return refuse("no engineer is on call for high priority")
            number = len(tickets) + 1
            tickets[number] = (summary, arguments["priority"])
            return _text(f"Created ticket #{number}")
        if params.name == "get_ticket":
            number = arguments["ticket_id"]
            if number not in tickets:
                return refuse(f"no ticket #{number}")
            return _text(line(number))
        return _text("\n".join(line(n) for n in tickets) or "No tickets.")

    return Server("error-shapes", version=f"1.0.0+{bug or 'twin'}", on_list_tools=list_tools,
                  on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, BUGS, __doc__ or "", argv)


if __name__ == "__main__":
    main()
