"""One validator factory (strategies/dialect.py): the strategies, lint and the output checks agree
on which schemas can be used, and an output schema that cannot be used is said to be unchecked."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings

from helpers import ROOT, SERVE, grading
from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.lint import lint
from hypothesis_mcp.checks.scenarios import HAPPY_BASIS, _result
from hypothesis_mcp.checks.searches import Searches
from hypothesis_mcp.connection import Connection, parse_target
from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.strategies import from_schema
from hypothesis_mcp.strategies.dialect import schema_problem, value_validator

LETTERS = {"type": "object", "properties": {"name": {"type": "string", "pattern": "^\\p{L}+$"}}, "required": ["name"]}
BROKEN = {"type": "object", "properties": {"name": {"type": "string", "pattern": "(unclosed"}}}
PLAIN = {"type": "object", "properties": {"name": {"type": "string", "maxLength": 3}}}


def _tool(output: dict[str, Any]) -> Tool:
    return Tool.from_dict({"name": "unit_name", "description": "The name of a length unit by its symbol.",
                           "inputSchema": {"type": "object", "properties": {"symbol": {
                               "type": "string", "enum": ["m", "ft", "in"], "description": "Unit symbol."}},
                               "required": ["symbol"]},
                           "outputSchema": output, "annotations": {"readOnlyHint": True}})


def _usable_to_strategies(schema: dict[str, Any]) -> bool:
    try:
        from_schema(schema)
    except SchemaError:
        return False
    return True


@pytest.mark.parametrize(("schema", "usable"), [(LETTERS, True), (BROKEN, False), (PLAIN, True)],
                         ids=["ecma-letters", "broken-pattern", "plain"])
def test_strategies_lint_and_output_checks_agree(schema: dict[str, Any], usable: bool) -> None:
    linted = {r.rule for r in lint([_tool(schema)])}
    assert (schema_problem(schema) is None) is usable
    assert ("lint-output-schema-invalid" not in linted) is usable, linted
    assert _usable_to_strategies(schema) is usable


def test_an_ecma_pattern_judges_values_as_ecma_reads_it() -> None:
    judge = value_validator(LETTERS)
    assert judge.is_valid({"name": "métre"})
    assert not judge.is_valid({"name": "metre2"})


@given(from_schema(LETTERS))
@settings(max_examples=20, deadline=None)
def test_generated_values_pass_the_same_validator(value: Any) -> None:
    assert value_validator(LETTERS).is_valid(value)


def test_an_unusable_output_schema_is_said_to_be_unchecked() -> None:
    """The happy scenario served the calls, and its result says the output was not judged."""
    target = parse_target([*SERVE, str(ROOT / "tests/servers/verdict_bugs.py")])
    with Connection(target, timeout=30) as conn:
        tool = replace(conn.tool("unit_name"), output_schema=BROKEN)
        search = Searches(conn, grading(max_examples=3)).valid(tool)
    result = _result("happy", tool, search, HAPPY_BASIS)
    assert result.status == "pass", result
    assert "outputSchema not checked" in result.message and "is not a 'regex'" in result.message, result.message
