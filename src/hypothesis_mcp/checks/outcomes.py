"""Judging single outcomes: incidents, output schemas, and results for the report."""

from __future__ import annotations

from typing import Any

from jsonschema import exceptions as jsonschema_exceptions

from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.search.driver import Finding
from hypothesis_mcp.validation import validator

INCIDENT_RULES = {"closed": "server-crashed", "timeout": "call-timeout", "protocol": "protocol-violation"}


def incident(outcome: Outcome) -> Finding | None:
    """A crash, hang or protocol violation, whatever the check was looking for."""
    rule = INCIDENT_RULES.get(outcome.kind)
    if rule is None:
        return None
    return Finding(rule, outcome.summary(), {"returned": outcome.summary()})


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
