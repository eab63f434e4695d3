"""Satisfiable schemas that need more than one keyword at a time, and invalid values for whole combinators.

Each schema draws at least 20 distinct valid values (jsonschema, reading ECMA-262 patterns, is the
oracle), no invalid value validates, and every combinator keyword named for it is broken by some
invalid draw whose validation error comes from that keyword.
"""

from __future__ import annotations

import json
import sys
import time
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from jsonschema.exceptions import ValidationError

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.lint import lint
from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.strategies import Invalid, from_schema, invalid_from_schema
from hypothesis_mcp.strategies.dialect import value_validator
from hypothesis_mcp.strategies.regex import compiled, pattern_error
from strategies_oracle import oracle, strict_format_errors

DRAWS = settings(max_examples=80, deadline=None, database=None, derandomize=True)
INVALID_DRAWS = settings(
    max_examples=200, deadline=None, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)

# (id, schema, keywords some invalid draw must break)
CASES: list[tuple[str, dict[str, Any], set[str]]] = [
    ("minProperties alone", {"type": "object", "minProperties": 5}, {"minProperties"}),
    (
        "minProperties with additionalProperties",
        {"type": "object", "properties": {"a": {"type": "string"}}, "minProperties": 4,
         "additionalProperties": {"type": "integer"}},
        {"minProperties"},
    ),
    (
        "minProperties with patternProperties only",
        {"type": "object", "minProperties": 5, "patternProperties": {"^x_": {"type": "string"}},
         "additionalProperties": False},
        {"minProperties", "additionalProperties"},
    ),
    (
        "minProperties with propertyNames and maxProperties",
        {"type": "object", "minProperties": 4, "maxProperties": 6,
         "propertyNames": {"pattern": "^[a-c]+$", "maxLength": 3}},
        {"minProperties", "maxProperties", "propertyNames"},
    ),
    ("format date with a pattern", {"type": "string", "format": "date", "pattern": "^2024-"}, {"pattern", "format"}),
    ("format email with a pattern", {"type": "string", "format": "email", "pattern": "@example\\.com$"}, {"pattern"}),
    (
        "format uri with a pattern and maxLength",
        {"type": "string", "format": "uri", "pattern": "^https://", "maxLength": 40},
        {"pattern", "maxLength"},
    ),
    (
        "prefixItems, contains and unevaluatedItems false",
        {"type": "array", "prefixItems": [{"type": "integer"}], "contains": {"type": "string"},
         "unevaluatedItems": False},
        {"contains"},
    ),
    (
        "unevaluatedProperties with if/then/else",
        {"type": "object", "properties": {"kind": {"enum": ["a", "b"]}}, "required": ["kind"],
         "if": {"properties": {"kind": {"const": "a"}}},
         "then": {"properties": {"x": {"type": "integer"}}, "required": ["x"]},
         "else": {"properties": {"y": {"type": "string"}}},
         "unevaluatedProperties": False},
        {"unevaluatedProperties", "then"},
    ),
    ("\\p{Lu}\\p{Ll}+", {"type": "string", "pattern": "^\\p{Lu}\\p{Ll}+$"}, {"pattern"}),
    ("[\\p{L}\\p{N}_-]+", {"type": "string", "pattern": "^[\\p{L}\\p{N}_-]+$"}, {"pattern"}),
    ("\\P{L} and gc=Nd", {"type": "string", "pattern": "^\\P{L}\\p{gc=Nd}{2,}$"}, {"pattern"}),
    (
        "\\p{..} in patternProperties",
        {"type": "object", "patternProperties": {"^\\p{Lu}": {"type": "integer"}}, "additionalProperties": False,
         "minProperties": 1},
        {"additionalProperties", "minProperties"},
    ),
    (
        "if/then/else",
        {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {"type": "null"}},
         "if": {"properties": {"a": {"minimum": 10}}, "required": ["a"]},
         "then": {"required": ["b"]}, "else": {"required": ["c"]}},
        {"then", "else"},
    ),
    (
        "dependentSchemas",
        {"type": "object", "properties": {"card": {"type": "string"}, "billing": {"type": "string"}},
         "dependentSchemas": {"card": {"required": ["billing"]}}},
        {"dependentSchemas"},
    ),
    (
        "oneOf with overlapping branches",
        {"type": "integer", "oneOf": [{"minimum": 0}, {"maximum": 10}]},
        {"oneOf"},
    ),
    ("anyOf", {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "integer"}]}, {"anyOf"}),
    (
        "minContains and maxContains",
        {"type": "array", "contains": {"type": "integer"}, "minContains": 2, "maxContains": 3},
        {"minContains", "maxContains"},
    ),
]
IDS = [c[0] for c in CASES]
ASSIGNED = {"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf"}
ASSIGNED |= {"Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co"}


def _comes_from(errors: list[ValidationError], keyword: str) -> bool:
    """Whether some error (or an error under one) is the keyword's own or was reached through it."""
    return any(
        e.validator == keyword or keyword in e.relative_schema_path or _comes_from(list(e.context or ()), keyword)
        for e in errors
    )


