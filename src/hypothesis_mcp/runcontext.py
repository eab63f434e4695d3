"""The state one run shares between its phases: options, connection, lanes, clock and budget,
counts, and what the phases have made so far."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.missing_reads import MissingReads
from hypothesis_mcp.checks.scenarios import ScenarioPlan
from hypothesis_mcp.checks.searches import Searches
from hypothesis_mcp.checks.smoke import SmokeRun
from hypothesis_mcp.connection import Connection, LearnedRefusal, Stats, Target
from hypothesis_mcp.events import Counts, CountsMoved, Event, Events, ItemFinished, ItemStarted
from hypothesis_mcp.options import RunOptions
from hypothesis_mcp.results import Report, Result, Smoke
from hypothesis_mcp.search.lanes import Lanes
from hypothesis_mcp.search.schedule import Unit
from hypothesis_mcp.stateful.probes import ProbeRun
from hypothesis_mcp.strategies import Overrides


class Clock:
    """Time since the run began, against `--max-time`."""

    def __init__(self, limit: float | None) -> None:
        self.start = time.perf_counter()
        self.limit = limit

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    @property
    def over(self) -> bool:
        return self.limit is not None and self.elapsed > self.limit


class Budget:
    """Whether the run must stop: checks and probes ask it before each step (it is their `stop`);
    a yes means the run is cut short, and `reasons` says why for the report."""

    def __init__(self, clock: Clock, aborted: threading.Event) -> None:
        self.clock = clock
        self.aborted = aborted
        self.reasons: list[str] = []

    def __call__(self) -> bool:
        if self.clock.over and not self.reasons:
            self.reasons.append(f"--max-time {self.clock.limit:g}s reached: later checks did not run")
        return self.clock.over or self.aborted.is_set()


@dataclass(frozen=True)
class Plan:
    """What the plan phase decided: the searches and probes to run and on which tools."""

    searches: Searches
    scenarios: ScenarioPlan
    smoke: SmokeRun
    probes: ProbeRun
    units: list[Unit]
    reads: MissingReads = field(default_factory=MissingReads)
    """What reads of ids nobody wrote showed, before the searches (checks.missing_reads)."""


@dataclass
class RunContext:
    options: RunOptions
    target: Target
    conn: Connection
    lanes: Lanes
    clock: Clock
    budget: Budget
    emit: Events
    stats: list[Stats]
    """The main connection's and every lane's call and server-start counters."""
    overrides: Overrides
    refusals: list[LearnedRefusal]
    """The server's own refusal shapes calibration showed; shared with every connection of the run."""
    tools: list[Tool] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    smoke: Smoke = field(default_factory=Smoke)
    surfaces: list[Result] = field(default_factory=list)
    plan: Plan | None = None
    phase: str = ""
    searching: bool = True
    """While true, the searches' failures are not yet results of their own."""
    interrupted: bool = False
    report: Report | None = None
    """Made by the scoring phase."""

    def planned(self) -> Plan:
        assert self.plan is not None, "the plan phase runs before the phases that use it"
        return self.plan

    def counts(self) -> Counts:
        """Work so far; read from another thread while lanes work, so only copies are iterated."""
        searches = self.plan.searches if self.plan else None
        probes = self.plan.probes if self.plan else None
        made = {id(r): r for r in [*self.results, *(probes.results if probes else ())]}.values()
        return Counts(
            examples=(searches.examples if searches else 0) + (probes.examples if probes else 0),
            calls=sum(s.calls for s in self.stats),
            failures=sum(r.status == "fail" for r in made) + (searches.failures if searches and self.searching else 0),
        )

    def item_started(self, name: str) -> None:
        self.emit(ItemStarted(self.phase, name, self.clock.elapsed, self.counts()))

    def item_finished(self, name: str, status: str = "") -> None:
        self.emit(ItemFinished(self.phase, name, status, self.clock.elapsed, self.counts()))

    def result_made(self, result: Result) -> None:
        """A check that reports result by result (resources, prompts): each one is an item, named by
        its check and subject."""
        self.item_finished(f"{result.check} on {result.subject}", result.status)

    def search_unit(self, unit: Unit, conn: Connection) -> None:
        """One scheduled unit of the searches on `conn`, as an item of the phase."""
        self.item_started(unit.tool.name)
        self.planned().searches.run_unit(unit, conn)
        self.item_finished(unit.tool.name)


class Ticker:
    """Tells the front of counts that move during a long search, a few times a second, from a
    thread of its own; only when they changed."""

    PERIOD = 0.25

    def __init__(self, run: RunContext) -> None:
        self.run = run
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._tick, daemon=True, name="hypothesis-mcp-ticker")

    def _tick(self) -> None:
        last = Counts()
        while not self.done.wait(self.PERIOD):
            try:
                now = self.run.counts()
            except RuntimeError:  # a cache changed size while it was read: count at the next tick
                continue
            if now != last:
                last = now
                event: Event = CountsMoved(self.run.clock.elapsed, now)
                self.run.emit(event)

    def __enter__(self) -> Ticker:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()
