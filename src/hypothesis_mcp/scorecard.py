"""From results to subscores, a score, a letter grade and the probe cap.

score = 0.6 happy + 0.2 edge + 0.2 lint (weights of absent subscores are shared out), then
score -= 60 × tools_failing_probes / tools (high-confidence probe failures only), floored at 0.
Any high-confidence probe failure caps the letter at C unless the cap is turned off. A server
none of whose tools answered one valid call with success (none was exercised) is not graded A.
"""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis_mcp.gates import capping
from hypothesis_mcp.results import EXERCISED, GradeCap, Result

WEIGHTS = {"happy": 0.6, "edge": 0.2, "lint": 0.2}
GRADES = (("A", 90.0), ("B", 80.0), ("C", 70.0), ("D", 60.0), ("F", 0.0))
CAP = "C"
PROBE_PENALTY = 0.6
UNEXERCISED_CAP = "B"


def grade_for(score: float) -> str:
    return next(letter for letter, floor in GRADES if score >= floor)


def _rank(letter: str) -> int:
    return [g for g, _ in GRADES].index(letter)


def scenario_subscore(results: Iterable[Result], check: str) -> float | None:
    """Share of tools whose scenario passed; inconclusive and skipped tools do not count."""
    judged = [r for r in results if r.kind == "scenario" and r.check == check and r.status in ("pass", "fail")]
    if not judged:
        return None
    return round(100.0 * sum(r.status == "pass" for r in judged) / len(judged), 1)


def effect_subscore(results: Iterable[Result]) -> float | None:
    judged = [r for r in results if r.kind == "probe" and r.confidence == "high" and r.status in ("pass", "fail")]
    if not judged:
        return None
    return round(100.0 * sum(r.status == "pass" for r in judged) / len(judged), 1)


def exercised_tools(results: Iterable[Result]) -> int:
    """Tools that answered at least one generated valid call with success (a happy pass did)."""
    return len({r.tool for r in results if r.kind == "scenario" and r.check == "happy"
                and (r.status == "pass" or r.details.get(EXERCISED))})


def score_run(
    results: list[Result], *, num_tools: int, lint: float | None, cap_enabled: bool = True,
) -> tuple[float, str, dict[str, float | None], GradeCap]:
    subscores: dict[str, float | None] = {
        "happy": scenario_subscore(results, "happy"),
        "edge": scenario_subscore(results, "edge"),
        "lint": lint,
    }
    present = {k: v for k, v in subscores.items() if v is not None}
    weight = sum(WEIGHTS[k] for k in present)
    score = sum(WEIGHTS[k] * v for k, v in present.items()) / weight if weight else 0.0
    probe_failures = capping(results)
    failing_tools = {r.tool for r in probe_failures}
    score = max(0.0, score - 100.0 * PROBE_PENALTY * len(failing_tools) / max(num_tools, 1))
    score = round(score, 1)
    subscores["effect"] = effect_subscore(results)
    uncapped = grade_for(score)
    cap = GradeCap(enabled=cap_enabled, uncapped_grade=uncapped)
    grade = uncapped
    if probe_failures:
        cap.reasons = sorted({f"{r.rule} on {r.tool}" for r in probe_failures})
    if cap_enabled and probe_failures and _rank(uncapped) < _rank(CAP):
        grade = CAP
        cap.capped, cap.cap = True, CAP
        cap.note = f"Grade {uncapped} by score, capped because: {'; '.join(cap.reasons)}"
    elif not cap_enabled and probe_failures:
        cap.note = "the probe grade cap is off (--no-probe-grade-cap)"
    if num_tools and not exercised_tools(results) and _rank(grade) < _rank(UNEXERCISED_CAP):
        cap.reasons.append("no tool answered a valid call with success: none was exercised")
        grade = UNEXERCISED_CAP
        cap.capped, cap.cap = True, UNEXERCISED_CAP
        cap.note = f"Grade {uncapped} by score, capped because: {'; '.join(cap.reasons)}"
    return score, grade, subscores, cap