@pytest.mark.parametrize(("name", "schema", "keywords"), CASES, ids=IDS)
def test_valid_draws_validate_and_vary(name: str, schema: dict[str, Any], keywords: set[str]) -> None:
    check = oracle(schema)
    seen: set[str] = set()

    @DRAWS
    @given(from_schema(schema))
    def run(value: Any) -> None:
        errors = [e.message for e in check.iter_errors(value)] + strict_format_errors(schema, value)
        assert not errors, f"{value!r}: {errors}"
        seen.add(json.dumps(value, sort_keys=True))

    run()
    assert len(seen) >= 20, f"only {len(seen)} distinct values"


@pytest.mark.parametrize(("name", "schema", "keywords"), CASES, ids=IDS)
def test_invalid_draws_break_each_keyword(name: str, schema: dict[str, Any], keywords: set[str]) -> None:
    check = oracle(schema)
    broken: set[str] = set()

    @INVALID_DRAWS
    @given(invalid_from_schema(schema))
    def run(found: Invalid) -> None:
        errors = list(check.iter_errors(found.value))
        assert errors, f"{found} validates"
        if found.keyword in keywords and _comes_from(errors, found.keyword):
            broken.add(found.keyword)

    run()
    assert broken == keywords


def test_draws_are_deterministic_under_derandomize() -> None:
    schema = {"type": "object", "minProperties": 3, "properties": {"d": {"format": "date", "pattern": "^2024-"}}}

    def draws() -> list[Any]:
        out: list[Any] = []

        @settings(max_examples=30, database=None, derandomize=True)
        @given(from_schema(schema))
        def run(value: Any) -> None:
            out.append(value)

        run()
        return out

    assert draws() == draws()


@pytest.mark.parametrize(
    ("schema", "keyword", "words"),
    [
        ({"type": "string", "format": "date", "pattern": "^[a-z]+$"}, "pattern", ["pattern", "format", "date"]),
        ({"type": "string", "format": "email", "pattern": "^\\d+$"}, "pattern", ["pattern", "format", "email"]),
        ({"type": "string", "format": "ipv4", "pattern": "^2024-"}, "pattern", ["pattern", "format", "ipv4"]),
        ({"type": "string", "format": "uuid", "maxLength": 10}, "maxLength", ["format", "uuid", "maxLength"]),
        ({"type": "string", "pattern": "^[a-z]{10}$", "maxLength": 5}, "maxLength", ["pattern", "maxLength"]),
        ({"type": "string", "pattern": "^[a-z]{2,3}$", "minLength": 6}, "minLength", ["pattern", "minLength"]),
    ],
)
def test_contradictions_are_schema_errors_at_once(schema: dict[str, Any], keyword: str, words: list[str]) -> None:
    start = time.perf_counter()
    with pytest.raises(SchemaError) as info:
        from_schema(schema)
    assert time.perf_counter() - start < 1.0
    assert info.value.keyword == keyword
    assert all(w in str(info.value) for w in words)


@pytest.mark.parametrize(
    ("written", "categories"),
    [
        ("Lu", {"Lu"}),
        ("Uppercase_Letter", {"Lu"}),
        ("L", {"Lu", "Ll", "Lt", "Lm", "Lo"}),
        ("gc=Nd", {"Nd"}),
        ("General_Category=Punctuation", {"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"}),
        ("LC", {"Lu", "Ll", "Lt"}),
        ("Assigned", ASSIGNED),
    ],
)
def test_property_escapes_match_unicodedata(written: str, categories: set[str]) -> None:
    """The oracle's reading of \\p{..} and \\P{..}, against unicodedata itself, on every 3rd code point."""
    inside, outside = compiled(f"^\\p{{{written}}}$"), compiled(f"^[^\\P{{{written}}}x]$")
    negated = compiled(f"^\\P{{{written}}}$")
    for cp in range(0, sys.maxunicode + 1, 3):
        char = chr(cp)
        expected = unicodedata.category(char) in categories
        assert bool(inside.match(char)) is expected, hex(cp)
        assert bool(negated.match(char)) is not expected, hex(cp)
        assert bool(outside.match(char)) is (expected and char != "x"), hex(cp)


def test_properties_unicodedata_cannot_serve_are_refused_by_name() -> None:
    assert "Script" in (pattern_error("^\\p{Script=Greek}+$") or "")
    with pytest.raises(SchemaError) as info:
        from_schema({"type": "string", "pattern": "^\\p{sc=Latin}+$"})
    assert info.value.keyword == "pattern" and "sc" in str(info.value)


def test_project_validators_read_property_escapes() -> None:
    """Output-schema checks judge \\p{..} patterns, and lint does not call them broken."""
    schema = {"type": "object", "properties": {"name": {"type": "string", "pattern": "^\\p{Lu}\\p{Ll}+$"}}}
    check = value_validator(schema)
    assert check.is_valid({"name": "Émile"})
    errors = list(check.iter_errors({"name": "émile"}))
    assert [e.validator for e in errors] == ["pattern"] and "\\p{Lu}" in errors[0].message
    tool = Tool.from_dict({"name": "greet", "description": "Greets a person by a capitalised name.",
                           "inputSchema": schema, "annotations": {"readOnlyHint": True}})
    assert not [r for r in lint([tool]) if r.rule.endswith("schema-invalid")]

