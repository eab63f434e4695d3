"""Two sides of one grading run measured in alternating rounds, so that load from other work on a
shared machine slows both alike: each round's wall times, calls and ratio, then medians, bests and
the best-to-best ratio against a target."""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from hypothesis_mcp import engine
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.engine import RunOptions
from hypothesis_mcp.profiles import make_profile

SERVER = [sys.executable, str(Path(__file__).resolve().parents[1] / "bench/kv_server.py")]
Side = Callable[[], AbstractContextManager[None]]
"""What a side changes for the length of its run (a context manager that patches and restores)."""


def graded(side: Side) -> tuple[float, int]:
    """Wall seconds and calls of one grading run (`--smoke --probes --allow-writes`) on the bench
    server, in this process, with `side` in force."""
    with side():
        started = time.perf_counter()
        report = engine.run(parse_target(SERVER), RunOptions(profile=make_profile("grading"), smoke=True,
                                                             probes=True, allow_writes=True))
        return time.perf_counter() - started, report.stats.calls


def compare(names: tuple[str, str], sides: tuple[Side, Side], repeat: int, target: float) -> None:
    """Print rounds of both sides (order alternating) and the ratio first/second against `target`."""
    print(f"load average at start: {os.getloadavg()[0]:.2f}; cores: {os.cpu_count()}", flush=True)
    gc.freeze()
    walls: list[list[float]] = [[], []]
    ratios: list[float] = []
    for index in range(repeat):
        seen: dict[int, tuple[float, int]] = {}
        for which in (0, 1) if index % 2 == 0 else (1, 0):
            seen[which] = graded(sides[which])
            walls[which].append(seen[which][0])
        ratios.append(seen[0][0] / seen[1][0])
        print(f"round {index + 1}: {names[0]} {seen[0][0]:.1f} s, {seen[0][1]} calls; {names[1]} "
              f"{seen[1][0]:.1f} s, {seen[1][1]} calls; ratio {ratios[-1]:.2f}; load {os.getloadavg()[0]:.1f}",
              flush=True)
    for which in (0, 1):
        print(f"{names[which]}: best {min(walls[which]):.1f} s, median {statistics.median(walls[which]):.1f} s")
    print(f"ratio {names[0]}/{names[1]}: median {statistics.median(ratios):.2f}, best-to-best "
          f"{min(walls[0]) / min(walls[1]):.2f} (target <= {target:.2f})")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


@contextmanager
def as_shipped() -> Iterator[None]:
    """The side that changes nothing."""
    yield


def main(doc: str | None, names: tuple[str, str], sides: tuple[Side, Side], target: float = 1.25) -> None:
    """A benchmark's command line: `--repeat N` rounds of `compare`."""
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--repeat", type=int, default=3)
    compare(names, sides, parser.parse_args().repeat, target)
