"""What calibration costs: the grading run on the bench server with and without it.

    python bench/bench_calibration.py [--repeat 3]

The grading run (`--profile grading --smoke --probes --allow-writes`) on bench/kv_server.py, in this
process, twice per round: once as shipped, once with every calibration answering "nothing shown"
without a call. The order alternates between rounds so load from other work on a shared machine
slows both alike. Prints each round's wall times and calls, the ratio with/without (target <= 1.25)
and the load average.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from alternate import as_shipped, main

from hypothesis_mcp.stateful import probes
from hypothesis_mcp.stateful.calibrate import Calibration


@contextmanager
def uncalibrated() -> Iterator[None]:
    shipped = probes.calibrate
    probes.calibrate = lambda run, tool, *rest: Calibration(tool.name)  # type: ignore[assignment]
    try:
        yield
    finally:
        probes.calibrate = shipped


if __name__ == "__main__":
    main(__doc__, ("with calibration", "without"), (as_shipped, uncalibrated))
