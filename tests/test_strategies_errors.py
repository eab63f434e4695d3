"""Bad schemas fail at strategy construction with a SchemaError naming tool and keyword; never a hang."""

from __future__ import annotations

import time
from typing import Any

import pytest

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.strategies import arguments, from_schema, invalid_arguments, invalid_from_schema

BAD: list[tuple[str, Any, str]] = [
    ("not-a-schema", {"type": "strin"}, "type"),
    ("wrong-keyword-type", {"type": "string", "minLength": "3"}, "minLength"),
    ("required-not-list", {"type": "object", "required": "a"}, "required"),
    ("false", False, "false"),
    ("min-above-max", {"type": "integer", "minimum": 10, "maximum": 1}, "minimum"),
    ("number-min-above-max", {"type": "number", "minimum": 10, "maximum": 1}, "maximum"),
    ("length", {"type": "string", "minLength": 5, "maxLength": 2}, "maxLength"),
    ("required-false", {"type": "object", "properties": {"a": False}, "required": ["a"]}, "required"),
    ("required-closed", {"type": "object", "required": ["a"], "additionalProperties": False}, "required"),
    ("enum-empty-after-type", {"type": "integer", "enum": ["a", "b"]}, "enum"),
    ("type-disjoint", {"allOf": [{"type": "string"}, {"type": "integer"}]}, "type"),
    ("items", {"type": "array", "items": False, "minItems": 1}, "minItems"),
    (
        "unique-domain",
        {"type": "array", "items": {"type": "boolean"}, "uniqueItems": True, "minItems": 3},
        "uniqueItems",
    ),
    ("anyOf-none", {"anyOf": [{"type": "string", "minLength": 3, "maxLength": 1}, False]}, "anyOf"),
    ("ref-missing", {"$ref": "#/$defs/nope"}, "$ref"),
    ("ref-remote", {"$ref": "https://example.com/schema.json"}, "$ref"),
    (
        "ref-cycle",
        {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
        "$ref",
    ),
    (
        "ref-infinite",
        {
            "$defs": {
                "n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}, "required": ["next"]}
            },
            "$ref": "#/$defs/n",
        },
        "$ref",
    ),
    ("pattern", {"type": "string", "pattern": "([a-z"}, "pattern"),
    ("pattern-properties", {"type": "object", "patternProperties": {"(?<": {}}}, "patternProperties"),
    ("not-json", {"type": "number", "maximum": float("nan")}, None),
]


@pytest.mark.parametrize(("name", "schema", "keyword"), BAD, ids=[b[0] for b in BAD])
def test_bad_schemas_raise_schema_error_at_construction(name: str, schema: Any, keyword: str | None) -> None:
    started = time.monotonic()
    with pytest.raises(SchemaError) as info:
        from_schema(schema)
    assert info.value.keyword == keyword, info.value
    assert time.monotonic() - started < 5


@pytest.mark.parametrize(
    ("name", "schema", "keyword"), BAD[:4] + BAD[-4:], ids=[b[0] for b in BAD[:4] + BAD[-4:]]
)
def test_invalid_strategies_reject_bad_schemas_too(name: str, schema: Any, keyword: str | None) -> None:
    with pytest.raises(SchemaError):
        invalid_from_schema(schema)


def test_tool_errors_name_the_tool() -> None:
    tool = Tool(name="broken_tool", input_schema={"type": "object", "properties": {"q": {"pattern": "(("}}})
    for build in (arguments, invalid_arguments):
        with pytest.raises(SchemaError) as info:
            build(tool)
        assert info.value.tool == "broken_tool" and info.value.keyword == "pattern"
        assert "broken_tool" in str(info.value)
