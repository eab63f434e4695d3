"""Runs a profile over a target and returns the report; knows nothing of the CLI or formats."""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager, nullcontext

from hypothesis_mcp.connection import Connection, LearnedRefusal, Stats, Target
from hypothesis_mcp.events import Event, Events
from hypothesis_mcp.options import RunOptions as RunOptions
from hypothesis_mcp.phases import CHECKS, OPENING, Phase, run_phase
from hypothesis_mcp.results import Report
from hypothesis_mcp.runcontext import Budget, Clock, RunContext, Ticker
from hypothesis_mcp.scoring import score
from hypothesis_mcp.search.lanes import Lanes
from hypothesis_mcp.strategies import Overrides


def _ignore(event: Event) -> None:
    """No front listens."""


def _scoring(run: RunContext) -> None:
    run.report = score(run)


SCORING = Phase("scoring", _scoring, items=False)


def run(target: Target, options: RunOptions, events: Events | None = None) -> Report:
    """Connect, run the phases in order over one run context and return the report."""
    clock = Clock(options.max_time)
    stats = Stats()
    overrides = options.overrides or Overrides()
    if options.probe_config is not None and options.probe_config.args:
        overrides = Overrides.from_mapping(options.probe_config.args, "probe config args") | overrides
    refusals: list[LearnedRefusal] = []
    """The server's own refusal shapes, once calibration shows them: every connection reads by them."""
    conn = Connection(target, timeout=options.timeout, startup_timeout=options.startup_timeout, stats=stats,
                      refusals=refusals)
    conn.open()
    target = conn.target  # greeted with initialize: every later start greets that way at once
    lanes = Lanes(target, workers=options.workers, timeout=options.timeout, startup_timeout=options.startup_timeout,
                  spares=1 if options.probes and options.allow_writes else 0, refusals=refusals)
    context = RunContext(options=options, target=target, conn=conn, lanes=lanes, clock=clock,
                         budget=Budget(clock, lanes.aborted), emit=events or _ignore,
                         stats=[stats, *lanes.stats], overrides=overrides, refusals=refusals)
    ticker: AbstractContextManager[object] = Ticker(context) if events is not None else nullcontext()
    try:
        with ticker:
            for phase in OPENING:
                run_phase(context, phase)
            try:
                for phase in CHECKS:
                    run_phase(context, phase)
            except KeyboardInterrupt:
                context.interrupted = True
                context.budget.reasons.insert(0, "interrupted (Ctrl-C or SIGTERM) before every check ran")
            run_phase(context, SCORING)
        assert context.report is not None
        return context.report
    finally:
        # Every server is told to stop at once and they exit side by side: each takes a few tenths
        # of a second after its input closes, which one after another added up at the end of a run.
        closing = threading.Thread(target=conn.close, daemon=True)
        closing.start()
        lanes.close()
        closing.join()
