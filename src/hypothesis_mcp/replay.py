"""Re-running a result's reproduction against a fresh server and judging it again.

The last answer is judged by the rule's own expectation (`rules.expectation_for`), the same
judgement the check that found the failure made.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.connection import Connection, LearnedRefusal, Outcome, Target
from hypothesis_mcp.results import RESOURCES_READ, TOOLS_CALL, Call, Result
from hypothesis_mcp.rules.bindings import Rebinder
from hypothesis_mcp.rules.expectations import ConformsTo, Expectation, Refused, premise_refused
from hypothesis_mcp.rules.registry import expectation_for
from hypothesis_mcp.rules.surfaces import READ_FAILED, SurfaceAnswer


@dataclass
class Replay:
    result: Result
    steps: list[tuple[Call, Outcome]] = field(default_factory=list)
    still_fails: bool = False
    verdict: str = ""
    unconfirmed: bool = False
    """The replay cannot tell: the reproduction reads a resource a fresh server does not list (one
    behind a record the run made), so its failing read proves nothing about the server."""


def judge_last(result: Result, outcome: Outcome, output_schema: dict[str, Any] | None,
               previous: Outcome | None = None) -> tuple[bool, str]:
    """(still fails, why) for the last call of a reproduction, by the rule that failed."""
    expect = expectation_for(result, output_schema)
    broke = not expect.holds(outcome, previous)
    return broke, _why(expect, outcome, broke, result.kind == "probe")


def _why(expect: Expectation, outcome: Outcome, broke: bool, probe: bool) -> str:
    if isinstance(expect, SurfaceAnswer):
        return expect.why(outcome)
    if probe:
        return "the effect property is still violated" if broke else "the effect property now holds"
    if isinstance(expect, Refused):
        return "still accepted the invalid arguments" if broke else "now rejected"
    if isinstance(expect, ConformsTo):
        if not outcome.ok:
            return f"the call no longer succeeds: {outcome.summary()}"
        finding = expect.breach(outcome)
        return finding.message if finding else "structuredContent now conforms"
    return outcome.summary()


def replay(result: Result, target: Target, *, timeout: float = 30.0,
           on_step: Callable[[Call, Outcome], None] | None = None) -> Replay:
    """Run the calls in order on a new server process and judge the last answer again; an id the
    server made up is taken from its new answer (`Call.binds`). Answers are read by the refusal
    shapes the run learned, as the run read them."""
    done = Replay(result)
    if result.reproduction is None or not result.reproduction.calls:
        done.verdict = "this result has no reproduction to replay"
        return done
    shapes = [LearnedRefusal(member, value) for member, value in result.reproduction.refusals]
    with Connection(target, timeout=timeout, refusals=shapes) as conn:
        schema = None
        last = result.reproduction.calls[-1]
        if last.method == TOOLS_CALL:
            try:
                schema = conn.tool(last.tool).output_schema
            except KeyError:
                schema = None
        rebinder = Rebinder()
        for call in result.reproduction.calls:
            call = rebinder.before(call)
            outcome = conn.perform(call)
            rebinder.after(call, outcome)
            done.steps.append((call, outcome))
            if on_step:
                on_step(call, outcome)
        previous = done.steps[-2][1] if len(done.steps) > 1 else None
        done.still_fails, done.verdict = judge_last(result, done.steps[-1][1], schema, previous)
        if done.still_fails and result.kind == "probe" and result.tool and premise_refused(done.steps, result.tool):
            done.still_fails = False
            done.verdict = (f"the server refused a call of {result.tool} before the last: nothing it did is left "
                            "to judge")
        sent = [call.arguments for call, _ in done.steps[:-1]]
        if done.still_fails and result.reproduction.fresh_server \
                and not expectation_for(result, schema).written_by(sent):
            done.still_fails = False
            done.verdict = "no call before the read wrote a value it must show: nothing left to judge"
        if done.still_fails and result.rule == READ_FAILED and last.method == RESOURCES_READ \
                and not _listed(conn, last.tool):
            done.still_fails, done.unconfirmed = False, True
            done.verdict = (f"cannot confirm on a fresh server: it does not list {last.tool}, so the read fails for "
                            "want of the record behind it, which the run made with calls this reproduction does not "
                            "hold")
    return done


def _listed(conn: Connection, uri: str) -> bool:
    """Whether the server lists `uri` among its resources now."""
    listed = conn.list_all("resources/list") if conn.offers("resources") else None
    return isinstance(listed, list) and any(entry.get("uri") == uri for entry in listed)
