"""Per-call overhead: our synchronous facade and a probe run against a raw SDK `call_tool` loop.

    python bench/bench_calls.py [--calls 500]

All three run in this process on the same server (the bundled sample server over stdio) and print
calls per second and the ratio to the raw loop (1.0 means no overhead; the target is >= 0.7).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from hypothesis_mcp.connection import Connection, Stats, parse_target
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.stateful.pool import ServerPool
from hypothesis_mcp.stateful.probes import ProbeRun

SERVER = [sys.executable, "-m", "hypothesis_mcp.sample_server"]
ARGS = {"limit": 5}


async def raw_loop(calls: int) -> float:
    params = StdioServerParameters(command=SERVER[0], args=SERVER[1:])
    async with Client(params, cache=None) as client:
        await client.list_tools()
        started = time.perf_counter()
        for _ in range(calls):
            await client.call_tool("list_notes", ARGS)
        return calls / (time.perf_counter() - started)


def facade_loop(calls: int) -> float:
    with Connection(SERVER) as conn:
        conn.list_tools()
        started = time.perf_counter()
        for _ in range(calls):
            conn.call("list_notes", ARGS)
        return calls / (time.perf_counter() - started)


def probe_run() -> tuple[float, int]:
    """Calls per second of call time during the grading probe run (server start-up excluded)."""
    stats = Stats()
    target = parse_target(SERVER)
    with Connection(target, stats=stats) as conn:
        tools = conn.list_tools()
        pool = ServerPool(target, timeout=30, stats=stats)
        try:
            ProbeRun(conn, pool, tools, make_profile("grading"), allow_writes=True).run()
        finally:
            pool.close()
    return stats.calls / stats.call_seconds, stats.calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=500)
    calls = parser.parse_args().calls
    raw = asyncio.run(raw_loop(calls))
    facade = facade_loop(calls)
    probe, probe_calls = probe_run()
    print(f"{'loop':<34}{'calls/s':>10}{'ratio':>8}")
    print(f"{'raw SDK call_tool loop':<34}{raw:>10.0f}{1.0:>8.2f}")
    print(f"{'hypothesis-mcp Connection.call':<34}{facade:>10.0f}{facade / raw:>8.2f}")
    print(f"{'probe run (' + str(probe_calls) + ' calls)':<34}{probe:>10.0f}{probe / raw:>8.2f}")


if __name__ == "__main__":
    main()
