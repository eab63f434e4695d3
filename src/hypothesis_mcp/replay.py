"""Re-running a result's reproduction against a fresh server and judging it again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.checks.outcomes import output_violation
from hypothesis_mcp.checks.prompts import judge_get
from hypothesis_mcp.checks.resources import judge_read
from hypothesis_mcp.connection import Connection, Outcome, Target
from hypothesis_mcp.results import PROMPTS_GET, RESOURCES_READ, TOOLS_CALL, Call, Result
from hypothesis_mcp.stateful.judge import holds


@dataclass
class Replay:
    result: Result
    steps: list[tuple[Call, Outcome]] = field(default_factory=list)
    still_fails: bool = False
    verdict: str = ""


def judge_last(result: Result, outcome: Outcome, output_schema: dict[str, Any] | None,
               previous: Outcome | None = None) -> tuple[bool, str]:
    """(still fails, why) for the last call of a reproduction, by the rule that failed."""
    rule = result.rule
    last = result.reproduction.calls[-1] if result.reproduction and result.reproduction.calls else None
    if last is not None and last.method == RESOURCES_READ:
        return judge_read(rule, outcome, last.tool, result.details.get("mime_type"))
    if last is not None and last.method == PROMPTS_GET:
        return judge_get(rule, outcome)
    if rule in ("server-crashed", "call-timeout", "protocol-violation"):
        broke = outcome.kind in ("closed", "timeout", "protocol")
        return broke, outcome.summary()
    if result.kind == "probe":
        expect = result.details.get("expect") or {}
        broke = outcome.ok and not holds(expect, outcome, previous)
        return broke, "the effect property is still violated" if broke else "the effect property now holds"
    if rule in ("smoke_invalid_arguments", "edge-accepted-invalid-input"):
        return outcome.ok, "still accepted the invalid arguments" if outcome.ok else "now rejected"
    if rule == "edge-internal-error":
        broke = outcome.kind == "error" and not outcome.rejected
        return broke, outcome.summary()
    if rule == "smoke_unknown_tool":
        broke = not (outcome.kind == "error" and outcome.rejected)
        return broke, outcome.summary()
    if rule == "happy-rejected-valid-input":
        broke = outcome.kind == "error"
        return broke, outcome.summary()
    if rule in ("smoke_structured_content", "happy-output-schema") and output_schema is not None:
        if not outcome.ok:
            return False, f"the call no longer succeeds: {outcome.summary()}"
        finding = output_violation(output_schema, outcome)
        return finding is not None, finding.message if finding else "structuredContent now conforms"
    return not outcome.ok, outcome.summary()


def replay(result: Result, target: Target, *, timeout: float = 30.0,
           on_step: Callable[[Call, Outcome], None] | None = None) -> Replay:
    """Run the calls in order on a new server process and judge the last answer again."""
    done = Replay(result)
    if result.reproduction is None or not result.reproduction.calls:
        done.verdict = "this result has no reproduction to replay"
        return done
    with Connection(target, timeout=timeout) as conn:
        schema = None
        last = result.reproduction.calls[-1]
        if last.method == TOOLS_CALL:
            try:
                schema = conn.tool(last.tool).output_schema
            except KeyError:
                schema = None
        for call in result.reproduction.calls:
            outcome = conn.perform(call)
            done.steps.append((call, outcome))
            if on_step:
                on_step(call, outcome)
        previous = done.steps[-2][1] if len(done.steps) > 1 else None
        done.still_fails, done.verdict = judge_last(result, done.steps[-1][1], schema, previous)
    return done
