"""The phases of one run, in order, each a function of the run context: read the catalog, lint
it, plan the calls, search, smoke, resources and prompts, scenarios, probes. Scoring, the last
phase, is in `scoring.py`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.error_shapes import error_as_success
from hypothesis_mcp.checks.invalid_answers import invalid_refusals
from hypothesis_mcp.checks.lint import lint as lint_tools
from hypothesis_mcp.checks.missing_reads import read_missing
from hypothesis_mcp.checks.owned import retry_unexercised
from hypothesis_mcp.checks.prompts import PromptChecks
from hypothesis_mcp.checks.resources import ResourceChecks
from hypothesis_mcp.checks.scenarios import plan as plan_scenarios
from hypothesis_mcp.checks.scenarios import run_scenarios
from hypothesis_mcp.checks.searches import Searches
from hypothesis_mcp.checks.smoke import SmokeRun
from hypothesis_mcp.checks.surfaces import one_per_server
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.events import CatalogRead, PhaseFinished, PhaseStarted, Planned
from hypothesis_mcp.inputs import (
    config_problems,
    override_problems,
    selected,
    selection_problems,
    value_problems,
    waiver_problems,
)
from hypothesis_mcp.options import RunOptions
from hypothesis_mcp.runcontext import Plan, RunContext
from hypothesis_mcp.search.schedule import plan_units, search_jobs
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.probes import ProbeRun
from hypothesis_mcp.strategies import Overrides


@dataclass(frozen=True)
class Phase:
    name: str
    body: Callable[[RunContext], None]
    wanted: Callable[[RunContext], bool] = lambda run: True
    """Asked just before the phase would start; a phase not wanted emits no events."""
    items: bool = True
    on_lanes: bool = False
    """Its work is spread over the run's lanes (the started event says how many)."""


def run_phase(run: RunContext, phase: Phase) -> None:
    """Run one phase between its started and finished events (finished even when it is cut short)."""
    if not phase.wanted(run):
        return
    run.phase = phase.name
    workers = len(run.lanes.lanes) if phase.on_lanes else None
    run.emit(PhaseStarted(phase.name, phase.items, workers))
    try:
        phase.body(run)
    finally:
        run.emit(PhaseFinished(phase.name, run.clock.elapsed, run.counts()))


def _check_inputs(tools: list[Tool], options: RunOptions, notes: list[str]) -> None:
    """Every tool and parameter the user named must be in the catalog (exit 2 with the closest
    names), and every value given must be one its tool's inputSchema allows (exit 2 naming the
    keyword, unless --allow-invalid-args); a strategy shipped for several versions of a server only
    gets notes."""
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
    outside = value_problems(selected(tools, options.include_tools, options.exclude_tools),
                             options.overrides or Overrides())
    if outside and not options.allow_invalid_args:
        raise UsageError("the values given break the tools' inputSchema (--allow-invalid-args sends them anyway):"
                         "\n  " + "\n  ".join(outside))
    notes.extend(f"{problem}: sent anyway (--allow-invalid-args); a refusal of it is not held against the server"
                 for problem in outside)


def catalog(run: RunContext) -> None:
    """List the tools, check the names the user gave against them and keep the selected ones."""
    tools = run.conn.list_tools()
    run.emit(CatalogRead(len(tools), run.conn.server))
    run.notes.extend(f"catalog: {problem}" for problem in run.conn.catalog_problems)
    _check_inputs(tools, run.options, run.notes)
    options = run.options
    if len(chosen := selected(tools, options.include_tools, options.exclude_tools)) < len(tools):
        left_out = sorted({t.name for t in tools} - {t.name for t in chosen})
        run.notes.append(f"{len(chosen)} of {len(tools)} tools tested (--include-tool, --exclude-tool); "
                         f"left out: {', '.join(left_out)}")
        tools = chosen
    run.tools = tools


def lint(run: RunContext) -> None:
    run.results.extend(lint_tools(run.tools))


