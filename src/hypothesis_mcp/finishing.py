"""The one step that finishes a run's results: incidents, stdout that is no JSON-RPC, ids, incident
and same-cause links, fix hints, what state-persists means for reproductions, waivers, and one
finding per cause shown on many tools. Results are immutable; this step makes the finished copies,
in the order the checks made the results, incidents last, and the smoke section from the finished
smoke results."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from hypothesis_mcp.checks.causes import one_per_cause
from hypothesis_mcp.checks.smoke import smoke_entry
from hypothesis_mcp.connection import LearnedRefusal, StdoutNoise, Target
from hypothesis_mcp.results import SAME_CAUSE, IncidentRule, Result, Smoke, with_ids
from hypothesis_mcp.rules.expectations import INCIDENT_RULES
from hypothesis_mcp.rules.registry import RULES, STDOUT_NOT_PROTOCOL, fix_for
from hypothesis_mcp.shipped import suggest_for
from hypothesis_mcp.waivers import Waiver, apply_waivers


@dataclass(frozen=True)
class Finished:
    results: list[Result]
    smoke: Smoke
    """The smoke section, its entries made from the finished results."""
    isolation: str
    """The isolation line of the report."""
    waivers: list[dict[str, Any]]
    """What each waiver matched."""


def _size(result: Result) -> tuple[int, int]:
    calls = result.reproduction.calls if result.reproduction else []
    return (len(calls) or 1000, len(json.dumps([c.to_dict() for c in calls], default=repr)))


def _incidents(results: list[Result]) -> list[tuple[Result, list[int]]]:
    """Every crash, hang or protocol violation any check ran into, once per tool and rule, with
    the smallest reproduction any of those checks found, and the places of the failures it stands
    for."""
    hits: dict[tuple[str | None, IncidentRule], list[int]] = {}
    for place, r in enumerate(results):
        incident = next((rule for rule in INCIDENT_RULES.values() if rule == r.rule), None)
        if r.status == "fail" and incident is not None and r.kind != "incident":
            hits.setdefault((r.tool, incident), []).append(place)
    found = []
    for (tool, rule), places in hits.items():
        by = [results[place] for place in places]
        first = min(by, key=_size)
        checks = list(dict.fromkeys(r.check for r in by))
        found.append((Result(kind="incident", check=rule, tool=tool, status="fail", rule=rule,
                             message=first.message, confidence="high",
                             basis=f"seen during the {', '.join(checks)} check{'s' if len(checks) > 1 else ''}",
                             reproduction=first.reproduction, details={**first.details, "checks": checks}), places))
    return found


def _stdout_finding(seen: Sequence[StdoutNoise]) -> list[Result]:
    """One warning per server for lines on its stdout that are no JSON-RPC message, quoting the
    first the first connection saw (the run's own, before the lanes'): the run reads past them, a
    client that takes stdout as the protocol stream may not."""
    first = next((noise.first for noise in seen if noise.first is not None), None)
    if first is None:
        return []
    count = sum(noise.lines for noise in seen)
    lines = f"{count} such line{'s' if count > 1 else ''} in this run"
    return [Result(kind="incident", check=STDOUT_NOT_PROTOCOL, tool=None, status=RULES[STDOUT_NOT_PROTOCOL].severity,
                   rule=STDOUT_NOT_PROTOCOL, confidence="high",
                   message=f"the server wrote non-JSON-RPC to stdout: '{first}' ({lines}); MCP clients "
                           "read stdout as the protocol stream, and many fail on such a line",
                   basis="read on the server process's stdout", details={"line": first, "lines": count})]


def _linked(results: list[Result], incidents: list[tuple[Result, list[int]]]) -> list[Result]:
    """Every failure an incident stands for points at it."""
    linked = list(results)
    for incident, places in incidents:
        for place in places:
            result = linked[place]
            linked[place] = replace(result, details={**result.details, "incident": incident.id})
    return linked


def _same_cause(results: list[Result]) -> list[Result]:
    """A smoke check that failed by the rule the tool's scenario failed by saw the same cause: it
    points at the scenario's result, so the cause is printed, counted and annotated once."""
    scenarios = {(r.tool, r.rule): r.id for r in results if r.kind == "scenario" and r.status == "fail"}
    return [replace(r, details={**r.details, SAME_CAUSE: scenarios[(r.tool, r.rule)]})
            if r.kind == "smoke" and r.status == "fail" and r.covered_by is None and (r.tool, r.rule) in scenarios
            else r for r in results]


