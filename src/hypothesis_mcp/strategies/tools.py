"""Strategies for one tool's `tools/call` arguments: valid, with the user's fixed values, or invalid."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.strategies.dialect import canonical
from hypothesis_mcp.strategies.invalid import Invalid, invalid_strategy
from hypothesis_mcp.strategies.overrides import Overrides
from hypothesis_mcp.strategies.schemas import compiler_for, from_schema, tool_schema

OverridesLike = Overrides | Mapping[str, Any] | None


def fixed_values(tool: Tool, overrides: OverridesLike) -> dict[str, Any]:
    """The user's values for this tool: an Overrides resolved for it, or a plain name -> value dict."""
    if overrides is None:
        return {}
    if isinstance(overrides, Overrides):
        return overrides.for_tool(tool)
    return dict(overrides)


def with_tool(tool: Tool, exc: SchemaError) -> SchemaError:
    """The same error, naming the tool it came from."""
    error = type(exc)(exc.message, tool=tool.name, keyword=exc.keyword)
    error.__cause__ = exc
    return error


def _constrained(schema: dict[str, Any], fixed: Mapping[str, Any],
                 choices: Mapping[str, list[Any]] | None = None) -> dict[str, Any]:
    """The schema plus "these properties are present with exactly these values" (or one of these)."""
    allowed = {**{n: list(vs) for n, vs in (choices or {}).items()}, **{n: [v] for n, v in fixed.items()}}
    constraint = {"properties": {n: {"enum": vs} for n, vs in allowed.items()}, "required": list(allowed)}
    compiler = compiler_for(schema)
    if "$ref" in schema and compiler.dialect.legacy_ref:
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        return {**rest, "allOf": [{"$ref": schema["$ref"]}, constraint]}
    return {**schema, "allOf": [*schema.get("allOf", []), constraint]}


@lru_cache(maxsize=1024)
def _arguments(schema_text: str, fixed_text: str) -> st.SearchStrategy[dict[str, Any]]:
    schema, fixed = json.loads(schema_text), json.loads(fixed_text)
    if not fixed:
        return from_schema(schema)
    compiler = compiler_for(schema)
    root = compiler.normalise(compiler.root)
    if all(compiler.check(root.schema_for(name))(value) for name, value in fixed.items()):
        try:
            return from_schema(_constrained(schema, fixed))
        except SchemaError:
            pass
    # The user's values break the schema (or each other): send them anyway, the user wins.
    return from_schema(schema).map(lambda args: {**args, **fixed})


def chosen_arguments(tool: Tool, choices: Mapping[str, list[Any]],
                     overrides: OverridesLike = None) -> st.SearchStrategy[dict[str, Any]]:
    """Valid arguments whose named parameters each carry one of the values given for them (values
    the server printed or named), the user's fixed values kept. A value its parameter's schema
    forbids is left out; a parameter left with none is generated as usual."""
    try:
        schema, fixed = tool_schema(tool), fixed_values(tool, overrides)
        compiler = compiler_for(schema)
        root = compiler.normalise(compiler.root)
        kept = {}
        for name, values in choices.items():
            if name in fixed:
                continue
            check = compiler.check(root.schema_for(name))
            if allowed := [v for v in values if check(v)]:
                kept[name] = allowed
        if not kept:
            return arguments(tool, overrides)
        return from_schema(_constrained(schema, fixed, kept))
    except SchemaError as exc:
        raise with_tool(tool, exc) from exc


def arguments(tool: Tool, overrides: OverridesLike = None) -> st.SearchStrategy[dict[str, Any]]:
    """Valid arguments for `tool`; overridden parameters always carry the user's value.

    Every drawn object validates against the inputSchema, unless a user-given value itself does
    not: then it is sent as given and the rest is still generated (the user wins).
    """
    try:
        return _arguments(canonical(tool_schema(tool)), canonical(fixed_values(tool, overrides)))
    except SchemaError as exc:
        raise with_tool(tool, exc) from exc


@lru_cache(maxsize=1024)
def _invalid_arguments(schema_text: str, fixed_text: str, name: str) -> st.SearchStrategy[Invalid]:
    schema = json.loads(schema_text)
    valid = _arguments(schema_text, fixed_text)
    base = valid.filter(lambda v: isinstance(v, dict)) if json.loads(fixed_text) else None
    return invalid_strategy(schema, objects_only=True, base=base, tool=name)


def invalid_arguments(tool: Tool, overrides: OverridesLike = None) -> st.SearchStrategy[Invalid]:
    """Argument objects the inputSchema rejects, each with one fault planted inside the object.

    The value is always an object (tools/call arguments are one): a property of the wrong type,
    a required one missing, an extra one where none are allowed, a value out of range, ...
    With overrides, the rest of the object carries the user's values. Raises NoInvalidValues
    for a tool that accepts any object.
    """
    try:
        return _invalid_arguments(canonical(tool_schema(tool)), canonical(fixed_values(tool, overrides)), tool.name)
    except SchemaError as exc:
        raise with_tool(tool, exc) from exc
