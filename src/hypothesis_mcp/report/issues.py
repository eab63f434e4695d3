"""Shared pieces of the report formats: ordering of issues, the cap line, calls as text."""

from __future__ import annotations

import json

from hypothesis_mcp.gates import blocking
from hypothesis_mcp.results import CONFIDENCE_ORDER, PROMPTS_GET, RESOURCES_READ, Call, GradeCap, Report, Result
from hypothesis_mcp.rules.registry import fix_for

# Crashes first: nothing else is trustworthy while the server falls over; lint is style last.
KIND_ORDER = {"incident": 0, "probe": 1, "scenario": 2, "smoke": 3, "lint": 4}


def fix_of(result: Result) -> str:
    return result.fix or fix_for(result.rule)


def top_issues(report: Report, limit: int = 5) -> list[Result]:
    """Failures to fix first: high confidence before heuristics, then by kind, then in report order."""
    failures = report.failures()
    ranked = sorted(
        range(len(failures)),
        key=lambda i: (CONFIDENCE_ORDER.get(failures[i].confidence, 3), KIND_ORDER.get(failures[i].kind, 5),
                       i),
    )
    return [failures[i] for i in ranked[:limit]]


def ranked_failures(report: Report) -> list[Result]:
    """Every failure, then every warning, most severe first: what blocks `--ci` before the rest of
    the failures (each in `top_issues` order), warnings last."""
    gating = {id(r) for r in blocking(report)}
    failures = top_issues(report, limit=len(report.results))
    warnings = [r for r in report.results if r.status == "warn" and r.covered_by is None]
    return ([r for r in failures if id(r) in gating] + [r for r in failures if id(r) not in gating]
            + sorted(warnings, key=lambda r: (CONFIDENCE_ORDER.get(r.confidence, 3), KIND_ORDER.get(r.kind, 5))))


def cap_line(cap: GradeCap) -> str | None:
    """'Grade A by score, capped because: ...' when a cap changed the grade, else None."""
    if not cap.capped:
        return None
    reasons = "; ".join(cap.reasons) or cap.note or "a high-confidence probe failure"
    return f"Grade {cap.uncapped_grade} by score, capped because: {reasons}"


def format_call(index: int, call: Call) -> str:
    """One reproduction step as `call N: tool({...})` with compact JSON arguments; a resource read
    or prompt request says which it is."""
    arguments = json.dumps(call.arguments, separators=(",", ":"), ensure_ascii=False)
    if call.method == RESOURCES_READ:
        return f"call {index}: resources/read {call.tool}"
    if call.method == PROMPTS_GET:
        return f"call {index}: prompts/get {call.tool}({arguments})"
    return f"call {index}: {call.tool}({arguments})"


def reproduction_origin(fresh_server: bool) -> str:
    if fresh_server:
        return "starts from a fresh server"
    return "runs on the shared server (earlier state may matter)"


ERA_LABELS = {"legacy": "legacy era, initialize handshake", "modern": "modern era, stateless",
              "dual": "dual era, both handshakes"}


def era_label(era: str | None, handshake: str | None = None) -> str:
    """One wording of the protocol era (and of a handshake that needed a second start) for every
    format and the `tools` command."""
    label = ERA_LABELS.get(era or "", f"{era} era" if era else "unknown era")
    if handshake == "initialize after restart":
        label += " after a restart: the server did not answer the server/discover request"
    return label


def percent(value: float | None) -> str:
    """'96%', or '99.8%' for a score that is not whole: a rounded '100%' would claim a perfect run."""
    if value is None:
        return "n/a"
    return f"{value:.0f}%" if float(value).is_integer() else f"{value:.1f}%"


def partial_line(report: Report) -> str | None:
    """The warning every format leads with when the run did not finish: its grade is not final."""
    if not report.partial:
        return None
    return f"PARTIAL RUN — {report.partial_reason}; the grade covers only the checks that ran"


def waived_line(result: Result) -> str:
    waiver = result.waiver or {}
    return (f"{result.id}: {result.rule} on {result.tool or 'server'} (was {waiver.get('status', 'fail')}) — "
            f"waived by {waiver.get('source', '?')}")

