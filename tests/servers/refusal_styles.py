"""A seed nursery whose every refusal takes one style, the same on every tool.

Tools: `sow(bed, variety)` (write; sows a variety in a bed, replacing what was there, and answers
the bed), `bed(bed)` (read; one bed, a bed never sown is refused) and `beds()` (read; every sown
bed). The server checks arguments against the schemas itself, so schema-invalid arguments get the
same refusal as a bed never sown. Successes are JSON texts without a verdict (`{"bed": "A1",
"variety": "kale"}`, `{"beds": [...]}`). Without `--bug` the server is the correct twin: every
refusal is an `isError: true` result. Each bug keeps isError false on every refusal, by design:

- verdict: the text `{"verdict": "refused", "why": "..."}`, a member no fixed rule reads as a
  failure: the answers to invalid arguments show it is one.
- success-false: the text `{"success": false, "reason": "..."}`.

    python tests/servers/refusal_styles.py [--bug NAME] [--http PORT]
"""

from __future__ import annotations

import json
from typing import Any

import serving
from mcp import types
from mcp.server.lowlevel import Server

BUGS = ("verdict", "success-false")
BED = {"type": "string", "pattern": "^[A-H][1-9]$", "description": "A bed: a row letter A-H and a number 1-9."}
TOOLS = [
    types.Tool(
        name="sow",
        description="Sow a variety in a bed, replacing what grew there; answers the bed.",
        input_schema={"type": "object", "properties": {
            "bed": BED, "variety": {"type": "string", "minLength": 1, "maxLength": 30,
                                    "description": "What to sow."}},
            "required": ["bed", "variety"], "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False),
    ),
    types.Tool(
        name="bed",
        description="What grows in one bed; a bed never sown is refused.",
        input_schema={"type": "object", "properties": {"bed": BED}, "required": ["bed"],
                      "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
    types.Tool(
        name="beds",
        description="Every bed sown so far, in the order they were first sown.",
        input_schema={"type": "object", "properties": {}, "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
]


def _text(text: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def build_server(bug: str | None = None) -> Server[Any]:
    sown: dict[str, str] = {}

    def refuse(why: str) -> types.CallToolResult:
        if bug == "verdict":
            return _text(json.dumps({"verdict": "refused", "why": why}))
        if bug == "success-false":
            return _text(json.dumps({"success": False, "reason": why}))
        return _text(why, error=True)

    def serve(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        if name == "sow":
            sown[arguments["bed"]] = arguments["variety"]
            return _text(json.dumps({"bed": arguments["bed"], "variety": arguments["variety"]}))
        if name == "bed":
            found = sown.get(arguments["bed"])
            if found is None:
                return refuse(f"bed {arguments['bed']} was never sown")
            return _text(json.dumps({"bed": arguments["bed"], "variety": found}))
        return _text(json.dumps({"beds": [{"bed": b, "variety": v} for b, v in sown.items()]}))

    return serving.validated_server("refusal-styles", f"1.0.0+{bug or 'isError'}", TOOLS, serve,
                                    lambda problem: refuse(f"cannot do that: {problem.message}"))


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, BUGS, __doc__ or "", argv)


if __name__ == "__main__":
    main()
