"""Each tool's two searches as one unit of work that any lane can run.

A unit runs on a server that only read tools have been called on, so what it finds does not
depend on which lane ran it or on what ran before it: `--workers N` gives the same results as
one worker. The first units, up to the first that writes, run on the run's own connection,
whose state the later checks on it (the unknown-tool call, agreements) then see. Write tools of
one shape (the same schemas and hints: `put_value_1` … `put_value_16` of one generated family)
after the first of it are one job: their units run in catalog order on one server, each after
the writes of those before it, so a server of many alike write tools starts one server for them,
not one each, and what each finds still depends on the catalog alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection
from hypothesis_mcp.search.lanes import Job, Lane
from hypothesis_mcp.search.saved import digest
from hypothesis_mcp.strategies.dialect import schema_problem


@dataclass(frozen=True)
class Unit:
    """One tool's searches: with valid arguments, with invalid ones, or both."""

    tool: Tool
    valid: bool
    invalid: bool

    @property
    def writes(self) -> bool:
        return self.tool.is_write or not self.tool.is_read

    @property
    def shape(self) -> str:
        """What the unit's calls depend on apart from the tool's name."""
        tool = self.tool
        return digest([tool.input_schema, tool.output_schema, tool.annotations, self.valid, self.invalid])


RunUnit = Callable[[Unit, Connection], None]


def plan_units(tools: list[Tool], scenario: set[str], smoke_calls: set[str]) -> list[Unit]:
    """The searches the scenarios and the smoke checks will read, per tool, in catalog order.
    `scenario` are the tools the scenarios call, `smoke_calls` those the smoke checks may call."""
    units = []
    for tool in tools:
        smoke = tool.name in smoke_calls
        judged = tool.output_schema is not None and schema_problem(tool.output_schema) is None
        valid = tool.name in scenario or (smoke and judged)
        invalid = tool.name in scenario or smoke
        if valid or invalid:
            units.append(Unit(tool, valid, invalid))
    return units


def search_jobs(units: list[Unit], run_unit: RunUnit, main: Connection,
                stop: Callable[[], bool]) -> tuple[list[Job], bool]:
    """The jobs for lanes, and whether any of them needs a server besides `main`."""
    first_write = next((i for i, unit in enumerate(units) if unit.writes), len(units))
    head, rest = units[:first_write + 1], units[first_write + 1:]

    def on_main(lane: Lane) -> None:
        for unit in head:
            run_unit(unit, main)

    def on_lane(group: list[Unit]) -> Job:
        def job(lane: Lane) -> None:
            conn: Connection | None = None
            for unit in group:
                # Past --max-time every search is skipped without a call: no server needs starting for it.
                conn = main if stop() else conn or lane.clean_server(unit.writes)
                run_unit(unit, conn)
        return job

    alike: dict[str, list[Unit]] = {}
    groups: list[list[Unit]] = []
    for unit in rest:
        if unit.writes and unit.shape in alike:
            alike[unit.shape].append(unit)
            continue
        groups.append([unit])
        if unit.writes:
            alike[unit.shape] = groups[-1]
    jobs: list[Job] = [on_main] if head else []
    jobs.extend(on_lane(group) for group in groups)
    return jobs, bool(rest)
