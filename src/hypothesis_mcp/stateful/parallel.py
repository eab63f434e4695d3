"""Effect probes on worker lanes: each write tool's round trip, and the bounds, as one job.

A job runs on a copy of the probe run that records what it would add; the records are then
added to the real run in the order a sequential run makes them, so `add_finding`'s choice of
the surest, shortest failure sees the same history whatever the number of lanes. Each job gets
a new warm server, so one job's leftovers cannot steer another job's shrinking.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.results import Result
from hypothesis_mcp.search.lanes import Lane, Lanes
from hypothesis_mcp.stateful.judge import ProbeFinding
from hypothesis_mcp.stateful.probes import ProbeRun

Work = Callable[[ProbeRun], None]


@dataclass
class _Recorder(ProbeRun):
    ops: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)

    def add(self, *args: Any, **kwargs: Any) -> None:
        self.ops.append(("add", args, kwargs))

    def add_finding(self, finding: ProbeFinding) -> None:
        self.ops.append(("add_finding", (finding,), {}))


@dataclass
class _Job:
    work: Work
    recorder: _Recorder | None = None

    def run(self, parent: ProbeRun, lane: Lane) -> None:
        lane.pool.retire_warm()
        self.recorder = _Recorder(conn=parent.conn, pool=lane.pool, tools=parent.tools, profile=parent.profile,
                                  allow_writes=parent.allow_writes, config=parent.config,
                                  overrides=parent.overrides, stop=parent.stop)
        self.work(self.recorder)

    def replay(self, parent: ProbeRun) -> None:
        if self.recorder is None:
            return
        for name, args, kwargs in self.recorder.ops:
            getattr(parent, name)(*args, **kwargs)
        parent.examples += self.recorder.examples
        parent.notes.extend(self.recorder.notes)


@dataclass
class LanedProbeRun(ProbeRun):
    """A ProbeRun whose round trips and bounds run as jobs on `lanes`."""

    lanes: Lanes | None = None
    _jobs: list[_Job] = field(default_factory=list)

    def run(self) -> list[Result]:
        super().run()
        self._flush()
        return self.results

    def round_trip(self, tool: Tool) -> None:
        self._jobs.append(_Job(lambda run: ProbeRun.round_trip(run, tool)))

    def bounds(self) -> None:
        self._jobs.append(_Job(ProbeRun.bounds))

    def add(self, *args: Any, **kwargs: Any) -> None:
        if self._jobs:  # keep its place after the jobs scheduled before it
            self._jobs.append(_Job(lambda run: run.add(*args, **kwargs)))
        else:
            super().add(*args, **kwargs)

    def agreements(self) -> None:
        self._flush()
        super().agreements()

    def _flush(self) -> None:
        jobs, self._jobs = self._jobs, []
        if not jobs:
            return
        assert self.lanes is not None
        self.lanes.run([lambda lane, job=job: job.run(self, lane) for job in jobs])  # type: ignore[misc]
        for job in jobs:
            job.replay(self)
