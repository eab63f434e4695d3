"""Runs a profile over a target and returns the report; knows nothing of the CLI or formats."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp import __version__
from hypothesis_mcp.checks.hunts import Searches
from hypothesis_mcp.checks.lint import lint, lint_score
from hypothesis_mcp.checks.outcomes import INCIDENT_RULES
from hypothesis_mcp.checks.prompts import PromptChecks
from hypothesis_mcp.checks.resources import ResourceChecks
from hypothesis_mcp.checks.scenarios import plan, run_scenarios
from hypothesis_mcp.checks.smoke import SmokeRun, smoke_entry
from hypothesis_mcp.checks.units import plan_units, search_jobs
from hypothesis_mcp.connection import Connection, Stats, Target
from hypothesis_mcp.fixes import fix_for
from hypothesis_mcp.lanes import Lanes
from hypothesis_mcp.profiles import Profile, make_profile
from hypothesis_mcp.results import Report, Result, RunStats, Smoke
from hypothesis_mcp.scorecard import score_run
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.laned import LanedProbeRun
from hypothesis_mcp.strategies import Overrides

Events = Callable[[str, dict[str, Any]], None]
"""Progress for a front: `start` (with `counts`, a function giving the examples, calls and failures so
far), `catalog`, `plan`, `stage` (name, total) and `step` (stage, name, phase start|done, status)."""


@dataclass
class RunOptions:
    profile: Profile = field(default_factory=lambda: make_profile("grading"))
    smoke: bool = False
    call_all: bool = False
    probes: bool = False
    allow_writes: bool = False
    probe_config: ProbeConfig | None = None
    overrides: Overrides | None = None
    read_only: bool = False
    probe_grade_cap: bool = True
    timeout: float = 30.0
    startup_timeout: float = 30.0
    max_time: float | None = None
    workers: int = 1
    """Lanes running tools' checks in parallel, each on server processes of its own."""


class _Clock:
    def __init__(self, limit: float | None) -> None:
        self.start = time.perf_counter()
        self.limit = limit

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    @property
    def over(self) -> bool:
        return self.limit is not None and self.elapsed > self.limit


def _incidents(results: list[Result]) -> list[Result]:
    """Every crash, hang or protocol violation any check ran into, once per tool and rule."""
    seen: set[tuple[str | None, str]] = set()
    found = []
    for r in results:
        if r.status == "fail" and r.rule in INCIDENT_RULES.values() and (r.tool, r.rule) not in seen:
            seen.add((r.tool, r.rule))
            found.append(Result(kind="incident", check=r.rule, tool=r.tool, status="fail", rule=r.rule,
                                message=r.message, confidence="high", basis=f"seen during the {r.check} check",
                                reproduction=r.reproduction, details=dict(r.details)))
    return found


def _surfaces(conn: Connection, profile: Profile, stop: Callable[[], bool], on_result: Callable[[Result], None],
              emit: Events) -> list[Result]:
    """The resource and prompt checks: read-only by the protocol, so part of every smoke run."""
    emit("stage", {"name": "resources and prompts", "total": 0})
    return [*ResourceChecks(conn, profile, stop, on_result=on_result).run(),
            *PromptChecks(conn, profile, stop, on_result=on_result).run()]


