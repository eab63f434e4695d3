"""Worker lanes for `--workers N`: jobs run in order on N threads, each with its own servers.

A lane owns a server pool and its own call counter, so the call budget of a shrink is never
charged for another lane's calls, and a warm server is never shared between lanes. With one
lane the jobs run in the calling thread, so Ctrl-C and tracebacks behave as without lanes.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis_mcp.connection import Connection, LearnedRefusal, Stats, Target
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.search.pool import ServerPool


@dataclass
class Lane:
    """One worker's servers: a pool of fresh ones, and the one its unit checks run on."""

    index: int
    pool: ServerPool
    stats: Stats
    current: Connection | None = None
    dirty: bool = False

    def clean_server(self, writes: bool) -> Connection:
        """A server nothing has written to yet; `writes` marks it used up for the next caller."""
        if self.current is None or self.dirty:
            if self.current is not None:
                self.pool.release(self.current)
            self.current = self.pool.acquire()
            self.dirty = False
        self.dirty = writes
        return self.current

    def close(self) -> None:
        if self.current is not None:
            self.pool.release(self.current)
            self.current = None
        self.pool.close()


Job = Callable[[Lane], None]


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def parse_workers(text: str) -> int:
    """`--workers`: a number of lanes, or `auto` for one per core this process may run on (results
    are the same for any number, so the machine may choose)."""
    if text.strip().lower() == "auto":
        return usable_cores()
    try:
        workers = int(text)
    except ValueError:
        workers = 0
    if workers < 1:
        raise UsageError(f"--workers takes a number of at least 1 or auto, not {text!r}")
    return workers


@dataclass
class Lanes:
    target: Target
    workers: int = 1
    timeout: float = 30.0
    startup_timeout: float = 30.0
    spares: int = 1
    aborted: threading.Event = field(default_factory=threading.Event)
    lanes: list[Lane] = field(default_factory=list)
    refusals: list[LearnedRefusal] = field(default_factory=list)
    """The refusal shapes every lane's servers read answers by, shared with the run's connection."""

    def __post_init__(self) -> None:
        for index in range(max(1, self.workers)):
            stats = Stats()
            pool = ServerPool(self.target, timeout=self.timeout, startup_timeout=self.startup_timeout,
                              stats=stats, spares=self.spares, refusals=self.refusals)
            self.lanes.append(Lane(index, pool, stats))

    @property
    def stats(self) -> list[Stats]:
        return [lane.stats for lane in self.lanes]

    def run(self, jobs: list[Job]) -> None:
        """Run every job once, in list order as lanes come free; re-raise the first error."""
        if not jobs:
            return
        if len(self.lanes) == 1:
            for job in jobs:
                job(self.lanes[0])
            return
        queue = list(reversed(jobs))
        lock = threading.Lock()
        errors: list[BaseException] = []

        def work(lane: Lane) -> None:
            while not self.aborted.is_set():
                with lock:
                    if not queue:
                        return
                    job = queue.pop()
                try:
                    job(lane)
                except BaseException as exc:  # handed to the caller's thread below
                    errors.append(exc)
                    self.aborted.set()

        threads = [threading.Thread(target=work, args=(lane,), name=f"hypothesis-mcp-lane-{lane.index}",
                                    daemon=True) for lane in self.lanes[:len(jobs)]]
        for thread in threads:
            thread.start()
        try:
            for thread in threads:
                thread.join()
        except KeyboardInterrupt:
            self.aborted.set()
            for thread in threads:
                thread.join()
            raise
        if errors:
            raise errors[0]

    def close(self) -> None:
        for lane in self.lanes:
            lane.close()
