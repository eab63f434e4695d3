"""Which field of a write tells its records apart, the key the effect machine reads them by.

On an upsert API the id is often optional and left null on create: the server makes one up, and a
write that sends an id of its own asks for an update of a record that does not exist. A key must
be a field every write fills (a required one, or one the probe always gives a marked value), and
of those, one a reader takes as its required argument tells most surely which record it reads.
"""

from __future__ import annotations

from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.stateful.readers import Reader
from hypothesis_mcp.strategies.freetext import free_text


def choose_key(tool: Tool, readers: list[Reader], given: dict[str, Any], declared: list[str]) -> str | None:
    """The key path of `tool`'s records, or None when no field is filled on every write."""
    if declared:
        return declared[0]
    free = [f for f in profile(tool).key_fields if top(f) not in given]
    candidates = [f for f in free or profile(tool).key_fields if top(f) in given or filled(tool, f)]
    wanted_by_readers = {name for r in readers for name in profile(r.tool).required}
    ranked = sorted(candidates, key=lambda f: (last(f) not in wanted_by_readers, top(f) not in profile(tool).required))
    return ranked[0] if ranked else None


def filled(tool: Tool, path: str) -> bool:
    """Every probe write gives this field a value: it is required, or a top-level optional text the
    marker generator always fills (free text that does not allow null)."""
    name = top(path)
    if name in profile(tool).required:
        return True
    if "." in path or "[]" in path:
        return False
    schema = tool.properties.get(name)
    if not isinstance(schema, dict) or nullable(schema):
        return False
    return schema.get("type") == "string" and free_text(name, schema, schema.get("maxLength"))


def nullable(schema: dict[str, Any]) -> bool:
    if "default" in schema and schema["default"] is None:
        return True
    kinds = schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    branches = [*(schema.get("anyOf") or []), *(schema.get("oneOf") or [])]
    return any(isinstance(b, dict) and b.get("type") == "null" for b in branches)


def top(path: str) -> str:
    return path.split(".")[0].removesuffix("[]")


def last(path: str) -> str:
    return path.replace("[]", "").split(".")[-1]