def plan(run: RunContext) -> None:
    """Decide which tools the searches, smoke checks and probes call, and announce the writers
    before any tools/call, so a front can warn before anything is written."""
    options, tools = run.options, run.tools
    searches = Searches(run.conn, options.profile, run.overrides, stop=run.budget)
    config = options.probe_config or ProbeConfig()
    excluded = frozenset(config.exclude)
    scenario_plan = plan_scenarios(tools, read_only=options.read_only, excluded=excluded)
    announcement = None
    if scenario_plan.may_write:
        announcement = ("scenarios call these tools, which may write: " + ", ".join(scenario_plan.may_write)
                        + " (use --read-only to call read-only tools only)")
        run.notes.append(announcement)
    run.emit(Planned([t.name for t in scenario_plan.called], scenario_plan.may_write, announcement))
    probe_run = ProbeRun(run.conn, run.lanes.lanes[0].pool, tools, options.profile, options.allow_writes,
                         config, options.allow_deletes, run.overrides, stop=run.budget, lanes=run.lanes)
    smoke_run = SmokeRun(run.conn, tools, searches, call_all=options.call_all, excluded=excluded)
    smoke_calls = {t.name for t in tools if options.smoke and smoke_run.callable_reason(t) is None}
    units = plan_units(tools, {t.name for t in scenario_plan.called}, smoke_calls)
    run.plan = Plan(searches, scenario_plan, smoke_run, probe_run, units)


def searches(run: RunContext) -> None:
    """Run the scheduled units on the lanes; the probes' first servers start while the searches
    wait on the server's answers."""
    planned = run.planned()
    jobs, more_servers = search_jobs(planned.units, run.search_unit, run.conn, planned.searches.stop)
    probing = run.options.probes and run.options.allow_writes and bool(planned.probes.write_tools())
    for lane in run.lanes.lanes[:len(jobs)] if more_servers else run.lanes.lanes if probing else []:
        lane.pool.prepare()
    if probing:
        planned.probes.learn_refusals()
    if not run.budget():
        found = read_missing(run.conn, planned.scenarios.called, run.overrides, run.options.profile.seed, run.budget)
        planned.reads.shapes.extend(found.shapes)
        planned.reads.results.extend(found.results)
        planned.reads.shapes.extend(invalid_refusals(run.conn, planned.scenarios.called, run.overrides, run.budget))
    run.lanes.run(jobs)
    if not run.budget():
        retry_unexercised(planned.searches, planned.scenarios.called, run.conn, run.budget)
    run.searching = False


def smoke(run: RunContext) -> None:
    run.smoke, checks = run.planned().smoke.run()
    run.results.extend(checks)
    run.item_finished(f"{len(checks)} tool check(s)", "fail" if run.smoke.failed else "pass")


def surfaces(run: RunContext) -> None:
    """The resource and prompt checks: read-only by the protocol, so part of every smoke run."""
    profile, stop = run.options.profile, run.budget
    run.surfaces = one_per_server([*ResourceChecks(run.conn, profile, stop, on_result=run.result_made).run(),
                                   *PromptChecks(run.conn, profile, stop, on_result=run.result_made).run()])
    run.results.extend(run.surfaces)


def scenarios(run: RunContext) -> None:
    planned = run.planned()
    run.results.extend(run_scenarios(planned.searches, planned.scenarios))
    run.results.extend(planned.reads.results)
    run.results.extend(error_as_success(planned.searches, run.tools,
                                        [*planned.probes.refusal_facts(), *planned.reads.shapes]))
    run.item_finished(f"{len(planned.scenarios.called)} tool(s)")


def probes(run: RunContext) -> None:
    probe_run = run.planned().probes
    probe_run.run()
    run.item_finished(f"{len(probe_run.results)} probe result(s)",
                      "fail" if any(r.status == "fail" for r in probe_run.results) else "pass")


OPENING = (Phase("catalog", catalog, items=False), Phase("lint", lint, items=False),
           Phase("plan", plan, items=False))
"""The phases before any tools/call; an interrupt here ends the run without a report."""

CHECKS = (Phase("searches", searches, on_lanes=True),
          Phase("smoke", smoke, wanted=lambda run: run.options.smoke),
          Phase("resources and prompts", surfaces, wanted=lambda run: run.options.smoke),
          Phase("scenarios", scenarios),
          Phase("probes", probes, wanted=lambda run: run.options.probes and not run.budget()))
"""The phases that call tools; an interrupt during them still gives a (partial) report."""
