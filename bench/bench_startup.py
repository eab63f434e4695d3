"""How fast the command line answers `--version` and `--help`, against a bare interpreter.

    python bench/bench_startup.py [--repeat 15]

Each row starts the venv's `hypothesis-mcp` console script (or `python -c pass`) as a fresh process
`--repeat` times and prints the median and best wall time and the ratio of the median to the bare
interpreter's. No assertion: the numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def script() -> str:
    beside = Path(sys.executable).parent / "hypothesis-mcp"
    found = str(beside) if beside.exists() else shutil.which("hypothesis-mcp")
    if found is None:
        raise SystemExit("the hypothesis-mcp console script is not installed (pip install -e .)")
    return found


def wall_times(argv: list[str], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    repeat = parser.parse_args().repeat
    command = script()
    rows = [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("hypothesis-mcp --version", [command, "--version"]),
        ("hypothesis-mcp --help", [command, "--help"]),
        ("hypothesis-mcp test --help", [command, "test", "--help"]),
    ]
    baseline = 0.0
    print(f"{'command':<30} {'median':>8} {'best':>8} {'ratio':>7}   ({repeat} runs each)")
    for name, argv in rows:
        times = wall_times(argv, repeat)
        median = statistics.median(times)
        baseline = baseline or median
        print(f"{name:<30} {median:>7.3f}s {min(times):>7.3f}s {median / baseline:>6.1f}x")


if __name__ == "__main__":
    main()
