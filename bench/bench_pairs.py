"""Grading's wall against the number of tools, side by side with mcpscore.

    python bench/bench_pairs.py [--pairs 0,1,4,8,16] [--repeat 2]

On `bench/kv_server.py --pairs N` (N put/get pairs, each its own store, and one list_keys: 2N + 1
tools; N = 0 is the bench server itself, put_value/get_value/list_keys), in rounds: our grading run
(`hypothesis-mcp test --profile grading --smoke --probes --allow-writes`, its own process; calls and
server starts from its JSON report) and mcpscore 1.29.0 `--smoke --call-all`, the order of the two
alternating between rounds, so load from other work slows both alike. Each side keeps its best wall
of the rounds, and the CPU seconds of each run (servers included), the steadier measure on a shared
machine. Prints, per N, both walls, our calls and server starts, mcpscore's calls (counted
once through bench/count_calls.py) and the ratio of the walls; then the least-squares slope of our
best walls over N >= 1 (seconds per extra put/get pair) and the slope of each step between sizes, so
growth faster than linear shows. The issue's targets: a 16-pair server within 20 s and within 7
times mcpscore's wall, the bench server within 2.5 times, and under 0.5 s per extra pair.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from itertools import pairwise
from pathlib import Path

from bench_end_to_end import COUNTER, OURS, install_peers
from bench_grading import GRADING, mcpscore, peer

ROOT = Path(__file__).resolve().parents[1]


def server(pairs: int) -> list[str]:
    return [sys.executable, str(ROOT / "bench/kv_server.py"), *(["--pairs", str(pairs)] if pairs else [])]


def cpu() -> float:
    """CPU seconds (user and system) of the finished child processes and the servers they waited for."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def ours(pairs: int, work: Path) -> tuple[float, float, int, int, int, str]:
    """Wall and CPU seconds, calls, server starts and exit code of one grading run, and its JSON
    without duration."""
    report = work / f"report-{pairs}.json"
    started, spent = time.perf_counter(), cpu()
    done = subprocess.run([str(OURS), *GRADING, "--json", str(report), "--", *server(pairs)], cwd=work,
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)
    wall, spent = time.perf_counter() - started, cpu() - spent
    data = json.loads(report.read_text())
    stats = data["stats"]
    stats.pop("duration_s")
    return wall, spent, stats["calls"], stats["server_starts"], done.returncode, json.dumps(data, sort_keys=True)


def their_calls(pairs: int, work: Path) -> int:
    """mcpscore's calls on the server, counted by the proxy its server command runs through."""
    count = work / "calls"
    count.write_bytes(b"")
    peer(mcpscore([*COUNTER, str(count), *server(pairs)]), work)
    return count.stat().st_size


def slope(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of y over x."""
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", default="0,1,4,8,16", help="server sizes, comma-separated (0: the bench server)")
    parser.add_argument("--repeat", type=int, default=2, help="rounds; each side keeps its best")
    options = parser.parse_args()
    sizes = [int(n) for n in options.pairs.split(",")]
    problems = install_peers()
    if problems.get("mcpscore"):
        sys.exit(f"mcpscore could not be installed: {problems['mcpscore']}")
    print(f"load average at start: {os.getloadavg()[0]:.2f}; cores: {os.cpu_count()}", flush=True)
    walls: dict[int, list[float]] = {n: [] for n in sizes}
    theirs: dict[int, list[float]] = {n: [] for n in sizes}
    our_cpu: dict[int, list[float]] = {n: [] for n in sizes}
    their_cpu: dict[int, list[float]] = {n: [] for n in sizes}
    seen: dict[int, tuple[int, int, set[int], set[str]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-pairs-") as folder:
        work = Path(folder)
        for index in range(options.repeat):
            for n in sizes:
                for side in ("ours", "mcpscore") if index % 2 == 0 else ("mcpscore", "ours"):
                    if side == "mcpscore":
                        spent = cpu()
                        theirs[n].append(peer(mcpscore(server(n)), work))
                        their_cpu[n].append(cpu() - spent)
                        continue
                    wall, spent, calls, starts, code, report = ours(n, work)
                    walls[n].append(wall)
                    our_cpu[n].append(spent)
                    _, _, codes, reports = seen.setdefault(n, (calls, starts, set(), set()))
                    codes.add(code)
                    reports.add(report)
                print(f"round {index + 1}, {n} pair(s): ours {walls[n][-1]:.1f} s ({our_cpu[n][-1]:.1f} s CPU, "
                      f"{calls} calls, {starts} starts, exit {code}), mcpscore {theirs[n][-1]:.1f} s "
                      f"({their_cpu[n][-1]:.1f} s CPU), load {os.getloadavg()[0]:.1f}", flush=True)
        counted = {n: their_calls(n, work) for n in sizes}
    print("| pairs | tools | ours best s (rounds) | ours CPU s | calls | server starts | exit | mcpscore best s | "
          "its CPU s | its calls | wall ratio | CPU ratio |\n|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        calls, starts, codes, reports = seen[n]
        same = "" if len(reports) == 1 else " (JSON differed between rounds)"
        rounds = ", ".join(f"{w:.1f}" for w in walls[n])
        print(f"| {n} | {2 * n + 1 if n else 3} | {min(walls[n]):.1f} ({rounds}) | {min(our_cpu[n]):.1f} | {calls} | "
              f"{starts} | {', '.join(map(str, sorted(codes)))}{same} | {min(theirs[n]):.1f} | "
              f"{min(their_cpu[n]):.1f} | {counted[n]} | {min(walls[n]) / min(theirs[n]):.1f} | "
              f"{min(our_cpu[n]) / min(their_cpu[n]):.1f} |")
    points = [(n, min(walls[n])) for n in sizes if n >= 1]
    if len(points) >= 2:
        steps = ", ".join(f"{a}->{b}: {(wb - wa) / (b - a):.2f}" for (a, wa), (b, wb) in pairwise(points))
        print(f"wall seconds per extra pair: least squares {slope(points):.2f} (target < 0.5); by step {steps}")
        used = [(n, min(our_cpu[n])) for n in sizes if n >= 1]
        print(f"CPU seconds per extra pair: least squares {slope(used):.2f}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