def _smoke_section(smoke: Smoke, checks: list[Result], surfaces: list[Result]) -> Smoke:
    """The smoke section as the finished results say: incident links and waived verdicts included."""
    if not smoke.executed:
        return replace(smoke, surfaces=[smoke_entry(r) for r in surfaces])
    return replace(smoke, checks=[smoke_entry(r) for r in checks], surfaces=[smoke_entry(r) for r in surfaces],
                   passed=sum(r.status == "pass" for r in checks), failed=sum(r.status == "fail" for r in checks),
                   skipped=sum(r.status == "skip" for r in checks))


def _with_fix(result: Result) -> Result:
    if result.status in ("fail", "warn") and not result.fix:
        return replace(result, fix=fix_for(result.rule))
    return result


def _isolated(target: Target, results: list[Result], server_name: str) -> tuple[list[Result], str]:
    """The isolation line, and what state-persists means for the reproductions and the fix."""
    if target.is_url:
        return results, "shared server (URL target): records kept apart by markers"
    if not any(r.rule == "state-persists" for r in results):
        return results, "fresh server process per stateful example"
    strategy = suggest_for(server_name) if server_name else None
    persists_fix = fix_for("state-persists") + (f" For this server: --strategy {strategy}." if strategy else "")
    # The message is what every format shows, --verbose or not: the way out is named there too.
    hint = f"; use --strategy {strategy}: it points the server at a temporary store" if strategy else ""
    shared = [replace(r, reproduction=replace(r.reproduction, fresh_server=False) if r.reproduction else None,
                      fix=persists_fix if r.rule == "state-persists" else r.fix,
                      message=r.message + hint if r.rule == "state-persists" else r.message) for r in results]
    return shared, ("a new server process per stateful example, but state persists across processes "
                    "(state-persists): every reproduction may depend on what earlier examples left")


def _read_by(results: list[Result], refusals: list[LearnedRefusal]) -> list[Result]:
    """A replay reads the answers by the refusal shapes the run read them by."""
    if not refusals:
        return results
    shapes = [(shape.member, shape.value) for shape in refusals]
    return [replace(r, reproduction=replace(r.reproduction, refusals=shapes)) if r.reproduction else r
            for r in results]


def finish(made: list[Result], smoke: Smoke, surfaces: list[Result], waivers: list[Waiver], *, target: Target,
           server_name: str, refusals: list[LearnedRefusal], stdout: Sequence[StdoutNoise] = ()) -> Finished:
    """Finish the results every phase made; `smoke` is the section the smoke phase made, `surfaces`
    the resource and prompt results among `made`, `stdout` what the server processes wrote there
    that is no JSON-RPC."""
    surfaced = {id(r) for r in surfaces}
    checks = [n for n, r in enumerate(made) if r.kind == "smoke" and id(r) not in surfaced]
    surface_places = [n for n, r in enumerate(made) if id(r) in surfaced]
    made = _read_by(made, refusals)
    incidents = _incidents(made)
    results = with_ids([*made, *(incident for incident, _ in incidents),
                        *_stdout_finding(stdout)])
    incidents = [(results[len(made) + n], places) for n, (_, places) in enumerate(incidents)]
    results = [_with_fix(r) for r in _same_cause(_linked(results, incidents))]
    results, isolation = _isolated(target, results, server_name)
    results, matched = apply_waivers(results, waivers)
    results = one_per_cause(results)
    section = _smoke_section(smoke, [results[n] for n in checks], [results[n] for n in surface_places])
    return Finished(results, section, isolation, matched)
