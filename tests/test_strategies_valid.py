"""Valid values: every draw validates, for every keyword the compiler claims to cover."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st

from hypothesis_mcp.strategies import from_schema
from schemas.keywords import KEYWORDS, TREE
from strategies_oracle import oracle, strict_format_errors

FAST = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
MINIMAL = settings(database=None, phases=[Phase.generate, Phase.shrink], max_examples=200, deadline=None)


@pytest.mark.parametrize(("name", "schema"), KEYWORDS, ids=[k for k, _ in KEYWORDS])
def test_every_value_validates(name: str, schema: Any) -> None:
    check = oracle(schema)

    @FAST
    @given(from_schema(schema))
    def run(value: Any) -> None:
        json.dumps(value, allow_nan=False)
        errors = [e.message for e in check.iter_errors(value)] + strict_format_errors(schema, value)
        assert not errors, f"{value!r}: {errors}"

    run()


def test_strategies_are_cached_by_canonical_json() -> None:
    schema = {"type": "object", "properties": {"b": {"type": "integer"}, "a": {"type": "string"}}}
    reordered = {"properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "type": "object"}
    assert from_schema(schema) is from_schema(copy.deepcopy(reordered))


def minimal(schema: Any, condition: Any = lambda _: True) -> Any:
    return find(from_schema(schema), condition, settings=MINIMAL)


def test_optional_properties_shrink_away() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "tags": {"type": "array"}, "age": {"type": "integer"}},
        "required": ["name"],
    }
    assert minimal(schema) == {"name": ""}


def test_strings_shrink_short_and_lists_empty() -> None:
    assert len(minimal({"type": "string", "minLength": 3})) == 3
    assert minimal({"type": "array", "items": {"type": "integer"}}) == []
    assert minimal({"type": ["string", "null"]}) is None


def test_defaults_and_examples_come_first() -> None:
    schema = dict(KEYWORDS)["default-examples"]
    assert minimal(schema) == {"limit": 10}
    assert minimal(schema, lambda v: "mode" in v)["mode"] == "slow"


def test_invalid_defaults_are_not_used() -> None:
    schema = {"type": "integer", "minimum": 5, "default": 1, "examples": [2, 3]}
    assert minimal(schema) == 5


def test_recursion_is_bounded() -> None:
    def depth(node: Any) -> int:
        return 1 + max((depth(c) for c in node.get("children", [])), default=0)

    @settings(max_examples=100, deadline=None, database=None)
    @given(from_schema(TREE))
    def run(value: Any) -> None:
        assert depth(value) <= 10

    run()


def test_enum_values_are_drawn_as_given() -> None:
    seen: set[str] = set()

    @settings(max_examples=100, deadline=None, database=None, derandomize=True)
    @given(from_schema({"enum": ["a", "b", "c"]}))
    def run(value: str) -> None:
        seen.add(value)

    run()
    assert seen == {"a", "b", "c"}


def test_decimal_multiples_look_decimal() -> None:
    @settings(max_examples=100, deadline=None, database=None)
    @given(from_schema({"type": "number", "multipleOf": 0.01, "minimum": 0, "maximum": 5}))
    def run(value: float) -> None:
        assert len(repr(value).split(".")[-1]) <= 2 or isinstance(value, int)

    run()


@pytest.mark.parametrize("pattern", ["^\\d{3}$", "^[\\w.-]+$", "^\\S+\\s\\S+$", "^\\D+$"])
def test_patterns_match_in_both_regex_flavours(pattern: str) -> None:
    """`\\d` and `\\w` are drawn from ASCII so an ECMA-262 engine (a JS server) accepts them too."""
    import re

    @settings(max_examples=80, deadline=None, database=None)
    @given(from_schema({"type": "string", "pattern": pattern}))
    def run(value: str) -> None:
        assert re.search(pattern, value) and re.search(pattern, value, re.ASCII)

    run()


def test_ecma_only_patterns_are_translated() -> None:
    """Named groups in ECMA spelling and `\\p{L}` do not compile in Python as written."""
    import re

    @settings(max_examples=50, deadline=None, database=None)
    @given(
        from_schema({"type": "string", "pattern": "^(?<year>\\d{4})-\\k<year>$"}),
        from_schema({"type": "string", "pattern": "^\\p{L}+$"}),
    )
    def run(year: str, letters: str) -> None:
        assert re.fullmatch(r"([0-9]{4})-\1", year)
        assert letters and all(c.isalpha() for c in letters)

    run()


def test_open_objects_get_extra_properties_sometimes() -> None:
    extra: list[bool] = []

    @settings(max_examples=100, deadline=None, database=None, derandomize=True)
    @given(from_schema({"type": "object", "properties": {"a": {"type": "integer"}}}))
    def run(value: dict[str, Any]) -> None:
        extra.append(bool(set(value) - {"a"}))

    run()
    assert any(extra) and not all(extra)


def test_large_schemas_draw_without_health_check_failures() -> None:
    schema = {
        "type": "object",
        "properties": {f"p{i}": {"type": ["string", "integer", "null"], "maxLength": 3} for i in range(40)},
        "required": [f"p{i}" for i in range(0, 40, 2)],
    }
    check = oracle(schema)

    @settings(max_examples=30, deadline=None, database=None)
    @given(from_schema(schema), st.data())
    def run(value: dict[str, Any], _: Any) -> None:
        assert check.is_valid(value)

    run()
