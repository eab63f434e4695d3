"""A correct server whose answers carry error words as data: a control for `error-as-success`.

Every refusal is an `isError: true` result; every success may read like an error to a careless
eye, and none is one:

- `record_event(level, text)` (write): answers `{"id": n, "level": ..., "text": ...}`, the text
  as given (an event the user writes may well open with "Error:").
- `event_text(event_id)`: the stored text of one event as it is; event 1 is there from the start and
  reads `Error: disk full on /var/log` (a user's words), and an id it does not have is refused.
- `validate_config(config)`: `{"valid": false, "errors": [...]}` for text that is not `key=value`
  lines: a validator reporting on its input, not failing.
- `job_status(job_id)`: `{"job_id": n, "status": "failed"}` for odd ids, `"done"` for even ones.
- `count_errors()`: `Errors found: 0`.
- `tail_log(lines)` (1..4): the last lines of a log, several of which open with `[ERROR]`.
- `echo_note(note)`: the note, as given.

    python tests/servers/error_words.py [--http PORT]
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import serving
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

LOG = ["[ERROR] upstream timed out after 30 s", "[ERROR] retry 1 of 3 timed out", "[INFO] retry 2 of 3 succeeded",
       "[INFO] 14 requests served"]
FIRST_EVENT = "Error: disk full on /var/log"


def _tool(name: str, description: str, properties: dict[str, Any], *, read_only: bool = True) -> types.Tool:
    return types.Tool(name=name, description=description,
                      input_schema={"type": "object", "properties": properties, "required": list(properties),
                                    "additionalProperties": False},
                      annotations=types.ToolAnnotations(read_only_hint=read_only, destructive_hint=False))


TOOLS = [
    _tool("record_event", "Record an event in the log book; returns it with its id.", {
        "level": {"type": "string", "enum": ["info", "warning", "error"], "description": "Severity."},
        "text": {"type": "string", "description": "What happened, in the user's words."}}, read_only=False),
    _tool("event_text", "The text of one event, as it was written.", {
        "event_id": {"type": "integer", "minimum": 1, "description": "The event's id."}}),
    _tool("validate_config", "Check that a configuration is made of key=value lines; lists the problems.", {
        "config": {"type": "string", "description": "The configuration text."}}),
    _tool("job_status", "The state of a background job.", {
        "job_id": {"type": "integer", "minimum": 1, "description": "The job's id."}}),
    _tool("count_errors", "How many errors the last health check found.", {}),
    _tool("tail_log", "The last lines of the service log.", {
        "lines": {"type": "integer", "minimum": 1, "maximum": 4, "description": "How many lines."}}),
    _tool("echo_note", "Show a note back, as given.", {
        "note": {"type": "string", "description": "Any text."}}),
]


def _text(text: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def _json(value: dict[str, Any]) -> types.CallToolResult:
    return _text(json.dumps(value))


def build_server(bug: str | None = None) -> Server[Any]:
    tools = {t.name: t for t in TOOLS}
    validators = {name: jsonschema.Draft202012Validator(t.input_schema) for name, t in tools.items()}
    events: dict[int, dict[str, Any]] = {1: {"id": 1, "level": "error", "text": FIRST_EVENT}}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=TOOLS)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in tools:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        args = params.arguments or {}
        problem = jsonschema.exceptions.best_match(validators[params.name].iter_errors(args))
        if problem is not None:
            return _text(f"invalid arguments: {problem.message}", error=True)
        if params.name == "record_event":
            event = {"id": len(events) + 1, "level": args["level"], "text": args["text"]}
            events[event["id"]] = event
            return _json(event)
        if params.name == "event_text":
            if args["event_id"] not in events:
                return _text(f"no event {args['event_id']}", error=True)
            return _text(events[args["event_id"]]["text"])
        if params.name == "validate_config":
            errors = [f"line {n}: no '='" for n, line in enumerate(args["config"].splitlines(), 1)
                      if line.strip() and "=" not in line]
            return _json({"valid": not errors, "errors": errors})
        if params.name == "job_status":
            return _json({"job_id": args["job_id"], "status": "failed" if args["job_id"] % 2 else "done"})
        if params.name == "count_errors":
            return _text("Errors found: 0")
        if params.name == "tail_log":
            return _text("\n".join(LOG[:args["lines"]]))
        return _text(args["note"])

    return Server("error-words", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, (), __doc__ or "", argv)


if __name__ == "__main__":
    main()
