"""The run's last phase: finish the results (finishing.py), score them and build the report."""

from __future__ import annotations

from hypothesis_mcp.checks.lint import lint_score
from hypothesis_mcp.finishing import finish
from hypothesis_mcp.results import Report, RunStats
from hypothesis_mcp.runcontext import RunContext
from hypothesis_mcp.scorecard import score_run
from hypothesis_mcp.version import __version__


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
    server = run.conn.server.to_dict() if run.conn.server else {}
    config_waivers = options.probe_config.ignore if options.probe_config else []
    finished = finish(results, smoke, run.surfaces, [*options.waivers, *config_waivers], target=run.target,
                      server_name=server.get("name", ""), refusals=run.refusals,
                      stdout=[s.stdout for s in run.stats])
    results, waivers, smoke = finished.results, finished.waivers, finished.smoke
    notes.extend(f"waiver {w['rule']}{':' + w['tool'] if w['tool'] else ''} ({w['source']}) matched no "
                 "failure or warning" for w in waivers if not w["matched"])
    grade_score, grade, subscores, cap = score_run(
        results, num_tools=len(run.tools), lint=lint_score(run.tools, results), cap_enabled=options.probe_grade_cap,
        interrupted=run.interrupted,
        write_tools={t.name for t in run.tools if t.is_write},
    )
    examples = planned.searches.examples + planned.probes.examples
    profile = options.profile
    return Report(
        tool={"name": "hypothesis-mcp", "version": __version__},
        target=run.target.describe(), profile=profile.name, seed=profile.seed, server=server,
        grade=grade, score=grade_score, subscores=subscores, grade_cap=cap, results=results, smoke=smoke,
        stats=RunStats(calls=sum(s.calls for s in run.stats), examples=examples,
                       server_starts=sum(s.server_starts for s in run.stats), duration_s=round(run.clock.elapsed, 2),
                       fresh_missed=planned.probes.fresh_missed),
        isolation=finished.isolation, notes=notes, tools_total=len(run.tools), interrupted=run.interrupted,
        partial_reasons=cut, waivers=waivers,
        server_env=[] if run.target.is_url else sorted(run.target.env),
    )
