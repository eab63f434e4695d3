"""A user's schema made ready once: checked against its metaschema, patterns compiled, cached.

Every public entry point goes through `compiler_for`, so a schema is checked and compiled once
per process however many strategies are asked of it (the cache key is its canonical JSON).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.strategies.compiler import Compiler
from hypothesis_mcp.strategies.dialect import canonical, check_schema, dialect_of
from hypothesis_mcp.strategies.ecma import pythonize
from hypothesis_mcp.strategies.normalise import Unsatisfiable
from hypothesis_mcp.strategies.regex import pattern_error

_VALUES = frozenset({"enum", "const", "default", "examples"})


def _check_patterns(schema: Any) -> None:
    if isinstance(schema, list):
        for item in schema:
            _check_patterns(item)
        return
    if not isinstance(schema, dict):
        return
    patterns = [("pattern", schema["pattern"])] if isinstance(schema.get("pattern"), str) else []
    if isinstance(schema.get("patternProperties"), dict):
        patterns += [("patternProperties", p) for p in schema["patternProperties"]]
    for keyword, pattern in patterns:
        error = pattern_error(pattern)
        if error:
            raise SchemaError(f"pattern {pattern!r} cannot be compiled: {error}", keyword=keyword)
    for key, value in schema.items():
        if key not in _VALUES:
            _check_patterns(value)


@lru_cache(maxsize=512)
def _compiler(text: str) -> Compiler:
    schema = json.loads(text)
    check_schema(schema, dialect_of(schema))
    _check_patterns(schema)
    return Compiler(pythonize(schema))


def compiler_for(schema: Any) -> Compiler:
    """The cached compiler of a schema; raises SchemaError for a schema that is not valid."""
    return _compiler(canonical(schema))


@lru_cache(maxsize=512)
def _strategy(text: str) -> st.SearchStrategy[Any]:
    compiler = _compiler(text)
    try:
        return compiler.compile(compiler.root)
    except Unsatisfiable as exc:
        raise SchemaError(f"no value satisfies the schema: {exc.message}", keyword=exc.keyword) from None


def from_schema(schema: Any) -> st.SearchStrategy[Any]:
    """Values that validate against `schema` (dialect from `$schema`, 2020-12 when absent).

    Raises SchemaError at once for a schema that is invalid, unsatisfiable, has an unresolvable
    `$ref` or a pattern Python cannot compile.
    """
    return _strategy(canonical(schema))


def tool_schema(tool: Tool) -> dict[str, Any]:
    """A tool's inputSchema as the strategies read it: missing or empty means any object."""
    schema = tool.input_schema
    if not schema:
        return {"type": "object"}
    return schema if "type" in schema or "$ref" in schema else {**schema, "type": "object"}
