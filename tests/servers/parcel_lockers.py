"""A bank of parcel lockers: a parcel holds no text at all, only its weight and a shelf number,
both bounded, stowed under a locker tag of a fixed pattern (a capital letter, then five to nine
capitals or digits). Written with the SDK's low-level server over a fixed catalogue; every answer
is one text block: `stow` answers a sentence, `locate` a JSON object under `locker`, `lockers` a
JSON object whose `occupied` list is newest first. An empty locker is an `isError` sentence.

- stow(tag, kg, shelf=1): stows a parcel, replacing the one the locker held.
- locate(tag): the locker's parcel.
- lockers(): every occupied locker, newest first.

`--bug drops-oldest`: the bank keeps only the four newest parcels; an older one is dropped without
a word when a fifth is stowed.

    python tests/servers/parcel_lockers.py [--bug drops-oldest] [--http PORT]
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
from mcp import types
from mcp.server.lowlevel import Server
from serving import main, validated_server

BUGS = ("drops-oldest",)
KEPT = 4
"""Parcels the buggy bank keeps."""
TAG = {"type": "string", "pattern": "^[A-Z][A-Z0-9]{5,9}$", "description": "The locker's tag, e.g. B20417."}

CATALOGUE = [
    types.Tool(name="stow", description="Stow a parcel in a locker; a parcel already there is replaced.",
               input_schema={"type": "object", "required": ["tag", "kg"], "additionalProperties": False,
                             "properties": {"tag": TAG,
                                            "kg": {"type": "number", "minimum": 0, "maximum": 40},
                                            "shelf": {"type": "integer", "minimum": 1, "maximum": 6,
                                                      "default": 1}}}),
    types.Tool(name="locate", description="The parcel in a locker.",
               input_schema={"type": "object", "required": ["tag"], "additionalProperties": False,
                             "properties": {"tag": TAG}},
               annotations=types.ToolAnnotations(read_only_hint=True)),
    types.Tool(name="lockers", description="Every occupied locker, newest first.",
               input_schema={"type": "object", "additionalProperties": False, "properties": {}},
               annotations=types.ToolAnnotations(read_only_hint=True)),
]


def text(value: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=value)], is_error=error)


def build_server(bug: str | None = None) -> Server[Any]:
    bank: dict[str, dict[str, Any]] = {}

    def serve(name: str, args: dict[str, Any]) -> types.CallToolResult:
        if name == "stow":
            bank.pop(args["tag"], None)
            bank[args["tag"]] = {"tag": args["tag"], "kg": args["kg"], "shelf": args.get("shelf", 1)}
            while bug == "drops-oldest" and len(bank) > KEPT:
                del bank[next(iter(bank))]
            return text(f"Parcel stowed in locker {args['tag']}.")
        if name == "locate":
            if args["tag"] not in bank:
                return text(f"Locker {args['tag']} is empty.", error=True)
            return text(json.dumps({"locker": bank[args["tag"]]}))
        return text(json.dumps({"occupied": list(reversed(bank.values()))}))

    def refuse(problem: jsonschema.ValidationError) -> types.CallToolResult:
        return text(f"Invalid arguments: {problem.message}", error=True)

    return validated_server("parcel-lockers", "1.0", CATALOGUE, serve, refuse)


if __name__ == "__main__":
    main(build_server, BUGS, __doc__ or "")
