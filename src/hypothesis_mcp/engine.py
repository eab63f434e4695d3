"""Runs a profile over a target and returns the report; knows nothing of the CLI or formats."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.error_shapes import error_as_success
from hypothesis_mcp.checks.lint import lint, lint_score
from hypothesis_mcp.checks.prompts import PromptChecks
from hypothesis_mcp.checks.resources import ResourceChecks
from hypothesis_mcp.checks.scenarios import plan, run_scenarios
from hypothesis_mcp.checks.searches import Searches
from hypothesis_mcp.checks.smoke import SmokeRun, smoke_entry
from hypothesis_mcp.connection import Connection, LearnedRefusal, Stats, Target
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.events import CatalogRead, Counts, Events, Planned, RunStarted, StageStarted, Step
from hypothesis_mcp.inputs import config_problems, override_problems, selected, selection_problems, waiver_problems
from hypothesis_mcp.profiles import Profile, make_profile
from hypothesis_mcp.results import Report, Result, RunStats, Smoke, assign_ids
from hypothesis_mcp.rules.expectations import INCIDENT_RULES
from hypothesis_mcp.rules.registry import fix_for
from hypothesis_mcp.scorecard import score_run
from hypothesis_mcp.search.lanes import Lanes
from hypothesis_mcp.search.schedule import Unit, plan_units, search_jobs
from hypothesis_mcp.shipped import suggest_for
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.probes import ProbeRun
from hypothesis_mcp.strategies import Overrides
from hypothesis_mcp.version import __version__
from hypothesis_mcp.waivers import Waiver, apply_waivers


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
    waivers: list[Waiver] = field(default_factory=list)
    """`--ignore RULE[:TOOL]`; a probe config's `ignore:` list is added to these."""
    include_tools: list[str] = field(default_factory=list)
    exclude_tools: list[str] = field(default_factory=list)
    """`--include-tool` / `--exclude-tool` globs: the tools every check and probe sees."""


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


def _surfaces(conn: Connection, profile: Profile, stop: Callable[[], bool], on_result: Callable[[Result], None],
              emit: Events) -> list[Result]:
    """The resource and prompt checks: read-only by the protocol, so part of every smoke run."""
    emit(StageStarted("resources and prompts"))
    return [*ResourceChecks(conn, profile, stop, on_result=on_result).run(),
            *PromptChecks(conn, profile, stop, on_result=on_result).run()]


def _check_inputs(tools: list[Tool], options: RunOptions, notes: list[str]) -> None:
    """Every tool and parameter the user named must be in the catalog (exit 2 with the closest
    names); a strategy shipped for several versions of a server only gets notes."""
    problems = override_problems(tools, options.overrides or Overrides())
    problems += waiver_problems(tools, options.waivers)
    problems += selection_problems(tools, options.include_tools, options.exclude_tools)
    config = options.probe_config
    if config is not None:
        found = config_problems(tools, config)
        if config.shipped:
            notes.extend(f"strategy: {problem} (ignored)" for problem in found)
        else:
            problems += found
    if problems:
        raise UsageError("the names given do not match the server's catalog:\n  " + "\n  ".join(problems))


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