def run(target: Target, options: RunOptions, events: Events | None = None) -> Report:
    """Connect, run the requested checks, score them and return the report."""
    emit = events or (lambda name, info: None)
    clock = _Clock(options.max_time)
    stats = Stats()
    profile = options.profile
    overrides = options.overrides or Overrides()
    if options.probe_config is not None and options.probe_config.args:
        overrides = Overrides.from_mapping(options.probe_config.args, "probe config args") | overrides
    conn = Connection(target, timeout=options.timeout, startup_timeout=options.startup_timeout, stats=stats)
    conn.open()
    lanes = Lanes(target, workers=options.workers, timeout=options.timeout, startup_timeout=options.startup_timeout,
                  spares=max(1, 2 // max(1, options.workers)) if options.probes and options.allow_writes else 0)

    def stop() -> bool:
        return clock.over or lanes.aborted.is_set()

    results: list[Result] = []
    notes: list[str] = []
    smoke = Smoke()
    interrupted = False
    every = [stats, *lanes.stats]
    searches: Searches | None = None
    probe_run: LanedProbeRun | None = None
    searching = True
    """While true, the searches' failures are not yet results of their own."""

    def counts() -> dict[str, int]:
        """Work so far; read from another thread by a live display, so only copies are iterated."""
        made = {id(r): r for r in [*results, *(probe_run.results if probe_run else ())]}.values()
        return {
            "examples": (searches.examples if searches else 0) + (probe_run.examples if probe_run else 0),
            "calls": sum(s.calls for s in every),
            "failures": sum(r.status == "fail" for r in made) + (searches.failures if searches and searching else 0),
        }

    def step(stage: str, name: str, phase: str, status: str = "") -> None:
        emit("step", {"stage": stage, "name": name, "phase": phase, "status": status,
                      "elapsed": clock.elapsed, **counts()})

    emit("start", {"counts": counts})
    try:
        tools = conn.list_tools()
        emit("catalog", {"tools": len(tools), "server": conn.server})
        notes.extend(f"catalog: {problem}" for problem in conn.catalog_problems)
        results.extend(lint(tools))
        searches = Searches(conn, profile, overrides, stop=stop)
        config = options.probe_config or ProbeConfig()
        excluded = frozenset(config.exclude)
        scenario_plan = plan(tools, read_only=options.read_only, excluded=excluded)
        announcement = None
        if scenario_plan.may_write:
            announcement = ("scenarios call these tools, which may write: " + ", ".join(scenario_plan.may_write)
                            + " (use --read-only to call read-only tools only)")
            notes.append(announcement)
        # Before any tools/call, so a front can warn before anything is written.
        emit("plan", {"call": [t.name for t in scenario_plan.called], "may_write": scenario_plan.may_write,
                      "announcement": announcement})
        probe_run = LanedProbeRun(conn, lanes.lanes[0].pool, tools, profile, options.allow_writes,
                                  config, overrides, stop=stop, lanes=lanes)
        smoke_run = SmokeRun(conn, tools, searches, call_all=options.call_all, excluded=excluded)
        smoke_calls = {t.name for t in tools if options.smoke and smoke_run.callable_reason(t) is None}
        units = plan_units(tools, scenario_plan, smoke_calls)
        jobs, more_servers = search_jobs(units, searches, conn,
                                         lambda unit, phase: step("searches", unit.tool.name, phase))
        try:
            if more_servers:
                for lane in lanes.lanes[:len(jobs)]:
                    lane.pool.prepare()
            emit("stage", {"name": "searches", "workers": len(lanes.lanes), "total": len(units)})
            lanes.run(jobs)
            if options.smoke:
                emit("stage", {"name": "smoke", "total": 1})
                searching = False
                smoke = smoke_run.run()
                results.extend(smoke_run.checks)
                step("smoke", f"{len(smoke_run.checks)} tool check(s)", "done",
                     "fail" if smoke.failed else "pass")
                surfaces = _surfaces(conn, profile, stop, lambda r: step("resources and prompts", r.subject, "done",
                                                                         r.status), emit)
                results.extend(surfaces)
                smoke.surfaces = [smoke_entry(r) for r in surfaces]
            emit("stage", {"name": "scenarios", "total": 1})
            searching = False
            results.extend(run_scenarios(searches, scenario_plan))
            step("scenarios", f"{len(scenario_plan.called)} tool(s)", "done")
            if options.probes and not clock.over:
                emit("stage", {"name": "probes", "total": 1})
                probe_run.run()
                step("probes", f"{len(probe_run.results)} probe result(s)", "done",
                     "fail" if any(r.status == "fail" for r in probe_run.results) else "pass")
        except KeyboardInterrupt:
            interrupted = True
            notes.append("interrupted: this report is partial")
        results.extend(probe_run.results)
        notes.extend(probe_run.notes)
        if clock.over:
            notes.append(f"--max-time {options.max_time:g}s reached: later checks did not run")
        results.extend(_incidents(results))
        for index, result in enumerate(results, 1):
            result.id = f"r{index:03d}"
            if result.status in ("fail", "warn") and not result.fix:
                result.fix = fix_for(result.rule)
        score, grade, subscores, cap = score_run(
            results, num_tools=len(tools), lint=lint_score(tools, results), cap_enabled=options.probe_grade_cap,
        )
        server = conn.server.to_dict() if conn.server else {}
        return Report(
            tool={"name": "hypothesis-mcp", "version": __version__},
            target=target.describe(), profile=profile.name, seed=profile.seed, server=server,
            grade=grade, score=score, subscores=subscores, grade_cap=cap, results=results, smoke=smoke,
            stats=RunStats(calls=sum(s.calls for s in every), examples=searches.examples + probe_run.examples,
                           server_starts=sum(s.server_starts for s in every), duration_s=round(clock.elapsed, 2)),
            isolation="shared server (URL target): records kept apart by markers" if target.is_url
            else "fresh server process per stateful example",
            notes=notes, tools_total=len(tools), interrupted=interrupted,
        )
    finally:
        lanes.close()
        conn.close()
