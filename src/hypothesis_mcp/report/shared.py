"""Shared pieces of the report formats: ordering of issues, the cap line, calls as text."""

from __future__ import annotations

import json

from hypothesis_mcp.fixes import fix_for
from hypothesis_mcp.results import CONFIDENCE_ORDER, PROMPTS_GET, RESOURCES_READ, Call, GradeCap, Report, Result

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