def run(target: Target, options: RunOptions, events: Events | None = None) -> Report:
    """Connect, run the requested checks, score them and return the report."""
    emit = events or (lambda event: None)
    clock = _Clock(options.max_time)
    stats = Stats()
    profile = options.profile
    overrides = options.overrides or Overrides()
    if options.probe_config is not None and options.probe_config.args:
        overrides = Overrides.from_mapping(options.probe_config.args, "probe config args") | overrides
    refusals: list[LearnedRefusal] = []
    """The server's own refusal shapes, once calibration shows them: every connection reads by them."""
    conn = Connection(target, timeout=options.timeout, startup_timeout=options.startup_timeout, stats=stats,
                      refusals=refusals)
    conn.open()
    target = conn.target  # a server that died on the discovery probe: every later start greets with initialize
    lanes = Lanes(target, workers=options.workers, timeout=options.timeout, startup_timeout=options.startup_timeout,
                  spares=1 if options.probes and options.allow_writes else 0, refusals=refusals)

    cut: list[str] = []

    def stop() -> bool:
        """Checks ask before each step; a yes means the run is cut short and the report partial."""
        if clock.over and not cut:
            cut.append(f"--max-time {options.max_time:g}s reached: later checks did not run")
        return clock.over or lanes.aborted.is_set()

    results: list[Result] = []
    notes: list[str] = []
    smoke = Smoke()
    interrupted = False
    every = [stats, *lanes.stats]
    searches: Searches | None = None
    probe_run: ProbeRun | None = None
    surfaces: list[Result] = []
    searching = True
    """While true, the searches' failures are not yet results of their own."""

    def counts() -> Counts:
        """Work so far; read from another thread by a live display, so only copies are iterated."""
        made = {id(r): r for r in [*results, *(probe_run.results if probe_run else ())]}.values()
        return Counts(
            examples=(searches.examples if searches else 0) + (probe_run.examples if probe_run else 0),
            calls=sum(s.calls for s in every),
            failures=sum(r.status == "fail" for r in made) + (searches.failures if searches and searching else 0),
        )

    def step(stage: str, name: str, phase: str, status: str = "") -> None:
        now = counts()
        emit(Step(stage, name, phase, status, clock.elapsed, now.examples, now.calls, now.failures))

    emit(RunStarted(counts))
    try:
        tools = conn.list_tools()
        emit(CatalogRead(len(tools), conn.server))
        notes.extend(f"catalog: {problem}" for problem in conn.catalog_problems)
        _check_inputs(tools, options, notes)
        if len(chosen := selected(tools, options.include_tools, options.exclude_tools)) < len(tools):
            left_out = sorted({t.name for t in tools} - {t.name for t in chosen})
            notes.append(f"{len(chosen)} of {len(tools)} tools tested (--include-tool, --exclude-tool); "
                         f"left out: {', '.join(left_out)}")
            tools = chosen
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
        emit(Planned([t.name for t in scenario_plan.called], scenario_plan.may_write, announcement))
        probe_run = ProbeRun(conn, lanes.lanes[0].pool, tools, profile, options.allow_writes,
                             config, overrides, stop=stop, lanes=lanes)
        smoke_run = SmokeRun(conn, tools, searches, call_all=options.call_all, excluded=excluded)
        smoke_calls = {t.name for t in tools if options.smoke and smoke_run.callable_reason(t) is None}
        units = plan_units(tools, {t.name for t in scenario_plan.called}, smoke_calls)

        def run_unit(unit: Unit, lane_conn: Connection) -> None:
            step("searches", unit.tool.name, "start")
            searches.run_unit(unit, lane_conn)
            step("searches", unit.tool.name, "done")

        jobs, more_servers = search_jobs(units, run_unit, conn, searches.stop)
        # The probes' first servers start while the searches wait on the server's answers.
        probing = options.probes and options.allow_writes and bool(probe_run.write_tools())
        try:
            for lane in lanes.lanes[:len(jobs)] if more_servers else lanes.lanes if probing else []:
                lane.pool.prepare()
            if probing:
                probe_run.learn_refusals()
            emit(StageStarted("searches", len(lanes.lanes)))
            lanes.run(jobs)
            searching = False
            if options.smoke:
                emit(StageStarted("smoke"))
                smoke, checks = smoke_run.run()
                results.extend(checks)
                step("smoke", f"{len(checks)} tool check(s)", "done", "fail" if smoke.failed else "pass")
                surfaces = _surfaces(conn, profile, stop, lambda r: step(
                    "resources and prompts", f"{r.check} on {r.subject}", "done", r.status), emit)
                results.extend(surfaces)
            emit(StageStarted("scenarios"))
            results.extend(run_scenarios(searches, scenario_plan))
            results.extend(error_as_success(searches, tools, probe_run.refusal_facts()))
            step("scenarios", f"{len(scenario_plan.called)} tool(s)", "done")
            if options.probes and not stop():
                emit(StageStarted("probes"))
                probe_run.run()
                step("probes", f"{len(probe_run.results)} probe result(s)", "done",
                     "fail" if any(r.status == "fail" for r in probe_run.results) else "pass")
        except KeyboardInterrupt:
            interrupted = True
            cut.insert(0, "interrupted (Ctrl-C or SIGTERM) before every check ran")
        results.extend(probe_run.results)
        for result in results:  # a replay reads the answers by the shapes the run read them by
            if result.reproduction is not None and refusals:
                result.reproduction.refusals = [(shape.member, shape.value) for shape in refusals]
        notes.extend(probe_run.notes)
        if searches.unavailable is not None:
            notes.append(f"{searches.unavailable}: the checks after it were skipped, not failed")
        notes.extend(dict.fromkeys(cut))
        incidents = _incidents(results)
        results.extend(incident for incident, _ in incidents)
        assign_ids(results)
        _link(incidents, smoke)
        for result in results:
            if result.status in ("fail", "warn") and not result.fix:
                result.fix = fix_for(result.rule)
        server = conn.server.to_dict() if conn.server else {}
        isolation = _isolation(target, results, server.get("name", ""))
        config_waivers = options.probe_config.ignore if options.probe_config else []
        waivers = apply_waivers(results, smoke, [*options.waivers, *config_waivers])
        smoke.surfaces = [smoke_entry(r) for r in surfaces]
        notes.extend(f"waiver {w['rule']}{':' + w['tool'] if w['tool'] else ''} ({w['source']}) matched no "
                     "failure or warning" for w in waivers if not w["matched"])
        score, grade, subscores, cap = score_run(
            results, num_tools=len(tools), lint=lint_score(tools, results), cap_enabled=options.probe_grade_cap,
        )
        return Report(
            tool={"name": "hypothesis-mcp", "version": __version__},
            target=target.describe(), profile=profile.name, seed=profile.seed, server=server,
            grade=grade, score=score, subscores=subscores, grade_cap=cap, results=results, smoke=smoke,
            stats=RunStats(calls=sum(s.calls for s in every), examples=searches.examples + probe_run.examples,
                           server_starts=sum(s.server_starts for s in every), duration_s=round(clock.elapsed, 2)),
            isolation=isolation, notes=notes, tools_total=len(tools), interrupted=interrupted,
            partial_reasons=list(dict.fromkeys(cut)), waivers=waivers,
            server_env=[] if target.is_url else sorted(target.env),
        )
    finally:
        # Every server is told to stop at once and they exit side by side: each takes a few tenths
        # of a second after its input closes, which one after another added up at the end of a run.
        closing = threading.Thread(target=conn.close, daemon=True)
        closing.start()
        lanes.close()
        closing.join()
