"""Judging single outcomes: incidents, output schemas, and results for the report."""

from __future__ import annotations

import functools
import json
from typing import Any

from jsonschema import exceptions as jsonschema_exceptions
from jsonschema.validators import validator_for

from hypothesis_mcp.checks.hunt import Finding
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.results import Call, Reproduction, Result
from hypothesis_mcp.strategies.ecma import ecma_class, pythonize

INCIDENT_RULES = {"closed": "server-crashed", "timeout": "call-timeout", "protocol": "protocol-violation"}


def incident(outcome: Outcome) -> Finding | None:
    """A crash, hang or protocol violation, whatever the check was looking for."""
    rule = INCIDENT_RULES.get(outcome.kind)
    if rule is None:
        return None
    return Finding(rule, outcome.summary(), {"returned": outcome.summary()})


@functools.lru_cache(maxsize=512)
def _validator(schema_json: str) -> Any:
    schema = pythonize(json.loads(schema_json))
    cls = ecma_class(validator_for(schema))  # patterns read as ECMA-262 (`\\p{Lu}`), as servers write them
    cls.check_schema(schema, format_checker=cls.FORMAT_CHECKER)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def validator(schema: dict[str, Any]) -> Any:
    """A compiled validator for the schema's own dialect (2020-12 when `$schema` is absent)."""
    return _validator(json.dumps(schema, sort_keys=True))


def schema_problem(schema: dict[str, Any]) -> str | None:
    try:
        validator(schema)
    except jsonschema_exceptions.SchemaError as exc:
        return exc.message
    return None


def output_violation(schema: dict[str, Any], outcome: Outcome) -> Finding | None:
    """A success result must carry structuredContent that conforms to the declared outputSchema."""
    if not outcome.has_structured:
        return Finding(
            "smoke_structured_content",
            "declared outputSchema is not honored: the result carries no structuredContent",
            {"returned": outcome.summary()},
        )
    error = jsonschema_exceptions.best_match(validator(schema).iter_errors(outcome.structured))
    if error is None:
        return None
    path = "/" + "/".join(str(p) for p in error.absolute_path)
    return Finding(
        "smoke_structured_content",
        f"declared outputSchema is not honored: {error.message} (at {path})",
        {"returned": outcome.summary(), "path": path, "keyword": error.validator},
    )


def result_for(
    kind: str, check: str, tool: str | None, finding: Finding, arguments: dict[str, Any] | None, *,
    confidence: str = "high", basis: str = "", fix: str = "", fresh_server: bool = False,
) -> Result:
    repro = Reproduction([Call(tool, arguments)], fresh_server=fresh_server) if tool and arguments is not None else None
    return Result(
        kind=kind,  # type: ignore[arg-type]
        check=check, tool=tool, status="fail", rule=finding.rule, message=finding.message,
        confidence=confidence,  # type: ignore[arg-type]
        basis=basis, fix=fix, reproduction=repro, details=dict(finding.details),
    )
