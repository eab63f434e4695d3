"""Hypothesis strategies from JSON Schema: valid values, invalid values, tool arguments, markers.

Our own compiler, checked against `jsonschema` (docs/architecture.md, "Own schema compiler"). Strategies are
built once per schema and cached by its canonical JSON.
"""

from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.strategies.errors import NoInvalidValues
from hypothesis_mcp.strategies.invalid import Invalid, has_invalid_values, invalid_from_schema
from hypothesis_mcp.strategies.markers import (
    PLACEHOLDER,
    find_markers,
    leading_marker,
    marked_arguments,
    marked_text,
    new_marker,
    salted_marker,
    with_marker,
)
from hypothesis_mcp.strategies.overrides import Overrides, parse_value
from hypothesis_mcp.strategies.schemas import from_schema, tool_schema
from hypothesis_mcp.strategies.tools import arguments, invalid_arguments

__all__ = [
    "PLACEHOLDER",
    "Invalid",
    "NoInvalidValues",
    "Overrides",
    "SchemaError",
    "arguments",
    "find_markers",
    "from_schema",
    "has_invalid_values",
    "invalid_arguments",
    "invalid_from_schema",
    "leading_marker",
    "marked_arguments",
    "marked_text",
    "new_marker",
    "parse_value",
    "salted_marker",
    "tool_schema",
    "with_marker",
]
