"""Values known to break servers, sent as fixed calls besides the random draws.

A small budget of derandomised draws almost never holds a NUL character, a string of 10,000
characters or an integer past 2^31, yet these are what crash real servers. So every top-level
property gets each breaker its schema admits, one property changed at a time from the plainest
call (docs/strategies.md lists the set). Invalid arguments get the breakers a property's schema
rejects, a few per property.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import jsonschema.exceptions
import referencing.exceptions

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.strategies.boundary import zero_value
from hypothesis_mcp.strategies.dialect import value_validator

_TABLE: dict[str, list[Any]] = {
    "string": ["", " \t\n", "\u0000", "\u0001\u001b[31m\u007f", "\u202eabc\u200b", "e\u0301\u0301",
               "\U0001f600", "../../../../etc/passwd", "%s%n{0}${x}"],
    "integer": [0, -1, 2147483647, 2147483649, -2147483649, 9007199254740991, 9007199254740993,
                10**30, -(10**30)],
    "number": [0, -1, 0.5, 1e308, -1e308, 5e-324],
    "invalid": ["\u0000", 2147483649, -1, 1e308, 0.5, None],
}
LONG_LENGTHS = (10**3, 10**4, 10**5)
"""Long strings, each tried once per string property that admits it (within maxLength)."""
LONG_FILL = "a"
LARGE_SIZE = 10**3
"""Items of the large array, keys of the large object."""
INVALID_PER_PROPERTY = 3


@dataclass(frozen=True)
class Breaker:
    """Arguments that differ from the plainest call in one property (`name`), set to a breaker
    value; the plainest call itself has no `name`."""

    arguments: dict[str, Any]
    name: str | None


def _kinds(schema: Any) -> list[str]:
    kind = schema.get("type") if isinstance(schema, dict) else None
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list):
        return [k for k in kind if isinstance(k, str)]
    return ["string", "integer", "number", "array", "object"]


def _large_object() -> dict[str, int]:
    return {f"k{i}": i for i in range(LARGE_SIZE)}


def _values(schema: Any) -> Iterator[Any]:
    """Every breaker for the types a property's schema names, simplest first."""
    kinds = _kinds(schema)
    if "string" in kinds:
        yield from _TABLE["string"]
        yield from (LONG_FILL * n for n in LONG_LENGTHS)
    if "integer" in kinds or "number" in kinds:
        yield from _TABLE["integer"]
        if isinstance(schema, dict):
            yield from (schema[k] for k in ("minimum", "maximum") if isinstance(schema.get(k), int | float))
    if "number" in kinds:
        yield from _TABLE["number"]
    if "array" in kinds:
        items = schema.get("items") if isinstance(schema, dict) else None
        yield []
        yield [zero_value(items) if isinstance(items, dict) else 0] * LARGE_SIZE
    if "object" in kinds:
        yield {}
        yield _large_object()


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _admitted(schema: Mapping[str, Any], args: dict[str, Any]) -> bool | None:
    try:
        return bool(value_validator(schema).is_valid(args))
    except (re.error, jsonschema.exceptions.SchemaError, referencing.exceptions.Unresolvable):
        return None  # a schema the oracle cannot apply gets no breakers; lint reports it


def plain_call(tool: Tool, fixed: Mapping[str, Any]) -> dict[str, Any]:
    """The plainest call: the required properties at their zero values, the user's values kept."""
    return {**{name: zero_value(tool.properties.get(name)) for name in tool.required}, **fixed}


def _candidates(tool: Tool, fixed: Mapping[str, Any], values: Any) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    base = plain_call(tool, fixed)
    for name, prop in tool.properties.items():
        if name in fixed:
            continue
        for value in values(prop):
            if name in base and _same(base[name], value):
                continue
            yield name, value, {**base, name: value}


def valid_breakers(tool: Tool, fixed: Mapping[str, Any] | None = None) -> list[Breaker]:
    """The plainest call, then every breaker each top-level property admits, in catalog order."""
    schema = tool.input_schema or {"type": "object"}
    base = plain_call(tool, dict(fixed or {}))
    found: list[Breaker] = [Breaker(base, None)] if _admitted(schema, base) else []
    for name, value, args in _candidates(tool, dict(fixed or {}), _values):
        admitted = _admitted(schema, args)
        if admitted is None:
            return []
        if admitted and not any(b.name == name and _same(b.arguments.get(name), value) for b in found):
            found.append(Breaker(args, name))
    return found


def invalid_breakers(tool: Tool, fixed: Mapping[str, Any] | None = None) -> list[Breaker]:
    """A few breakers per property that its schema rejects (the whole call then breaks it too)."""
    schema = tool.input_schema or {"type": "object"}
    found: list[Breaker] = []
    per: dict[str, int] = {}
    for name, _, args in _candidates(tool, dict(fixed or {}), lambda _: [*_TABLE["invalid"],
                                                                         LONG_FILL * LONG_LENGTHS[1]]):
        if per.get(name, 0) >= INVALID_PER_PROPERTY:
            continue
        admitted = _admitted(schema, args)
        if admitted is None:
            return []
        if not admitted:
            per[name] = per.get(name, 0) + 1
            found.append(Breaker(args, name))
    return found


def violation(schema: Mapping[str, Any], args: dict[str, Any]) -> tuple[str, list[Any], str]:
    """The keyword, path and message of the error that makes `args` invalid."""
    error = jsonschema.exceptions.best_match(value_validator(schema).iter_errors(args))
    if error is None:
        return "", [], ""
    return str(error.validator), list(error.absolute_path), error.message
