"""End to end: our grading run vs tool-scorer and mcpscore, on the sample server and server-memory.

    python bench/bench_end_to_end.py [--repeat 1] [--rss-examples 10 40]

Runs, on each server, `hypothesis-mcp test --profile grading --smoke --probes --allow-writes`
(and the same with `--workers 2`),
`toolscore mcp test` (tool-scorer 1.10.0) and `mcpscore --smoke --call-all` (mcpscore 1.29.0),
each as its own process, and prints wall time and the number of tool calls each made. Calls are
counted by bench/count_calls.py, a stdio proxy every tester's server command is wrapped in. The
peers are installed on the first run into .cache/bench-venv-peers (PyPI access needed). Then it
reports the peak RSS of our process during grading runs on server-memory at two example counts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PEERS = ROOT / ".cache/bench-venv-peers"
PINS = {"tool-scorer": "1.10.0", "mcpscore": "1.29.0"}
MEMORY = ROOT / ".cache/npm/server-memory@2026.8.31/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
COUNTER = [sys.executable, str(ROOT / "bench/count_calls.py")]
OURS = Path(sys.executable).parent / "hypothesis-mcp"


@dataclass
class Server:
    name: str
    command: list[str]
    ours_extra: list[str]
    env: dict[str, str]


@dataclass
class Measured:
    wall: float
    calls: int
    code: int


def install_peers() -> dict[str, str]:
    """Create the peers' venv once; return, for each peer that could not be installed, why."""
    problems: dict[str, str] = {}
    if not (PEERS / "bin/python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(PEERS)], check=True)
    pip = [str(PEERS / "bin/python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    for package, version in PINS.items():
        shown = subprocess.run([str(PEERS / "bin/python"), "-m", "pip", "show", package], capture_output=True,
                               text=True)
        if f"Version: {version}" in shown.stdout:
            continue
        done = subprocess.run([*pip, f"{package}=={version}"], capture_output=True, text=True)
        if done.returncode != 0:
            problems[package] = (done.stderr.strip().splitlines() or ["pip failed"])[-1]
    return problems


def servers() -> list[Server]:
    found = [Server("sample server", [sys.executable, "-m", "hypothesis_mcp.sample_server"], [], {})]
    node = shutil.which("node")
    if node and MEMORY.is_file():
        found.append(Server("server-memory 2026.8.31", [node, str(MEMORY)], ["--strategy", "server-memory"],
                            {"MEMORY_FILE_PATH": "{tmpdir}/memory.jsonl"}))
    else:
        print("server-memory is not installed (scripts/install-npm-servers): measuring the sample server only")
    return found


def measure(argv: list[str], count_file: Path, env: dict[str, str], cwd: Path) -> Measured:
    count_file.write_bytes(b"")
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env={**os.environ, **env}, stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
    return Measured(time.perf_counter() - started, count_file.stat().st_size, done.returncode)


def testers(server: Server, count: Path, work: Path) -> dict[str, tuple[list[str], dict[str, str]]]:
    """Each tester's command line; a peer gets the same fresh memory file our strategy gives each process."""
    wrapped = [*COUNTER, str(count), *server.command]
    peer_env = {k: v.replace("{tmpdir}", str(work)) for k, v in server.env.items()}
    return {
        "hypothesis-mcp": ([str(OURS), "test", "--profile", "grading", "--smoke", "--probes", "--allow-writes",
                            *server.ours_extra, "--", *wrapped], {}),
        "hypothesis-mcp -w2": ([str(OURS), "test", "--profile", "grading", "--smoke", "--probes",
                                "--allow-writes", "--workers", "2", *server.ours_extra, "--", *wrapped], {}),
        "tool-scorer": ([str(PEERS / "bin/toolscore"), "mcp", "test", " ".join(wrapped)], peer_env),
        "mcpscore": ([str(PEERS / "bin/mcpscore"), "--smoke", "--call-all", "--stdio", *wrapped], peer_env),
    }


def peak_rss(server: Server, examples: int, work: Path) -> float:
    """MiB: the high-water mark of our process's resident set, polled from /proc while it runs."""
    argv = [str(OURS), "test", "--profile", "grading", "--max-examples", str(examples), "--smoke", "--probes",
            "--allow-writes", *server.ours_extra, "--", *server.command]
    proc = subprocess.Popen(argv, cwd=work, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    peak = 0
    while proc.poll() is None:
        try:
            status = Path(f"/proc/{proc.pid}/status").read_text()
        except OSError:
            break
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]))
        time.sleep(0.05)
    proc.wait()
    return peak / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each tester; the best wall time is kept")
    parser.add_argument("--rss-examples", type=int, nargs=2, default=[10, 40])
    options = parser.parse_args()
    problems = install_peers()
    for package, why in problems.items():
        print(f"{package} {PINS[package]} could not be installed: {why}")
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    print(f"{'server':<26}{'tester':<16}{'wall s':>8}{'calls':>8}{'exit':>6}")
    with tempfile.TemporaryDirectory(prefix="bench-e2e-") as folder:
        work = Path(folder)
        for server in servers():
            best: dict[str, Measured] = {}
            for _ in range(options.repeat):
                for name, (argv, env) in testers(server, work / "calls", work).items():
                    if name in problems:
                        continue
                    (work / "memory.jsonl").unlink(missing_ok=True)
                    got = measure(argv, work / "calls", env, work)
                    if name not in best or got.wall < best[name].wall:
                        best[name] = got
            for name, got in best.items():
                print(f"{server.name:<26}{name:<16}{got.wall:>8.1f}{got.calls:>8}{got.code:>6}")
            ours = best["hypothesis-mcp"]
            if "mcpscore" in best:
                print(f"{'':<26}wall time, ours / mcpscore: {ours.wall / best['mcpscore'].wall:.2f} (target <= 1)")
            if "tool-scorer" in best and best["tool-scorer"].calls:
                print(f"{'':<26}calls, ours / tool-scorer: {ours.calls / best['tool-scorer'].calls:.1f} "
                      "(target >= 10)")
        memory = next((s for s in servers() if s.name.startswith("server-memory")), None)
        if memory is not None:
            for examples in options.rss_examples:
                print(f"peak RSS, grading run on {memory.name}, --max-examples {examples}: "
                      f"{peak_rss(memory, examples, work):.0f} MiB")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
