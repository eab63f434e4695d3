"""The run's last phase: finish the results (incidents, ids, links, fixes, waivers), score them
and build the report."""

from __future__ import annotations

import json

from hypothesis_mcp.checks.lint import lint_score
from hypothesis_mcp.checks.smoke import smoke_entry
from hypothesis_mcp.connection import Target
from hypothesis_mcp.results import Report, Result, RunStats, Smoke, assign_ids
from hypothesis_mcp.rules.expectations import INCIDENT_RULES
from hypothesis_mcp.rules.registry import fix_for
from hypothesis_mcp.runcontext import RunContext
from hypothesis_mcp.scorecard import score_run
from hypothesis_mcp.shipped import suggest_for
from hypothesis_mcp.version import __version__
from hypothesis_mcp.waivers import apply_waivers


def _size(result: Result) -> tuple[int, int]:
    calls = result.reproduction.calls if result.reproduction else []
    return (len(calls) or 1000, len(json.dumps([c.to_dict() for c in calls], default=repr)))


def _incidents(results: list[Result]) -> list[tuple[Result, list[Result]]]:
    """Every crash, hang or protocol violation any check ran into, once per tool and rule, with
    the smallest reproduction any of those checks found, and the failures it stands for."""
    hits: dict[tuple[str | None, str], list[Result]] = {}
    for r in results:
        if r.status == "fail" and r.rule in INCIDENT_RULES.values() and r.kind != "incident":
            hits.setdefault((r.tool, r.rule), []).append(r)
    found = []
    for (tool, rule), by in hits.items():
        first = min(by, key=_size)
        checks = list(dict.fromkeys(r.check for r in by))
        found.append((Result(kind="incident", check=rule, tool=tool, status="fail", rule=rule,
                             message=first.message, confidence="high",
                             basis=f"seen during the {', '.join(checks)} check{'s' if len(checks) > 1 else ''}",
                             reproduction=first.reproduction, details={**first.details, "checks": checks}), by))
    return found


def _link(incidents: list[tuple[Result, list[Result]]], smoke: Smoke) -> None:
    """Point every failure an incident stands for at it, in the smoke section too."""
    for incident, by in incidents:
        for result in by:
            result.details["incident"] = incident.id
            for check in smoke.checks:
                if (check["check_id"], check["tool_name"], check["verdict"]) == (result.check, result.tool, "fail"):
                    check["details"]["incident"] = incident.id


def _isolation(target: Target, results: list[Result], server_name: str) -> str:
    """The isolation line, and what state-persists means for the reproductions and the fix."""
    if target.is_url:
        return "shared server (URL target): records kept apart by markers"
    persists = [r for r in results if r.rule == "state-persists"]
    if not persists:
        return "fresh server process per stateful example"
    for result in results:
        if result.reproduction is not None:
            result.reproduction.fresh_server = False
    strategy = suggest_for(server_name) if server_name else None
    for result in persists:
        result.fix = fix_for(result.rule) + (f" For this server: --strategy {strategy}." if strategy else "")
    return ("a new server process per stateful example, but state persists across processes "
            "(state-persists): every reproduction may depend on what earlier examples left")


def score(run: RunContext) -> Report:
    """Gather what every phase made, finish it and score it."""
    planned = run.planned()
    options, results, notes, smoke = run.options, run.results, run.notes, run.smoke
    results.extend(planned.probes.results)
    notes.extend(planned.probes.notes)
    if planned.searches.unavailable is not None:
        notes.append(f"{planned.searches.unavailable}: the checks after it were skipped, not failed")
    cut = list(dict.fromkeys(run.budget.reasons))
    notes.extend(cut)
    incidents = _incidents(results)
    results.extend(incident for incident, _ in incidents)
    assign_ids(results)
    _link(incidents, smoke)
    for result in results:
        if result.status in ("fail", "warn") and not result.fix:
            result.fix = fix_for(result.rule)
    server = run.conn.server.to_dict() if run.conn.server else {}
    isolation = _isolation(run.target, results, server.get("name", ""))
    config_waivers = options.probe_config.ignore if options.probe_config else []
    waivers = apply_waivers(results, smoke, [*options.waivers, *config_waivers])
    smoke.surfaces = [smoke_entry(r) for r in run.surfaces]
    notes.extend(f"waiver {w['rule']}{':' + w['tool'] if w['tool'] else ''} ({w['source']}) matched no "
                 "failure or warning" for w in waivers if not w["matched"])
    grade_score, grade, subscores, cap = score_run(
        results, num_tools=len(run.tools), lint=lint_score(run.tools, results), cap_enabled=options.probe_grade_cap,
    )
    examples = planned.searches.examples + planned.probes.examples
    profile = options.profile
    return Report(
        tool={"name": "hypothesis-mcp", "version": __version__},
        target=run.target.describe(), profile=profile.name, seed=profile.seed, server=server,
        grade=grade, score=grade_score, subscores=subscores, grade_cap=cap, results=results, smoke=smoke,
        stats=RunStats(calls=sum(s.calls for s in run.stats), examples=examples,
                       server_starts=sum(s.server_starts for s in run.stats), duration_s=round(run.clock.elapsed, 2)),
        isolation=isolation, notes=notes, tools_total=len(run.tools), interrupted=run.interrupted,
        partial_reasons=cut, waivers=waivers,
        server_env=[] if run.target.is_url else sorted(run.target.env),
    )
