"""A parcel depot scanned three parcels at a time: a listing with no page size to ask for.

Tools, dotted names, in this catalog order: `parcel.lodge(recipient, grams)` (write; answers the
parcel with the `code` the depot gave it, `PD-0001`, `PD-0002`…), `parcel.track(code)` (read; one
parcel, an unknown code refused) and `parcels.scan(onward?)` (read; the parcels in the order they
were lodged, three at a time, as structuredContent `{"parcels": [...], "onward": token}`). The
token is an opaque text the depot made for the last parcel of the page; given back as `onward`, the
scan goes on after that parcel. On the last page `onward` is null. No annotations; the depot checks
arguments against the schemas itself and refuses invalid ones as an isError text.

- `onward-skips`: going on from a token, the scan starts one parcel too late: the parcel after each
  page's last is never scanned. One page is right, and `parcel.track` still finds every parcel.

    python tests/servers/parcel_depot.py [--bug onward-skips] [--http PORT]
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import jsonschema
import serving
from mcp import types
from mcp.server.lowlevel import Server

BUGS = ("onward-skips",)
PAGE = 3
CODE = {"type": "string", "pattern": "^PD-[0-9]{4}$", "description": "The code the depot gave the parcel."}
TOOLS = [
    types.Tool(
        name="parcel.lodge",
        description="Lodge a parcel at the depot for a recipient; answers the parcel with its code.",
        input_schema={"type": "object", "properties": {
            "recipient": {"type": "string", "minLength": 1, "maxLength": 120, "description": "Who it is for."},
            "grams": {"type": "integer", "minimum": 1, "maximum": 30000, "description": "Its weight."}},
            "required": ["recipient", "grams"], "additionalProperties": False},
    ),
    types.Tool(
        name="parcel.track",
        description="One parcel by its code.",
        input_schema={"type": "object", "properties": {"code": CODE}, "required": ["code"],
                      "additionalProperties": False},
    ),
    types.Tool(
        name="parcels.scan",
        description="Every parcel in the order they were lodged, three per answer; give `onward` back for the rest.",
        input_schema={"type": "object", "properties": {
            "onward": {"type": "string", "minLength": 1, "description": "The onward token of the answer before."}},
            "additionalProperties": False},
    ),
]


def _answer(payload: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(payload))],
                                structured_content=payload)


def _refused(why: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=why)], is_error=True)


def build_server(bug: str | None = None) -> Server[Any]:
    parcels: list[dict[str, Any]] = []
    tokens: dict[str, str] = {}

    def token(code: str) -> str:
        made = hashlib.sha256(f"depot:{code}".encode()).hexdigest()[:10]
        tokens[made] = code
        return made

    def serve(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        if name == "parcel.lodge":
            parcel = {"code": f"PD-{len(parcels) + 1:04d}", **arguments}
            parcels.append(parcel)
            return _answer(parcel)
        if name == "parcel.track":
            found = next((p for p in parcels if p["code"] == arguments["code"]), None)
            return _answer(found) if found is not None else _refused(f"no parcel {arguments['code']}")
        start = 0
        if "onward" in arguments:
            if arguments["onward"] not in tokens:
                return _refused(f"unknown onward token {arguments['onward']!r}")
            codes = [p["code"] for p in parcels]
            start = codes.index(tokens[arguments["onward"]]) + (2 if bug == "onward-skips" else 1)
        page = parcels[start:start + PAGE]
        onward = token(page[-1]["code"]) if page and start + PAGE < len(parcels) else None
        return _answer({"parcels": page, "onward": onward})

    def invalid(problem: jsonschema.ValidationError) -> types.CallToolResult:
        return _refused(f"{'.'.join(map(str, problem.absolute_path)) or 'arguments'}: {problem.message}")

    return serving.validated_server("parcel-depot", f"1.0.0+{bug or 'correct'}", TOOLS, serve, invalid)


def main(argv: list[str] | None = None) -> None:
    serving.main(build_server, BUGS, __doc__ or "", argv)


if __name__ == "__main__":
    main()
