"""`error-as-success`: a server that answers its refusals as successes (isError not set).

Read from the searches the scenarios and smoke checks already made: every call whose answer reads
as an error (connection.failure, or a refusal shape the run learned) was a refusal to those
checks, and here it is the evidence. Such an answer carries its failure sign (an `error` member,
`ok: false`, an `Error:` text), so the run reads it right; a client that only looks at isError
does not. That is the server's way of refusing, one cause however many tools show it: one warning
per server, listing the tools (details.where), at low confidence, a style of answer rather than a
fault in the data. A failure answered as a success with no sign at all (a blank record for an id
nobody wrote) is another finding, `read-missing-as-success`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.minimise import drop_keys
from hypothesis_mcp.checks.searches import Searches
from hypothesis_mcp.connection import LearnedRefusal, Outcome
from hypothesis_mcp.model.facts import Fact, rests_on
from hypothesis_mcp.results import ANSWERED, Call, Reproduction, Result
from hypothesis_mcp.rules.registry import ERROR_AS_SUCCESS, RULES
from hypothesis_mcp.strategies.dialect import value_validator

BASIS = ("MCP Tools §Error Handling: a tool execution error is a result with isError: true, which a client "
         "reads as a failure; without it the error reads as the tool's answer")
EXAMPLES = 3
MINIMISING_TRIES = 8
MIN_VALID = 2
"""Without an invalid call answered that way, valid calls with different arguments must be: one
answer alone may be stored data that reads like an error (a note that opens with "Error:")."""
NAMED = 8
"""Tools named in the message; details.where lists them all."""


@dataclass
class _Shown:
    """One tool's calls answered with a refusal that did not set isError."""

    tool: Tool
    on_valid: list[tuple[Any, Outcome]]
    on_invalid: list[tuple[Any, Outcome]]
    answered: int

    def where(self) -> dict[str, Any]:
        first = [*self.on_invalid, *self.on_valid][0][1]
        return {"tool": self.tool.name, "error_shaped_valid": len(self.on_valid),
                "error_shaped_invalid": len(self.on_invalid), ANSWERED: self.answered, "says": first.failure}


def error_as_success(searches: Searches, tools: list[Tool],
                     learned: Sequence[tuple[LearnedRefusal, Fact]] = ()) -> list[Result]:
    """One warning for the server when some of its tools answered failures as successes that say
    they failed; one that reads so only by a refusal shape calibration learned rests on the fact
    that shows the shape."""
    shown = []
    for tool in tools:
        valid, invalid = searches.searched(tool)
        on_valid = [hit for search in valid for hit in search.error_shaped]
        on_invalid = [hit for search in invalid for hit in search.error_shaped]
        if on_invalid or len({json.dumps(a, sort_keys=True, default=repr) for a, _ in on_valid}) >= MIN_VALID:
            shown.append(_Shown(tool, on_valid, on_invalid, sum(len(s.answered) for s in [*valid, *invalid])))
    if not shown:
        return []
    result = _result(searches, shown)
    said = {o.failure for one in shown for _, o in [*one.on_valid, *one.on_invalid]}
    facts = [fact for shape, fact in learned if shape.reason in said]
    if facts and result.reproduction is not None:
        result.details["rests_on"] = rests_on(facts, result.reproduction.calls)
    return [result]


def _result(searches: Searches, shown: list[_Shown]) -> Result:
    """The reproduction is the shortest call of the surest tool (schema-invalid arguments answered
    that way: the call had to fail), a read-only one when it can be (a replay of it writes nothing)."""
    surest = min(shown, key=lambda one: (not one.on_invalid, not one.tool.is_read))
    invalid = bool(surest.on_invalid)
    arguments, answer = _smallest(searches, surest.tool, surest.on_invalid if invalid else surest.on_valid,
                                  invalid=invalid)
    marked = [(surest.tool.name, args, outcome, False) for args, outcome in surest.on_invalid] + \
        [(surest.tool.name, a, o, True) for a, o in surest.on_valid]
    examples = [{"tool": tool, "arguments": args, "schema_valid": valid, "says": outcome.failure,
                 "returned": outcome.summary()} for tool, args, outcome, valid in marked[:EXAMPLES]]
    names = [one.tool.name for one in shown]
    listed = ", ".join(names[:NAMED]) + (f" and {len(names) - NAMED} more" if len(names) > NAMED else "")
    total = sum(len(one.on_valid) + len(one.on_invalid) for one in shown)
    answered = sum(one.answered for one in shown)
    message = (f"refusals are answered with isError false: clients read them as successes "
               f"({total} of {answered} call(s) on {len(names)} tool(s): {listed}; "
               f"{surest.tool.name}'s answer says {answer.failure})")
    return Result(
        kind="scenario", check=ERROR_AS_SUCCESS, tool=None, status=RULES[ERROR_AS_SUCCESS].severity,
        rule=ERROR_AS_SUCCESS, message=message, confidence="low", basis=BASIS,
        reproduction=Reproduction([Call(surest.tool.name, arguments)], fresh_server=False),
        details={"examples": examples, "where": [one.where() for one in shown],
                 "error_shaped_valid": sum(len(one.on_valid) for one in shown),
                 "error_shaped_invalid": sum(len(one.on_invalid) for one in shown), "returned": answer.summary()},
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
