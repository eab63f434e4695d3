"""Fixed argument sets tried before generated ones: the values a single hand-written call would
use, and each edge of the schema a random draw can easily miss (every enum value, both ends of a
numeric range), so a failure hiding behind one of them is always met."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import jsonschema.exceptions
import referencing.exceptions

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.strategies.dialect import validator


def zero_value(schema: Any) -> Any:
    """default, const, the first example, the first enum value, then a zero of the type."""
    if not isinstance(schema, dict):
        return None
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return schema["examples"][0]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) and kind else kind
    if kind == "integer" or kind == "number":
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        if isinstance(low, int | float) and not isinstance(low, bool) and low > 0:
            return int(low) + (1 if "exclusiveMinimum" in schema and "minimum" not in schema else 0)
        return 0
    return (
        {"string": "", "boolean": False, "array": [], "object": {}, "null": None}.get(kind)
        if isinstance(kind, str)
        else None
    )


def _edges(schema: Any) -> list[Any]:
    if not isinstance(schema, dict):
        return []
    values: list[Any] = list(schema["enum"]) if isinstance(schema.get("enum"), list) else []
    for key in ("minimum", "maximum"):
        bound = schema.get(key)
        if isinstance(bound, int | float) and not isinstance(bound, bool):
            values.append(bound)
    return values


def boundary_arguments(tool: Tool, fixed: Mapping[str, Any] | None = None, limit: int = 12) -> list[dict[str, Any]]:
    """Schema-valid argument sets: the zero call, then one edge value changed at a time."""
    schema = tool.input_schema or {"type": "object"}
    fixed = dict(fixed or {})
    base = {name: zero_value(tool.properties.get(name)) for name in tool.required}
    base.update(fixed)
    found = [base]
    for name, prop in tool.properties.items():
        if name in fixed:
            continue
        for value in _edges(prop):
            found.append({**base, name: value})
    check = validator(schema)
    unique: list[dict[str, Any]] = []
    for args in found:
        try:
            valid = check.is_valid(args)
        except (re.error, jsonschema.exceptions.SchemaError, jsonschema.exceptions.UnknownType,
                referencing.exceptions.Unresolvable):
            return []  # a schema the oracle cannot apply gets no fixed examples; lint reports it
        if valid and args not in unique:
            unique.append(args)
    return unique[:limit]
