"""Per-call overhead: our synchronous facade and a probe run against a raw SDK `call_tool` loop.

    python bench/bench_calls.py [--calls 500] [--rounds 5]

All run in this process on the same server (the bundled sample server over stdio) and print calls
per second and the ratio to the raw loop (1.0 means no overhead; the target is >= 0.7). The raw
loop and the facade alternate in rounds of `--calls` calls each, one round each in turn, so load
from other work on the machine slows both alike; each keeps its best round.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from hypothesis_mcp.connection import Connection, Stats, parse_target
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.search.pool import ServerPool
from hypothesis_mcp.stateful.probes import ProbeRun

SERVER = [sys.executable, "-m", "hypothesis_mcp.sample_server"]
ARGS = {"limit": 5}


async def raw_round(client: Client, calls: int) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        await client.call_tool("list_notes", ARGS)
    return calls / (time.perf_counter() - started)


def facade_round(conn: Connection, calls: int) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        conn.call("list_notes", ARGS)
    return calls / (time.perf_counter() - started)


def alternating(calls: int, rounds: int) -> tuple[float, float]:
    """Best calls/s of the raw loop and of the facade, measured in alternating rounds; the raw
    client runs on an event loop driven from this thread, as the facade's does."""
    loop = asyncio.new_event_loop()
    client = Client(StdioServerParameters(command=SERVER[0], args=SERVER[1:]), cache=None)
    entered, done = asyncio.Event(), asyncio.Event()

    async def hold() -> None:  # the SDK's client must be left in the task that entered it
        async with client:
            entered.set()
            await done.wait()

    holder = loop.create_task(hold())
    loop.run_until_complete(entered.wait())
    try:
        with Connection(SERVER) as conn:
            loop.run_until_complete(client.list_tools())
            conn.list_tools()
            raw, facade = 0.0, 0.0
            for _ in range(rounds):
                raw = max(raw, loop.run_until_complete(raw_round(client, calls)))
                facade = max(facade, facade_round(conn, calls))
            return raw, facade
    finally:
        done.set()
        loop.run_until_complete(holder)
        loop.close()


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
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f}")
    raw, facade = alternating(options.calls, options.rounds)
    probe, probe_calls = probe_run()
    print(f"{'loop':<34}{'calls/s':>10}{'ratio':>8}")
    print(f"{'raw SDK call_tool loop':<34}{raw:>10.0f}{1.0:>8.2f}")
    print(f"{'hypothesis-mcp Connection.call':<34}{facade:>10.0f}{facade / raw:>8.2f}")
    print(f"{'probe run (' + str(probe_calls) + ' calls)':<34}{probe:>10.0f}{probe / raw:>8.2f}")
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
