"""Drawers of fossil trays. A tray holds a find (`{"bed": ..., "finder": ...}`, its only texts, inside
one object) and its mass in grams, under a number the collection gives (`T-1`, `T-2`…). Written with
the SDK's low-level server over a fixed catalogue; every answer is `name: value` lines (the find as
JSON on its line), the drawer one block per tray with a blank line between; a tray number that holds
nothing is an `isError` line. `shelve` takes the tray number of a tray and nothing else, is listed
before the keyed read, and is the one tool annotated (destructiveHint, no verb in its name): it is
called only with deletes allowed, and never guessed to read.

- catalogue(find, grams=0): files a tray, answers `tray: T-n`.
- shelve(tray): takes the tray out of the drawer, answers `shelved: T-n`.
- tray(tray): the tray.
- drawer(): every tray, in the order filed.

`--bug tenths`: a tray's grams are kept to one decimal place.
`--bug drawer-lags`: drawer() answers the trays as they were at the last catalogue(), so a tray
shelved since stays listed.

    python tests/servers/fossil_trays.py [--bug tenths|drawer-lags] [--http PORT]
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
from mcp import types
from mcp.server.lowlevel import Server
from serving import main, validated_server

BUGS = ("tenths", "drawer-lags")
TRAY = {"type": "string", "pattern": "^T-[0-9]{1,6}$"}
FIND = {"type": "object", "additionalProperties": False, "required": ["bed"],
        "properties": {"bed": {"type": "string", "minLength": 1, "maxLength": 120},
                       "finder": {"type": "string", "maxLength": 80}}}

CATALOGUE = [
    types.Tool(name="catalogue", description="File a tray; its number is answered.",
               input_schema={"type": "object", "required": ["find"], "additionalProperties": False,
                             "properties": {"find": FIND, "grams": {"type": "number", "minimum": 0, "default": 0}}}),
    types.Tool(name="shelve", description="Take a tray out of the drawer.",
               input_schema={"type": "object", "required": ["tray"], "additionalProperties": False,
                             "properties": {"tray": TRAY}},
               annotations=types.ToolAnnotations(destructive_hint=True)),
    types.Tool(name="tray", description="One tray.",
               input_schema={"type": "object", "required": ["tray"], "additionalProperties": False,
                             "properties": {"tray": TRAY}}),
    types.Tool(name="drawer", description="Every tray, in the order filed.",
               input_schema={"type": "object", "additionalProperties": False, "properties": {}}),
]


def text(value: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=value)], is_error=error)


def lines(tray: dict[str, Any]) -> str:
    return "\n".join(f"{name}: {value if isinstance(value, str) else json.dumps(value)}"
                     for name, value in tray.items())


def build_server(bug: str | None = None) -> Server[Any]:
    trays: dict[str, dict[str, Any]] = {}
    listed: list[dict[str, Any]] = []
    made = [0]

    def serve(name: str, args: dict[str, Any]) -> types.CallToolResult:
        if name == "catalogue":
            made[0] += 1
            number = f"T-{made[0]}"
            grams = args.get("grams", 0)
            trays[number] = {"tray": number, "find": args["find"],
                             "grams": round(grams, 1) if bug == "tenths" else grams}
            listed[:] = [dict(t) for t in trays.values()]
            return text(f"tray: {number}")
        if name == "drawer":
            shown = listed if bug == "drawer-lags" else list(trays.values())
            return text("\n\n".join(lines(t) for t in shown) or "the drawer is empty")
        if args["tray"] not in trays:
            return text(f"error: no tray {args['tray']}", error=True)
        if name == "shelve":
            del trays[args["tray"]]
            return text(f"shelved: {args['tray']}")
        return text(lines(trays[args["tray"]]))

    def refuse(problem: jsonschema.ValidationError) -> types.CallToolResult:
        return text(f"error: {problem.message}", error=True)

    return validated_server("fossil-trays", "1.0", CATALOGUE, serve, refuse)


if __name__ == "__main__":
    main(build_server, BUGS, __doc__ or "")
