"""Answers to schema-invalid arguments: what a refusal looks like on this server, before the searches.

A call whose arguments break the tool's inputSchema must be refused. So the first few tools the
scenarios call are each sent their plainest call and two calls that break one property of it (the breakers
the edge search sends first, strategies/breakers.py). When the invalid calls' answers are success
results that all share a member (`{"verdict": "refused", "why": ...}`), and no success carries it
(the plainest calls' answers), that member is the server's refusal flag (model.refusals): from then
on every connection of the run reads an answer with it as a refusal, so the edge search counts it
as one and `error-as-success` reports it. A server that accepts invalid input answers it as it
answers a valid call, which the plainest call shows: nothing is learned then. Nothing is learned
from refusals every reader already reads (isError, `{"error": ...}`): they say nothing more.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection, LearnedRefusal, Outcome
from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.model.refusals import learned_shape
from hypothesis_mcp.results import Call
from hypothesis_mcp.strategies import NoInvalidValues, Overrides
from hypothesis_mcp.strategies.breakers import invalid_breakers, plain_call
from hypothesis_mcp.strategies.dialect import schema_problem, value_validator

MAX_TOOLS = 6
PER_TOOL = 2
"""Invalid calls per tool: two, so one tool's answers can agree with each other."""


def invalid_refusals(conn: Connection, tools: list[Tool], overrides: Overrides | None,
                     stop: Callable[[], bool]) -> list[tuple[LearnedRefusal, Fact]]:
    """Ask a few tools their plainest call and invalid calls; learn the refusal shape the invalid
    answers share and add it to the connection's (shared with the run's every connection)."""
    failed: list[tuple[str, Outcome]] = []
    succeeded: list[Outcome] = []
    calls: list[Call] = []
    for tool in tools[:MAX_TOOLS]:
        if stop() or conn.unavailable is not None:
            break
        if schema_problem(tool.input_schema or {"type": "object"}) is not None:
            continue  # a schema no value can be judged against: lint reports it, no call here learns
        given = overrides.for_tool(tool) if overrides else {}
        plain = plain_call(tool, given)
        if value_validator(tool.input_schema or {"type": "object"}).is_valid(plain):
            answer = conn.call(tool.name, plain)
            calls.append(Call(tool.name, plain))
            if answer.ok:
                succeeded.append(answer)
        try:
            breakers = invalid_breakers(tool, given)[:PER_TOOL]
        except (SchemaError, NoInvalidValues):
            continue
        for breaker in breakers:
            failed.append((tool.name, conn.call(tool.name, breaker.arguments)))
            calls.append(Call(tool.name, breaker.arguments))
    shape = learned_shape(failed, succeeded)
    if shape is None or shape in conn.refusals:
        return []
    conn.refusals.append(shape)
    fact = fact_shown(f"an answer that carries {shape.member!r}: {json.dumps(shape.value)} is a refusal (calls "
                      "with schema-invalid arguments were answered so; the plainest valid calls were not)",
                      calls=calls, source="calibration")
    return [(shape, fact)]
