"""`error-as-success`: a tool that answers its failures as successes (isError not set).

Read from the searches the scenarios and smoke checks already made, once per tool: every call
whose answer reads as an error (connection.failure) was a refusal to those checks, and here it is
the evidence. Schema-invalid arguments answered that way are the surest sign: the call must fail,
so the answer is the tool's own error, not data that happens to read like one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.minimise import drop_keys
from hypothesis_mcp.checks.searches import Searches
from hypothesis_mcp.connection import LearnedRefusal, Outcome
from hypothesis_mcp.model.facts import Fact, rests_on
from hypothesis_mcp.results import Call, Reproduction, Result
from hypothesis_mcp.rules.registry import ERROR_AS_SUCCESS, RULES
from hypothesis_mcp.strategies.dialect import value_validator

BASIS = ("MCP Tools §Error Handling: a tool execution error is a result with isError: true, which a client "
         "reads as a failure; without it the error reads as the tool's answer")
EXAMPLES = 3
MINIMISING_TRIES = 8
MIN_VALID = 2
"""Without an invalid call answered that way, valid calls with different arguments must be: one
answer alone may be stored data that reads like an error (a note that opens with "Error:")."""


def error_as_success(searches: Searches, tools: list[Tool],
                     learned: Sequence[tuple[LearnedRefusal, Fact]] = ()) -> list[Result]:
    """One warning per tool some of whose answers said they failed without setting isError; one that
    reads so only by a refusal shape calibration learned rests on the fact that shows the shape."""
    found = []
    for tool in tools:
        valid, invalid = searches.searched(tool)
        on_valid = [hit for search in valid for hit in search.error_shaped]
        on_invalid = [hit for search in invalid for hit in search.error_shaped]
        if on_invalid or len({json.dumps(a, sort_keys=True, default=repr) for a, _ in on_valid}) >= MIN_VALID:
            answered = sum(len(s.answered) for s in [*valid, *invalid])
            result = _result(searches, tool, on_valid, on_invalid, answered)
            said = {o.failure for _, o in [*on_valid, *on_invalid]}
            facts = [fact for shape, fact in learned if shape.reason in said]
            if facts and result.reproduction is not None:
                result.details["rests_on"] = rests_on(facts, result.reproduction.calls)
            found.append(result)
    return found


def _result(searches: Searches, tool: Tool, on_valid: list[tuple[Any, Outcome]],
            on_invalid: list[tuple[Any, Outcome]], answered: int) -> Result:
    sure = bool(on_invalid)
    hits = on_invalid if sure else on_valid
    arguments, answer = _smallest(searches, tool, hits, invalid=sure)
    marked = [(args, outcome, False) for args, outcome in on_invalid] + [(a, o, True) for a, o in on_valid]
    shown = [{"arguments": args, "schema_valid": valid, "says": outcome.failure, "returned": outcome.summary()}
             for args, outcome, valid in marked[:EXAMPLES]]
    total = len(on_valid) + len(on_invalid)
    message = (f"answered {total} of {answered} call(s) with a success result whose content says it failed "
               f"({answer.failure}); isError is not set, so a client takes the error for the tool's answer")
    if sure:
        message += f", {len(on_invalid)} of them to schema-invalid arguments it should have refused"
    return Result(
        kind="scenario", check=ERROR_AS_SUCCESS, tool=tool.name, status=RULES[ERROR_AS_SUCCESS].severity,
        rule=ERROR_AS_SUCCESS, message=message, confidence="high" if sure else "medium", basis=BASIS,
        reproduction=Reproduction([Call(tool.name, arguments)], fresh_server=False),
        details={"examples": shown, "error_shaped_valid": len(on_valid), "error_shaped_invalid": len(on_invalid),
                 "returned": answer.summary()},
    )


def _smallest(searches: Searches, tool: Tool, hits: list[tuple[Any, Outcome]], *,
              invalid: bool) -> tuple[dict[str, Any], Outcome]:
    """The shortest call seen answered that way, with the keys it does not need dropped while it
    still is (on the run's server, a few calls at most; an invalid call stays invalid), and its answer."""
    args, answer = min(((a, o) for a, o in hits if isinstance(a, dict)),
                       key=lambda hit: len(json.dumps(hit[0], default=repr)), default=({}, hits[0][1]))
    check = value_validator(tool.input_schema or {"type": "object"})
    conn = searches.conn
    last = [answer]

    def still(smaller: dict[str, Any]) -> bool:
        if conn.unavailable is not None or searches.stop() or check.is_valid(smaller) == invalid:
            return False
        outcome = conn.call(tool.name, smaller)
        if outcome.error_shaped:
            last.append(outcome)
        return outcome.error_shaped

    return drop_keys(args, still, tries=MINIMISING_TRIES), last[-1]
