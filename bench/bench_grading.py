"""Grading in seconds: one bench run on a small correct key-value server (bench/kv_server.py).

    python bench/bench_grading.py [--repeat 3] [--workers auto]

In one process, alternating in each round so load from other work slows all alike:

- the raw SDK `call_tool` loop's calls per second (the per-call floor);
- our grading run, `hypothesis-mcp test --profile grading --smoke --probes --allow-writes`, as its own
  process (wall time, calls, server starts from its JSON report);
- the same run in this process, for the calls per second of time spent in calls (server starts
  and the time between calls left out, as in the raw loop); the process's objects are frozen
  for the collector first, as the console script does;
- the raw SDK client replaying that run's own calls (tools, prompts, resources, in order) on one
  warm server: the same work without our engine, fresh servers or spares starting beside it;
- mcpscore 1.29.0 `--smoke --call-all` and tool-scorer 1.10.0 `toolscore mcp test` on the same
  server (wall time unwrapped; calls counted by bench/count_calls.py in a second, wrapped run).

Prints best and spread of each, and the issue's ratios: grading calls/s over raw (target >= 0.85;
also over the replay of the same calls, which is not the target's baseline but says how much of
the gap is the calls themselves),
grading wall over mcpscore's (<= 3), grading calls over tool-scorer's (>= 10). The peers are
installed into .cache/bench-venv-peers on the first run (see bench_end_to_end.py).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from bench_end_to_end import COUNTER, OURS, PEERS, install_peers
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from hypothesis_mcp import engine
from hypothesis_mcp.connection import Stats, parse_target
from hypothesis_mcp.connection.connection import Connection
from hypothesis_mcp.engine import RunOptions
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.search import lanes

ROOT = Path(__file__).resolve().parents[1]
SERVER = [sys.executable, str(ROOT / "bench/kv_server.py")]
GRADING = ["test", "--profile", "grading", "--smoke", "--probes", "--allow-writes"]


async def raw_loop(calls: int) -> float:
    """Calls per second of a bare SDK client calling a read tool in a loop (best of 3 rounds)."""
    best = 0.0
    async with Client(StdioServerParameters(command=SERVER[0], args=SERVER[1:]), cache=None) as client:
        await client.list_tools()
        for _ in range(3):
            started = time.perf_counter()
            for _ in range(calls):
                await client.call_tool("list_keys", {"limit": 5})
            best = max(best, calls / (time.perf_counter() - started))
    return best


async def raw_replay(calls: list[tuple[str, dict[str, Any]]]) -> float:
    """Calls per second of call time of a bare SDK client making `calls` in order on one server."""
    spent = 0.0
    # The unknown-prompt call makes the SDK server print a traceback: kept off the bench's output.
    quiet = ["/bin/sh", "-c", 'exec "$0" "$@" 2>/dev/null', *SERVER]
    async with Client(StdioServerParameters(command=quiet[0], args=quiet[1:]), cache=None) as client:
        await client.list_tools()
        for method, params in calls:
            started = time.perf_counter()
            try:
                if method == "tools/call":
                    await client.call_tool(params["name"], params["arguments"])
                elif method == "prompts/get":
                    await client.get_prompt(params["name"], params["arguments"])
                else:
                    await client.read_resource(params["uri"])
            except Exception:  # an error answer is an answer: the replay only times it
                pass
            spent += time.perf_counter() - started
    return len(calls) / spent


class Recorded(Stats):
    """Stats that remember every instance, so the calls of all lanes can be summed afterwards."""

    made: ClassVar[list[Stats]] = []

    def __init__(self) -> None:
        super().__init__()
        Recorded.made.append(self)


REPLAYED = ("tools/call", "prompts/get", "resources/read")


def in_process(workers: str) -> tuple[int, float, float, list[tuple[str, dict[str, Any]]]]:
    """Calls, seconds spent in calls, wall seconds and the calls made, of a grading run in this process."""
    Recorded.made = []
    engine.Stats = lanes.Stats = Recorded  # type: ignore[attr-defined, misc]
    made: list[tuple[str, dict[str, Any]]] = []
    record = Connection._record

    def recording(self: Connection, method: str, params: dict[str, Any], *args: Any) -> None:
        if method in REPLAYED:
            made.append((method, params))
        record(self, method, params, *args)

    Connection._record = recording  # type: ignore[method-assign, assignment]
    started = time.perf_counter()
    try:
        engine.run(parse_target(SERVER), RunOptions(profile=make_profile("grading"), smoke=True, probes=True,
                                                     allow_writes=True, workers=_workers(workers)))
    finally:
        Connection._record = record  # type: ignore[method-assign]
    wall = time.perf_counter() - started
    return sum(s.calls for s in Recorded.made), sum(s.call_seconds for s in Recorded.made), wall, made


def _workers(workers: str) -> int:
    return max(1, os.cpu_count() or 1) if workers == "auto" else int(workers)


def cli_run(workers: str, work: Path) -> tuple[float, int, int, int, str]:
    """Wall seconds, calls, server starts and exit code of the CLI run, and its JSON without duration."""
    report = work / "report.json"
    started = time.perf_counter()
    done = subprocess.run([str(OURS), *GRADING, "--workers", workers, "--json", str(report), "--", *SERVER],
                          cwd=work, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=900)
    wall = time.perf_counter() - started
    data = json.loads(report.read_text())
    stats = data["stats"]
    stats.pop("duration_s")
    return wall, stats["calls"], stats["server_starts"], done.returncode, json.dumps(data, sort_keys=True)


def peer(argv: list[str], work: Path) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=work, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=300)
    return time.perf_counter() - started


def peer_calls(argv_of: Callable[[list[str]], list[str]], work: Path) -> int:
    count = work / "calls"
    count.write_bytes(b"")
    peer(argv_of([*COUNTER, str(count), *SERVER]), work)
    return count.stat().st_size


def mcpscore(server: list[str]) -> list[str]:
    return [str(PEERS / "bin/mcpscore"), "--smoke", "--call-all", "--stdio", *server]


def toolscore(server: list[str]) -> list[str]:
    return [str(PEERS / "bin/toolscore"), "mcp", "test", " ".join(server)]


def spread(values: list[float], best: float, unit: str = "") -> str:
    return f"best {best:.2f}{unit}, {min(values):.2f}-{max(values):.2f}{unit}, median {statistics.median(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", default="auto", help="passed to the grading run (default auto)")
    parser.add_argument("--calls", type=int, default=300, help="calls per round of the raw loop")
    options = parser.parse_args()
    problems = install_peers()
    if problems:
        sys.exit(f"the peers could not be installed: {problems}")
    print(f"load average at start: {os.getloadavg()[0]:.2f}; cores: {os.cpu_count()}")
    gc.freeze()
    raw: list[float] = []
    replayed: list[float] = []
    rate: list[float] = []
    walls: list[float] = []
    inproc_walls: list[float] = []
    mcps: list[float] = []
    tools: list[float] = []
    calls: set[int] = set()
    starts: list[int] = []
    codes: set[int] = set()
    reports: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as folder:
        work = Path(folder)
        for index in range(options.repeat):
            raw.append(asyncio.run(raw_loop(options.calls)))
            wall, made, started, code, report = cli_run(options.workers, work)
            walls.append(wall)
            calls.add(made)
            starts.append(started)
            codes.add(code)
            reports.add(report)
            made_here, call_seconds, wall_here, their_calls = in_process(options.workers)
            rate.append(made_here / call_seconds)
            inproc_walls.append(wall_here)
            replayed.append(asyncio.run(raw_replay(their_calls)))
            mcps.append(peer(mcpscore(SERVER), work))
            tools.append(peer(toolscore(SERVER), work))
            print(f"round {index + 1}: raw {raw[-1]:.0f} calls/s; grading {wall:.1f} s, {made} calls, "
                  f"{started} starts, exit {code}, {rate[-1]:.0f} calls/s in calls; in process {wall_here:.1f} s; "
                  f"raw replay of its calls {replayed[-1]:.0f} calls/s; "
                  f"mcpscore {mcps[-1]:.1f} s; tool-scorer {tools[-1]:.1f} s; "
                  f"load {os.getloadavg()[0]:.1f}", flush=True)
        mcp_calls = peer_calls(mcpscore, work)
        tool_calls = peer_calls(toolscore, work)
    made = max(calls)
    print(f"raw SDK loop calls/s: {spread(raw, max(raw))}")
    print(f"grading calls/s (time in calls): {spread(rate, max(rate))}")
    print(f"raw SDK replay of the grading run's calls, one warm server, calls/s: {spread(replayed, max(replayed))}")
    print(f"grading wall s (CLI): {spread(walls, min(walls))}; in process: {spread(inproc_walls, min(inproc_walls))}")
    print(f"grading calls: {sorted(calls)}; server starts: {starts}; exit codes: {sorted(codes)}; "
          f"JSON identical across rounds apart from duration_s: {len(reports) == 1}")
    print(f"mcpscore wall s: {spread(mcps, min(mcps))}; calls {mcp_calls}")
    print(f"tool-scorer wall s: {spread(tools, min(tools))}; calls {tool_calls}")
    paired = [r / w for r, w in zip(rate, raw, strict=True)]
    walled = [w / m for w, m in zip(walls, mcps, strict=True)]
    print(f"ratio grading calls/s / raw: {spread(paired, max(paired))} (target >= 0.85)")
    same = [r / w for r, w in zip(rate, replayed, strict=True)]
    print(f"ratio grading calls/s / raw replay of the same calls: {spread(same, max(same))}")
    print(f"ratio grading wall / mcpscore wall: {spread(walled, min(walled))} (target <= 3)")
    print(f"ratio grading calls / tool-scorer calls: {made / max(1, tool_calls):.1f} (target >= 10)")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
