"""Re-running a result's reproduction against a fresh server and judging it again.

The last answer is judged by the rule's own expectation (`rules.expectation_for`), the same
judgement the check that found the failure made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

from hypothesis_mcp.connection import Connection, LearnedRefusal, Outcome, Target
from hypothesis_mcp.errors import HypothesisMCPError
from hypothesis_mcp.results import RESOURCES_READ, TOOLS_CALL, Call, Kind, Result
from hypothesis_mcp.rules.bindings import Rebinder
from hypothesis_mcp.rules.expectations import (
    ConformsTo,
    Expectation,
    Refused,
    premise_refused,
    premise_unstored,
    rebound,
)
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
               previous: Outcome | None = None, rebinder: Rebinder | None = None,
               steps: list[tuple[Call, Outcome]] | None = None) -> tuple[bool, str]:
    """(still fails, why) for the last call of a reproduction, by the rule that failed; with the ids
    the replay's server made in place of the run's (`rebinder`), and settled on the replay's calls
    and answers (`steps`: a count counts what they made), as the run's own confirmation judges."""
    expect = expectation_for(result, output_schema)
    expect = rebound(expect, rebinder) if rebinder is not None else expect
    expect = expect.settled(steps) if steps is not None else expect
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
        schema = _output_schema(conn, result.reproduction.calls[-1])
        rebinder = Rebinder()
        for call in result.reproduction.calls:
            call = rebinder.before(call)
            outcome = conn.perform(call)
            rebinder.after(call, outcome)
            done.steps.append((call, outcome))
            if on_step:
                on_step(call, outcome)
        done.still_fails, done.verdict, done.unconfirmed = _judge(result, done.steps, conn, schema, rebinder)
    return done


def holds(server: Connection, result_id: str, expect: Mapping[str, Any] | None = None) -> bool:
    """Whether the calls made so far on `server` keep the law the result `result_id` broke
    (`kind/check/rule/subject`, as its report names it; a probe's law is the `expect` its report
    records), judged as `replay` judges them: what a printed reproduction asserts."""
    if not server.recent:
        raise ValueError("no call was made on this connection: make the reproduction's calls first")
    kind, check, rule, subject = [*result_id.split("#")[0].split("/", 3), "", "", ""][:4]
    if kind not in get_args(Kind) or not rule:
        raise ValueError(f"{result_id!r} is no result id (kind/check/rule/subject, as a report names it)")
    if kind == "probe" and expect is None:
        raise ValueError(f"{result_id} is an effect probe's result: give its law as `expect` (its report's "
                         "details.expect)")
    steps = list(server.recent)
    last = steps[-1][0]
    details: dict[str, Any] = {"expect": dict(expect)} if expect is not None else {}
    if last.method == RESOURCES_READ and (entry := _entry(server, last.tool)) is not None:
        details["mime_type"] = entry.get("mimeType")
    result = Result.from_dict({"kind": kind, "check": check, "tool": None if subject in ("", "server") else subject,
                               "status": "fail", "rule": rule, "details": details,
                               "reproduction": {"calls": [c.to_dict() for c, _ in steps]}})
    rebinder = Rebinder()  # the ids this server made, where the calls name the run's they stand for
    for call, outcome in steps:
        rebinder.after(call, outcome)
    return not _judge(result, steps, server, _output_schema(server, last), rebinder)[0]


def _output_schema(conn: Connection, last: Call) -> dict[str, Any] | None:
    """The outputSchema of the tool the last call calls, as the server lists it."""
    if last.method != TOOLS_CALL:
        return None
    try:
        return conn.tool(last.tool).output_schema
    except (KeyError, HypothesisMCPError):
        return None


def _judge(result: Result, steps: list[tuple[Call, Outcome]], conn: Connection,
           schema: dict[str, Any] | None, rebinder: Rebinder) -> tuple[bool, str, bool]:
    """(still fails, why, cannot confirm) for a reproduction's answers, by the rule that failed."""
    last = steps[-1][0]
    previous = steps[-2][1] if len(steps) > 1 else None
    still_fails, verdict = judge_last(result, steps[-1][1], schema, previous, rebinder, steps)
    if (still_fails and result.kind == "probe" and result.tool and result.rule != "probe-refusal-changed-state"
            and premise_refused(steps, result.tool)):
        return False, (f"the server refused a call of {result.tool} before the last: nothing it did is left "
                       "to judge"), False
    if (still_fails and result.kind == "probe" and result.rule != "probe-refusal-changed-state"
            and premise_unstored(steps, rebound(expectation_for(result, schema), rebinder))):
        return False, "the server refused every call that sent what the read must show: nothing left to judge", False
    sent = [call.arguments for call, _ in steps[:-1]]
    if still_fails and result.reproduction is not None and result.reproduction.fresh_server \
            and not rebound(expectation_for(result, schema), rebinder).written_by(sent):
        return False, "no call before the read wrote a value it must show: nothing left to judge", False
    if still_fails and result.rule == READ_FAILED and last.method == RESOURCES_READ and _entry(conn, last.tool) is None:
        return False, (f"cannot confirm on a fresh server: it does not list {last.tool}, so the read fails for "
                       "want of the record behind it, which the run made with calls this reproduction does not "
                       "hold"), True
    return still_fails, verdict, False


def _entry(conn: Connection, uri: str) -> dict[str, Any] | None:
    """The server's listing entry of `uri` now, if it lists it."""
    listed = conn.list_all("resources/list") if conn.offers("resources") else None
    return next((entry for entry in listed if entry.get("uri") == uri), None) if isinstance(listed, list) else None
