"""Each tool's two searches as one unit of work that any lane can run.

A unit runs on a server that only read tools have been called on, so what it finds does not
depend on which lane ran it or on what ran before it: `--workers N` gives the same results as
one worker. The first units, up to the first that writes, run on the run's own connection,
whose state the later checks on it (the unknown-tool call, agreements) then see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.hunts import Searches
from hypothesis_mcp.checks.outcomes import schema_problem
from hypothesis_mcp.checks.scenarios import ScenarioPlan
from hypothesis_mcp.connection import Connection
from hypothesis_mcp.lanes import Job, Lane


@dataclass(frozen=True)
class Unit:
    tool: Tool
    valid: bool
    invalid: bool

    @property
    def writes(self) -> bool:
        return self.tool.is_write or not self.tool.is_read

    def run(self, searches: Searches, conn: Connection) -> None:
        if self.valid:
            searches.valid(self.tool, conn)
        if self.invalid:
            searches.invalid(self.tool, conn)


def plan_units(tools: list[Tool], scenario_plan: ScenarioPlan, smoke_calls: set[str]) -> list[Unit]:
    """The searches the scenarios and the smoke checks will read, per tool, in catalog order.
    `smoke_calls` are the tools the smoke checks may call."""
    scenario = {t.name for t in scenario_plan.called}
    units = []
    for tool in tools:
        smoke = tool.name in smoke_calls
        judged = tool.output_schema is not None and schema_problem(tool.output_schema) is None
        valid = tool.name in scenario or (smoke and judged)
        invalid = tool.name in scenario or smoke
        if valid or invalid:
            units.append(Unit(tool, valid, invalid))
    return units


def search_jobs(units: list[Unit], searches: Searches, main: Connection,
                progress: Callable[[Unit, str], None] = lambda unit, phase: None) -> tuple[list[Job], bool]:
    """The jobs for lanes, and whether any of them needs a server besides `main`. `progress` is
    told when each unit starts and is done."""
    first_write = next((i for i, unit in enumerate(units) if unit.writes), len(units))
    head, rest = units[:first_write + 1], units[first_write + 1:]

    def run(unit: Unit, conn: Connection) -> None:
        progress(unit, "start")
        unit.run(searches, conn)
        progress(unit, "done")

    def on_main(lane: Lane) -> None:
        for unit in head:
            run(unit, main)

    def on_lane(unit: Unit) -> Job:
        # Past --max-time every search is skipped without a call: no server needs starting for it.
        return lambda lane: run(unit, main if searches.stop() else lane.clean_server(unit.writes))

    jobs: list[Job] = [on_main] if head else []
    jobs.extend(on_lane(unit) for unit in rest)
    return jobs, bool(rest)
