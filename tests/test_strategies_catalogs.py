"""The recorded catalogs of real servers: every generated value agrees with the jsonschema oracle.

Reads tests/data/catalogs/*.json (recorded with `hypothesis-mcp tools --json`). For local work on
other recordings, HYPOTHESIS_MCP_CATALOGS may name a glob instead.
"""

from __future__ import annotations

import glob
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from hypothesis_mcp.catalog import Tool, load_catalog
from hypothesis_mcp.strategies import (
    Invalid,
    NoInvalidValues,
    arguments,
    from_schema,
    has_invalid_values,
    invalid_arguments,
    invalid_from_schema,
    tool_schema,
)
from strategies_oracle import oracle

ROOT = Path(__file__).resolve().parents[1]
PATTERN = os.environ.get("HYPOTHESIS_MCP_CATALOGS", str(ROOT / "tests" / "data" / "catalogs" / "*.json"))
CATALOGS = sorted(Path(p) for p in glob.glob(PATTERN))
EACH = settings(
    max_examples=8,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def tools_of(path: Path) -> list[Tool]:
    text = path.read_text(encoding="utf-8")
    if not text.strip():
        pytest.skip(f"{path.name} is not recorded yet")
    return load_catalog(json.loads(text))


def check_valid(schema: Any, strategy: Any) -> None:
    check = oracle(schema)

    @EACH
    @given(strategy)
    def run(value: Any) -> None:
        errors = [e.message for e in check.iter_errors(value)]
        assert not errors, f"{value!r}: {errors}"

    run()


def check_invalid(schema: Any, strategy: Any, *, as_object: bool) -> None:
    check = oracle(schema)

    @EACH
    @given(strategy)
    def run(found: Invalid) -> None:
        assert not check.is_valid(found.value), f"{found} validates"
        assert not as_object or isinstance(found.value, dict)

    run()


def test_catalogs_are_present() -> None:
    assert CATALOGS, f"no catalog matches {PATTERN}"


@pytest.mark.parametrize("path", CATALOGS, ids=[p.stem for p in CATALOGS])
def test_valid_values_validate(path: Path) -> None:
    for tool in tools_of(path):
        check_valid(tool_schema(tool), arguments(tool))
        if tool.output_schema is not None:
            check_valid(tool.output_schema, from_schema(tool.output_schema))


@pytest.mark.parametrize("path", CATALOGS, ids=[p.stem for p in CATALOGS])
def test_invalid_values_fail(path: Path) -> None:
    for tool in tools_of(path):
        schemas = [tool_schema(tool)] + ([tool.output_schema] if tool.output_schema is not None else [])
        for schema in schemas:
            if has_invalid_values(schema):
                check_invalid(schema, invalid_from_schema(schema), as_object=False)
        try:
            check_invalid(tool_schema(tool), invalid_arguments(tool), as_object=True)
        except NoInvalidValues:
            assert not tool.required, f"{tool.name}: a required parameter can always be left out"
