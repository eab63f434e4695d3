"""Breaker values and the minimising of failing calls, checked against the jsonschema oracle."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.minimise import drop_keys, narrow
from hypothesis_mcp.strategies.breakers import invalid_breakers, plain_call, valid_breakers
from schemas.keywords import KEYWORDS
from strategies_oracle import oracle

KNOWN_STRINGS = ["", " \t\n", "\x00", "\u202eabc\u200b", "e\u0301\u0301", "\U0001f600", "../../../../etc/passwd",
                 "a" * 1000, "a" * 10_000, "a" * 100_000]
KNOWN_INTEGERS = [-1, 2**31 - 1, 2**31 + 1, -(2**31 + 1), 2**53 - 1, 2**53 + 1, 10**30, -(10**30)]


def tool(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> Tool:
    schema = {"type": "object", "properties": properties, "required": required or [], **extra}
    return Tool(name="t", input_schema=schema)


def sent(breakers: list[Any], name: str) -> list[Any]:
    return [b.arguments[name] for b in breakers if name in b.arguments]


def test_an_open_string_and_integer_get_every_known_breaker() -> None:
    found = valid_breakers(tool({"text": {"type": "string"}, "n": {"type": "integer"}}, ["text"]))
    assert all(v in sent(found, "text") for v in KNOWN_STRINGS if v != "")  # "" is the plain call itself
    assert all(v in sent(found, "n") for v in KNOWN_INTEGERS)
    assert all(b.arguments.get("text", "") == "" or b.name == "text" for b in found)  # one change at a time


def test_breakers_stay_inside_the_schema() -> None:
    found = valid_breakers(tool({"s": {"type": "string", "maxLength": 5000},
                                 "n": {"type": "integer", "minimum": 0, "maximum": 2**40}}))
    assert max(len(v) for v in sent(found, "s")) == 1000
    assert min(sent(found, "n")) == 0 and max(sent(found, "n")) == 2**40
    assert 2**31 + 1 in sent(found, "n") and 2**53 + 1 not in sent(found, "n")


def test_every_keyword_schema_gets_valid_and_invalid_breakers_the_oracle_agrees_with() -> None:
    for name, schema in KEYWORDS:
        if not isinstance(schema, dict) or "$ref" in json.dumps(schema):
            continue  # a property cannot carry a reference to its own root
        for required in ([], ["value"]):
            case = tool({"value": schema}, required)
            check = oracle(case.input_schema)
            for breaker in valid_breakers(case):
                assert check.is_valid(breaker.arguments), (name, breaker)
            for breaker in invalid_breakers(case):
                assert not check.is_valid(breaker.arguments), (name, breaker)


_property = st.one_of(
    st.fixed_dictionaries({"type": st.just("string")}, optional={
        "minLength": st.integers(0, 20), "maxLength": st.integers(0, 200_000),
        "pattern": st.sampled_from(["^a*$", "\\S"]),
    }),
    st.fixed_dictionaries({"type": st.sampled_from(["integer", "number"])}, optional={
        "minimum": st.integers(-(2**60), 2**60), "maximum": st.integers(-(2**60), 2**60),
        "exclusiveMaximum": st.floats(-1e300, 1e300), "multipleOf": st.sampled_from([2, 0.5, 7]),
    }),
    st.fixed_dictionaries({"type": st.just("array")}, optional={
        "items": st.just({"type": "integer", "minimum": 3}), "maxItems": st.integers(0, 2000),
        "uniqueItems": st.booleans(),
    }),
    st.fixed_dictionaries({"type": st.just("object")}, optional={
        "additionalProperties": st.booleans(), "maxProperties": st.integers(0, 2000),
    }),
    st.fixed_dictionaries({"enum": st.lists(st.one_of(st.integers(), st.text(max_size=3)), min_size=1, max_size=3)}),
)


@settings(max_examples=150, deadline=None, database=None)
@given(st.dictionaries(st.sampled_from(["a", "b", "c"]), _property, min_size=1), st.data())
def test_generated_schemas_get_breakers_the_oracle_agrees_with(properties: dict[str, Any], data: st.DataObject) -> None:
    required = data.draw(st.lists(st.sampled_from(sorted(properties)), unique=True))
    case = tool(properties, required)
    check = oracle(case.input_schema)
    valid = valid_breakers(case)
    assert valid == valid_breakers(case)  # deterministic
    for breaker in valid:
        assert check.is_valid(breaker.arguments), breaker
        assert {k for k, v in breaker.arguments.items() if v != plain_call(case, {}).get(k, object())} <= {breaker.name}
    for breaker in invalid_breakers(case):
        assert not check.is_valid(breaker.arguments), breaker


def test_drop_keys_removes_what_the_failure_does_not_need() -> None:
    args = {"id": -1, "extra": {"deep": 1, "x": 2}, "noise": "zz"}
    assert drop_keys(args, lambda a: a.get("id", 0) < 0) == {"id": -1}
    nested = {"q": {"keep": 1, "drop": 2}}
    assert drop_keys(nested, lambda a: a.get("q", {}).get("keep") == 1) == {"q": {"keep": 1}}
    assert drop_keys(args, lambda a: True, keep=frozenset({"id"})) == {"id": -1}


@pytest.mark.parametrize(("value", "passed", "limit", "expected"), [
    ("a" * 10_000, ["a" * 1000], 1500, "a" * 1501),
    (2**31 + 1, [2**31 - 1], 2**31 - 1, 2**31),
    (-(2**31 + 1), [-1], 2**31, -(2**31 + 1)),
    (-1, [], 0, -1),
])
def test_narrow_finds_the_smallest_failing_size(value: Any, passed: list[Any], limit: int, expected: Any) -> None:
    calls: list[Any] = []

    def fails(args: dict[str, Any]) -> bool:
        calls.append(args["v"])
        size = len(args["v"]) if isinstance(args["v"], str) else abs(args["v"])
        return size > limit

    assert narrow({"v": value}, "v", passed, fails) == {"v": expected}
    assert len(calls) <= 40
