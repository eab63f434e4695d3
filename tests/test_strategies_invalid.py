"""Invalid values: every draw fails validation, is labelled, and every mutation kind is reached."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import Phase, given, settings

from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.strategies import (
    Invalid,
    NoInvalidValues,
    has_invalid_values,
    invalid_from_schema,
)
from schemas.keywords import EVERY_KIND, EVERYTHING, KEYWORDS
from strategies_oracle import oracle

ACCEPTS_EVERYTHING = [
    True,
    {},
    {"type": ["null", "boolean", "number", "string", "array", "object"]},
    {"description": "anything", "default": 3},
    {"anyOf": [{"type": "string"}, {}]},
    {"not": False},
    {"allOf": [True, {}]},
]
INVALIDABLE = [(k, s) for k, s in KEYWORDS if s not in ACCEPTS_EVERYTHING]


@pytest.mark.parametrize(("name", "schema"), INVALIDABLE, ids=[k for k, _ in INVALIDABLE])
def test_every_invalid_value_fails(name: str, schema: Any) -> None:
    check = oracle(schema)

    @settings(max_examples=40, deadline=None, database=None)
    @given(invalid_from_schema(schema))
    def run(found: Invalid) -> None:
        errors = list(check.iter_errors(found.value))
        assert errors, f"{found} validates"
        assert found.keyword and found.description

    run()


@pytest.mark.parametrize("schema", ACCEPTS_EVERYTHING)
def test_schemas_that_accept_everything_have_no_invalid_values(schema: Any) -> None:
    assert not has_invalid_values(schema)
    with pytest.raises(NoInvalidValues) as info:
        invalid_from_schema(schema)
    assert isinstance(info.value, SchemaError)


def test_object_schemas_without_object_level_faults() -> None:
    """Any object is fine, so only non-objects are invalid: none when the value must stay an object."""
    assert has_invalid_values({"type": "object"})
    assert not has_invalid_values({"type": "object"}, objects_only=True)
    assert has_invalid_values({"type": "object", "additionalProperties": False}, objects_only=True)


class _AllSeen(Exception):
    pass


def test_every_mutation_kind_is_reached() -> None:
    """Every kind of fault is drawn, each a dict the oracle rejects, within 3000 draws.

    The run stops as soon as every kind has been seen rather than counting over a fixed number of
    examples: Hypothesis mixes constants from the imported local modules into its draws, so which
    kinds a fixed run meets depends on what else the test process has imported.
    """
    check = oracle(EVERYTHING)
    seen: set[str] = set()

    @settings(max_examples=3000, deadline=None, database=None, phases=[Phase.generate])
    @given(invalid_from_schema(EVERYTHING, objects_only=True))
    def run(found: Invalid) -> None:
        assert isinstance(found.value, dict)
        assert not check.is_valid(found.value)
        seen.add(found.keyword)
        if seen >= EVERY_KIND:
            raise _AllSeen

    with contextlib.suppress(_AllSeen):
        run()
    assert seen >= EVERY_KIND, f"never reached: {EVERY_KIND - seen}"


def test_labels_name_keyword_and_path() -> None:
    schema = {
        "type": "object",
        "properties": {"limit": {"type": "integer", "maximum": 100}},
        "required": ["limit"],
        "additionalProperties": False,
    }
    found: list[Invalid] = []

    @settings(max_examples=200, deadline=None, database=None, derandomize=True)
    @given(invalid_from_schema(schema, objects_only=True))
    def run(invalid: Invalid) -> None:
        found.append(invalid)

    run()
    by_keyword = {i.keyword: i for i in found}
    assert by_keyword["maximum"].path == ("limit",) and by_keyword["maximum"].pointer == "/limit"
    assert by_keyword["maximum"].value["limit"] > 100
    assert "limit" not in by_keyword["required"].value
    assert by_keyword["type"].path == ("limit",)
    assert by_keyword["additionalProperties"].path == ()


def test_draft07_keyword_names_follow_the_dialect() -> None:
    schema = dict(KEYWORDS)["dependencies-07"]
    keywords: set[str] = set()

    @settings(max_examples=200, deadline=None, database=None, derandomize=True)
    @given(invalid_from_schema(schema, objects_only=True))
    def run(invalid: Invalid) -> None:
        keywords.add(invalid.keyword)

    run()
    assert "dependencies" in keywords and "dependentRequired" not in keywords


def test_nested_faults_go_deep() -> None:
    schema = dict(KEYWORDS)["nested-tool"]
    paths: set[tuple[Any, ...]] = set()

    @settings(max_examples=250, deadline=None, database=None, derandomize=True)
    @given(invalid_from_schema(schema, objects_only=True))
    def run(invalid: Invalid) -> None:
        paths.add(invalid.path)

    run()
    assert ("entities", 0, "name") in paths and ("entities", 0, "observations", 0) in paths
