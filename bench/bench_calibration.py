"""What calibration costs: the grading run on the bench server with and without it.

    python bench/bench_calibration.py [--repeat 3]

The grading run (`--profile grading --smoke --probes --allow-writes`) on bench/kv_server.py, in this
process, twice per round: once as shipped, once with every calibration answering "nothing shown"
without a call. The order alternates between rounds so load from other work on a shared machine
slows both alike. Prints each round's wall times and calls, the ratio with/without (target <= 1.25)
and the load average.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from hypothesis_mcp import engine
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.engine import RunOptions
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.stateful import probes
from hypothesis_mcp.stateful.calibrate import Calibration

SERVER = [sys.executable, str(Path(__file__).resolve().parents[1] / "bench/kv_server.py")]


def graded(calibrating: bool) -> tuple[float, int]:
    """Wall seconds and calls of one grading run, calibrating or not."""
    shipped = probes.calibrate
    if not calibrating:
        probes.calibrate = lambda run, tool, *rest: Calibration(tool.name)  # type: ignore[assignment]
    started = time.perf_counter()
    try:
        report = engine.run(parse_target(SERVER), RunOptions(profile=make_profile("grading"), smoke=True,
                                                             probes=True, allow_writes=True))
    finally:
        probes.calibrate = shipped
    return time.perf_counter() - started, report.stats.calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}; cores: {os.cpu_count()}", flush=True)
    gc.freeze()
    walls: dict[bool, list[float]] = {True: [], False: []}
    ratios: list[float] = []
    for index in range(options.repeat):
        order = (True, False) if index % 2 == 0 else (False, True)
        seen: dict[bool, Any] = {}
        for calibrating in order:
            seen[calibrating] = graded(calibrating)
            walls[calibrating].append(seen[calibrating][0])
        ratios.append(seen[True][0] / seen[False][0])
        print(f"round {index + 1}: with calibration {seen[True][0]:.1f} s, {seen[True][1]} calls; without "
              f"{seen[False][0]:.1f} s, {seen[False][1]} calls; ratio {ratios[-1]:.2f}; "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"with calibration: best {min(walls[True]):.1f} s, median {statistics.median(walls[True]):.1f} s")
    print(f"without: best {min(walls[False]):.1f} s, median {statistics.median(walls[False]):.1f} s")
    print(f"ratio with/without: median {statistics.median(ratios):.2f}, best-to-best "
          f"{min(walls[True]) / min(walls[False]):.2f} (target <= 1.25)")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
