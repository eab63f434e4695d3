"""A fleet of twelve test servers: pytest items spread by pytest-xdist against one process.

    python bench/bench_fleet.py [--max-examples 10] [--workers 2] [--with-cli] [--shards 3]

Writes a client config naming twelve of tests/servers/ (correct twins and bug variants), then
times `pytest --mcp-config CONFIG -n 0` against `-n WORKERS --dist loadgroup`, each as its own
process, and prints both walls and their ratio. With `--with-cli`, it also times
`hypothesis-mcp test --config CONFIG --all` with the options the items use and checks that every
server has a graded row; with `--shards N` too, it grades the N shards (side by side, as a CI
matrix would on N machines), merges them and says whether the merge equals the single run's JSON
apart from durations. No timing is asserted: the ratio depends on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SERVERS = {
    "smoke-twin": ("smoke_bugs.py", None),
    "smoke-long-list": ("smoke_bugs.py", "long-list"),
    "probe-twin": ("probe_bugs.py", None),
    "probe-evict": ("probe_bugs.py", "evict-after-3"),
    "effect-twin": ("effect_variety.py", None),
    "ledger-twin": ("task_ledger.py", None),
    "memo-twin": ("memo_pad.py", None),
    "shelf-twin": ("shelf_store.py", None),
    "verdict-unknown": ("verdict_bugs.py", "unknown-as-result"),
    "surface-twin": ("surface_bugs.py", None),
    "items-twin": ("item_edits.py", None),
    "breaker-nul": ("breaker_bugs.py", "nul-crash"),
}


def write_config(folder: Path) -> Path:
    entries = {name: {"command": sys.executable,
                      "args": [str(ROOT / "tests/servers" / script), *(["--bug", bug] if bug else [])]}
               for name, (script, bug) in SERVERS.items()}
    path = folder / "fleet.json"
    path.write_text(json.dumps({"mcpServers": entries}, indent=2), encoding="utf-8")
    return path


def timed(argv: list[str], folder: Path) -> tuple[float, int]:
    env = {**os.environ, "PYTEST_ADDOPTS": ""}
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    return time.perf_counter() - start, done.returncode


def pytest_run(config: Path, folder: Path, workers: int, max_examples: int) -> tuple[float, int]:
    junit = folder / f"items-n{workers}.xml"
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--mcp-config", str(config),
            "--mcp-max-examples", str(max_examples), "-n", str(workers), "--junitxml", str(junit)]
    if workers:
        argv += ["--dist", "loadgroup"]
    wall, _ = timed(argv, folder)
    cases = list(ET.parse(junit).getroot().iter("testcase"))
    return wall, len(cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-examples", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--with-cli", action="store_true", help="also time hypothesis-mcp test --all")
    parser.add_argument("--shards", type=int, default=0, help="with --with-cli: also grade N shards and merge them")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-fleet-") as tmp:
        folder = Path(tmp)
        config = write_config(folder)
        serial, items = pytest_run(config, folder, 0, args.max_examples)
        print(f"pytest -n 0: {serial:7.1f} s  {items} items")
        spread, items = pytest_run(config, folder, args.workers, args.max_examples)
        print(f"pytest -n {args.workers} --dist loadgroup: {spread:7.1f} s  {items} items")
        print(f"ratio -n {args.workers} / -n 0: {spread / serial:.2f}")
        if args.with_cli:
            report = folder / "fleet-report.json"
            cli = [str(Path(sys.executable).parent / "hypothesis-mcp"), "test", "--config", str(config), "--all",
                   "--ci", "--smoke", "--probes", "--max-examples", str(args.max_examples), "-q"]
            wall, code = timed([*cli, "--json", str(report)], folder)
            rows = json.loads(report.read_text(encoding="utf-8"))["servers"]
            graded = sum(row["report"] is not None for row in rows)
            print(f"hypothesis-mcp test --all: {wall:7.1f} s  exit {code}  {graded} of {len(rows)} servers graded")
            if args.shards:
                compare_shards(config, folder, cli, args.shards, report)


def timeless(document: dict[str, Any]) -> dict[str, Any]:
    for row in document["servers"]:
        if row["report"] is not None:
            row["report"]["stats"].pop("duration_s", None)
    return document


def compare_shards(config: Path, folder: Path, cli: list[str], count: int, single: Path) -> None:
    start = time.perf_counter()
    paths = [folder / f"shard-{i}.json" for i in range(1, count + 1)]
    running = [subprocess.Popen([*cli, "--shard", f"{i}/{count}", "--json", str(path)], cwd=folder,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
               for i, path in enumerate(paths, 1)]
    for proc in running:
        proc.wait()
    merged = folder / "merged.json"
    subprocess.run([str(Path(sys.executable).parent / "hypothesis-mcp"), "merge", *map(str, paths), "-q", "--json",
                    str(merged)], cwd=folder, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    sizes = [len(json.loads(p.read_text(encoding="utf-8"))["servers"]) for p in paths]
    same = timeless(json.loads(merged.read_text(encoding="utf-8"))) == timeless(
        json.loads(single.read_text(encoding="utf-8")))
    print(f"{count} shards side by side: {time.perf_counter() - start:7.1f} s  servers per shard {sizes}  "
          f"merge equals the single run apart from durations: {same}")


if __name__ == "__main__":
    main()
