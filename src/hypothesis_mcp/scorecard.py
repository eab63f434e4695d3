"""From results to subscores, a score, a letter grade and the caps (docs/scoring.md).

score = 0.6 happy + 0.2 edge + 0.2 lint (weights of absent subscores are shared out); an edge
refused with a JSON-RPC internal error counts half. Then × min(1, 0.5 + exercised share),
× (1 − 0.1 × the mean share of each tool's calls answered with a refusal without isError),
minus 30 × tools answering a missing record with a blank one (read-missing-as-success, medium) / tools,
minus 60 × tools_failing_probes / tools (high-confidence probe failures only), floored at 0.

The letter is capped by harm, which the score alone weighs too lightly on a server of many tools:
a high-confidence probe failure (unless the cap is turned off), a crash, hang or protocol violation,
or write tools mostly never exercised cap it at C; a server none of whose tools answered one valid
call with success is graded D at best. Style (lint, a nonstandard error code) never caps.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from hypothesis_mcp.gates import capping
from hypothesis_mcp.results import ANSWERED, EXERCISED, GIVEN_OUTSIDE, Check, GradeCap, Result, RuleId
from hypothesis_mcp.rules.expectations import INCIDENT_RULES
from hypothesis_mcp.rules.registry import ERROR_AS_SUCCESS, READ_MISSING

WEIGHTS = {"happy": 0.6, "edge": 0.2, "lint": 0.2}
GRADES = (("A", 90.0), ("B", 80.0), ("C", 70.0), ("D", 60.0), ("F", 0.0))
CAP = "C"
PROBE_PENALTY = 0.6
UNEXERCISED_CAP = "D"
HARM_CAP = "C"
"""A crash, a hang or a protocol violation, or write tools mostly never exercised: at most C."""
INTERNAL_REFUSAL: RuleId = "edge-internal-error"
INTERNAL_REFUSAL_CREDIT = 0.5
"""An edge refused with a JSON-RPC internal error refused the input, only in the wrong shape: half
the credit of a clean refusal, where accepting it or crashing earns none."""
READ_MISSING_PENALTY = 0.3
"""A read of a record nobody wrote answered with a blank record (medium confidence) is a refusal a
client cannot tell from data: half what a tool whose writes were not stored costs."""
ERROR_AS_SUCCESS_WEIGHT = 0.1
"""Refusals without isError are a style of answer, each with its failure sign: a server whose every
call answers so loses a tenth of its score, a fault in its data costs more."""


def grade_for(score: float) -> str:
    return next(letter for letter, floor in GRADES if score >= floor)


def _rank(letter: str) -> int:
    return [g for g, _ in GRADES].index(letter)


def scenario_subscore(results: Iterable[Result], check: Check) -> float | None:
    """Share of tools whose scenario passed; inconclusive and skipped tools do not count, and an
    edge refused with an internal error counts half."""
    judged = [r for r in results if r.kind == "scenario" and r.check == check and r.status in ("pass", "fail")]
    if not judged:
        return None
    credit = sum(1.0 if r.status == "pass" else INTERNAL_REFUSAL_CREDIT if r.rule == INTERNAL_REFUSAL else 0.0
                 for r in judged)
    return round(100.0 * credit / len(judged), 1)


def exercised_share(results: list[Result]) -> float | None:
    """Share of the tools called with valid arguments whose answers could be judged (served, or
    failed with a fault), not refused every time: what the happy subscore stands on. A tool an
    effect probe judged (pass, fail or warn) was seen answering too."""
    happy = [r for r in results if r.kind == "scenario" and r.check == "happy"
             and r.status in ("pass", "fail", "inconclusive")]
    if not happy:
        return None
    probed = {r.tool for r in results if r.kind == "probe" and r.status in ("pass", "fail", "warn")}
    return round(100.0 * sum(r.status != "inconclusive" or r.tool in probed for r in happy) / len(happy), 1)


def error_as_success_share(results: list[Result]) -> float:
    """The mean, over the tools called, of the share of each tool's calls answered with a refusal
    that did not set isError (the server's warning lists them under details.where)."""
    answered: dict[str, int] = {}
    for r in results:
        if r.kind == "scenario" and r.check in ("happy", "edge") and r.tool:
            answered[r.tool] = answered.get(r.tool, 0) + int(r.details.get(ANSWERED) or 0)
    shares = []
    for r in results:
        if r.rule != ERROR_AS_SUCCESS or r.status != "warn":
            continue
        for where in r.details.get("where") or []:
            calls = answered.get(str(where.get("tool")))
            if calls:
                shaped = int(where.get("error_shaped_valid") or 0) + int(where.get("error_shaped_invalid") or 0)
                shares.append(min(1.0, shaped / calls))
    return sum(shares) / len(answered) if answered else 0.0


def effect_subscore(results: Iterable[Result]) -> float | None:
    judged = [r for r in results if r.kind == "probe" and r.confidence == "high" and r.status in ("pass", "fail")]
    if not judged:
        return None
    return round(100.0 * sum(r.status == "pass" for r in judged) / len(judged), 1)


def exercised_tools(results: Iterable[Result]) -> int:
    """Tools that answered at least one generated valid call with success (a happy pass did)."""
    return len({r.tool for r in results if r.kind == "scenario" and r.check == "happy"
                and (r.status == "pass" or r.details.get(EXERCISED))})


def unexercised_writes(results: list[Result], write_tools: Collection[str]) -> tuple[int, int]:
    """(write tools never once seen to succeed, write tools called with valid arguments): a write
    succeeded when a generated valid call was served or an effect probe judged what it stored."""
    called = {r.tool for r in results if r.kind == "scenario" and r.check == "happy" and r.tool in write_tools
              and r.status in ("pass", "fail", "inconclusive")}
    served = {r.tool for r in results if r.kind == "scenario" and r.check == "happy"
              and (r.status == "pass" or r.details.get(EXERCISED))}
    probed = {r.tool for r in results if r.kind == "probe" and r.status in ("pass", "fail", "warn")}
    return len(called - served - probed), len(called)


def harm_caps(results: list[Result], write_tools: Collection[str], num_tools: int, *,
              interrupted: bool = False) -> list[tuple[str, str]]:
    """The caps by harm beside the probe cap, each (letter, reason): a crash, hang or protocol
    violation; more than half the write tools never seen to succeed (the grade would vouch for
    writes nobody saw work); no tool seen to succeed at all."""
    caps = [(HARM_CAP, reason) for reason in sorted({
        f"{r.rule} on {r.tool or 'server'}" for r in results
        if r.kind == "incident" and r.status == "fail" and r.rule in INCIDENT_RULES.values()})]
    unexercised, writes = unexercised_writes(results, write_tools)
    if 2 * unexercised > writes:
        caps.append((HARM_CAP, f"not exercised: {unexercised} of {writes} write tools; pass --arg values"))
    happy = [r for r in results if r.kind == "scenario" and r.check == "happy"]
    called = [r for r in happy if r.status != "skip" or r.details.get(GIVEN_OUTSIDE)]
    # When every called tool got only the user's schema-breaking values, no valid call was refused.
    vouched = not called or not all(r.details.get(GIVEN_OUTSIDE) for r in called)
    if num_tools and vouched and not exercised_tools(results):
        judged = any(r.status in ("pass", "fail", "inconclusive") for r in happy)
        caps.append((UNEXERCISED_CAP, "the run was interrupted before any tool was judged" if interrupted and not judged
                     else "no tool answered a valid call with success: every answer was a refusal or an error"))
    return caps


def score_run(
    results: list[Result], *, num_tools: int, lint: float | None, cap_enabled: bool = True,
    write_tools: Collection[str] = (), interrupted: bool = False,
) -> tuple[float, str, dict[str, float | None], GradeCap]:
    subscores: dict[str, float | None] = {
        "happy": scenario_subscore(results, "happy"),
        "edge": scenario_subscore(results, "edge"),
        "lint": lint,
    }
    present = {k: v for k, v in subscores.items() if v is not None}
    weight = sum(WEIGHTS[k] for k in present)
    score = sum(WEIGHTS[k] * v for k, v in present.items()) / weight if weight else 0.0
    exercised = exercised_share(results)
    if exercised is not None:
        score *= min(1.0, 0.5 + exercised / 100.0)
    score *= 1.0 - ERROR_AS_SUCCESS_WEIGHT * error_as_success_share(results)
    probe_failures = capping(results)
    failing_tools = {r.tool for r in probe_failures}
    made_up = {r.tool for r in results if r.rule == READ_MISSING and r.status == "warn" and r.confidence == "medium"}
    score -= 100.0 * READ_MISSING_PENALTY * len(made_up - failing_tools) / max(num_tools, 1)
    score = max(0.0, score - 100.0 * PROBE_PENALTY * len(failing_tools) / max(num_tools, 1))
    score = round(score, 1)
    subscores["effect"] = effect_subscore(results)
    subscores["exercised"] = exercised
    uncapped = grade_for(score)
    cap = GradeCap(enabled=cap_enabled, uncapped_grade=uncapped)
    caps = [(CAP, reason) for reason in sorted({f"{r.rule} on {r.tool}" for r in probe_failures})]
    cap.reasons = [reason for _, reason in caps]
    if not cap_enabled:
        caps = []
        if probe_failures:
            cap.note = "the probe grade cap is off (--no-probe-grade-cap)"
    grade = uncapped
    for letter, reason in harm_caps(results, write_tools, num_tools, interrupted=interrupted):
        if _rank(uncapped) < _rank(letter):
            cap.reasons.append(reason)
            caps.append((letter, reason))
    for letter, _ in caps:
        if _rank(grade) < _rank(letter):
            grade = cap.cap = letter
            cap.capped = True
    if cap.capped:
        shown = [reason for _, reason in caps]
        cap.note = f"Grade {uncapped} by score, capped because: {'; '.join(shown)}"
    return score, grade, subscores, cap
