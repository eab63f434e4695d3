"""Answers to schema-invalid arguments: what a refusal looks like on this server, before the searches.

A call whose arguments break the tool's inputSchema must be refused. So the first few tools the
scenarios call are each sent their plainest call and two calls that break one property of it (the breakers
the edge search sends first, strategies/breakers.py). When the invalid calls' answers are success
results that share a member (`{"verdict": "refused", "why": ...}`) on one tool, or on the tools that
agree, and no success carries it (the plainest calls' answers), that member is the server's refusal
flag; plain texts that open alike on two tools (`Request rejected: ...`), and that no success opens
with, are its refusal sentence (model.refusals). From then on every connection of the run reads an
answer of that shape as a refusal, so the edge search counts it as one, the probes never take a
write refused so for a stored one, and `error-as-success` reports it. A tool that accepts invalid
input answers it as it answers a valid call, which its plainest call shows: it teaches nothing, and
hides nothing the other tools show. Nothing is learned from refusals every reader already reads
(isError, `{"error": ...}`): they say nothing more.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection, LearnedRefusal, Outcome
from hypothesis_mcp.connection.failure import TEXT, WILDCARD
from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.model.refusals import tool_shapes
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
    valid: list[tuple[str, Outcome]] = []
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
            valid.append((tool.name, answer))
        try:
            breakers = invalid_breakers(tool, given)[:PER_TOOL]
        except (SchemaError, NoInvalidValues):
            continue
        for breaker in breakers:
            failed.append((tool.name, conn.call(tool.name, breaker.arguments)))
            calls.append(Call(tool.name, breaker.arguments))
    learned = []
    for shape in tool_shapes(failed, valid):
        if shape in conn.refusals:
            continue
        conn.refusals.append(shape)
        fact = fact_shown(f"an answer that {_what(shape)} is a refusal (calls with schema-invalid arguments "
                          "were answered so; a valid call was not)", calls=calls, source="calibration")
        learned.append((shape, fact))
    return learned


def _what(shape: LearnedRefusal) -> str:
    if shape.member == TEXT:
        return "opens with " + json.dumps(str(shape.value).replace(WILDCARD, ""), ensure_ascii=False)
    return f"carries {shape.member!r}: {json.dumps(shape.value)}"
