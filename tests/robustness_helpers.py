"""Running the CLI against hostile servers as real processes, and finding processes left behind."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers import http_server as serve_http

ROOT = Path(__file__).resolve().parents[1]
RAW = str(ROOT / "tests/servers/raw_server.py")
HOSTILE = str(ROOT / "tests/servers/hostile_http.py")
CLI = [sys.executable, "-c", "from hypothesis_mcp.cli import main; main()"]
# Runs the CLI in-process and prints, to stderr, how far the process's peak resident memory rose
# above what it used once everything was imported.
CLI_WITH_PEAK = [sys.executable, "-c", """
import sys
from hypothesis_mcp.cli import app
# The command loads these when it runs; loaded first, they are part of "everything imported".
import hypothesis_mcp.engine, hypothesis_mcp.report.console, hypothesis_mcp.report.json_report

def field(name):
    lines = open("/proc/self/status").read().splitlines()
    return int([line.split()[1] for line in lines if line.startswith(name + ":")][0])

start = field("VmRSS")
try:
    app(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
print(f"PEAK_GROWTH_KB={field('VmHWM') - start}", file=sys.stderr)
"""]
FAST = ["--profile", "grading", "--max-examples", "5"]
# A run with `--timeout 2` that should end: the bound only has to tell "ends" from "hangs", so it
# leaves room for a loaded CI machine, where starting Python and the SDK alone takes seconds.
ENDS_WITHIN = 45
STORAGE = Path(tempfile.gettempdir()) / "hypothesis-mcp-robustness-storage"
"""Hypothesis's storage directory for every CLI run here. In a fresh directory Hypothesis first
builds its caches (the unicode charmap, the constants of the loaded modules): ~2 s and ~200 MB
that every run would pay again in its own tmp_path."""


def token() -> str:
    """A word to put on a server's command line, to find its processes in /proc later."""
    return f"hm-robust-{uuid.uuid4().hex[:12]}"


def processes_with(word: str) -> list[int]:
    """Pids of live processes (zombies excluded) whose command line contains `word`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and any(word.encode() in arg for arg in argv):
            found.append(int(entry.name))
    return found


def assert_no_processes(word: str, within: float = 3.0) -> None:
    deadline = time.monotonic() + within
    while (left := processes_with(word)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"server processes outlived the tester: {left}"


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    report: dict[str, Any] | None

    def results(self, **match: Any) -> list[dict[str, Any]]:
        assert self.report is not None, f"no JSON report; exit {self.code}; stderr:\n{self.stderr[-3000:]}"
        return [r for r in self.report["results"] if all(r.get(k) == v for k, v in match.items())]

    def one(self, **match: Any) -> dict[str, Any]:
        found = self.results(**match)
        assert len(found) == 1, f"expected one result with {match}, got {found}"
        return found[0]

    @property
    def peak_growth_mb(self) -> float:
        """With CLI_WITH_PEAK: how much the tester's peak RSS rose during the run."""
        words = [w for w in self.stderr.split() if w.startswith("PEAK_GROWTH_KB=")]
        assert words, self.stderr[-2000:]
        return int(words[-1].split("=")[1]) / 1024


def inherited_signals() -> str:
    """The signal state a child of this process would start with, for a failure's message."""
    return (f"SIGINT in the test process: {signal.getsignal(signal.SIGINT)!r}, blocked there: "
            f"{sorted(signal.pthread_sigmask(signal.SIG_BLOCK, []))}")


def as_from_a_terminal() -> None:
    """In the CLI's process before it starts: SIGINT and SIGTERM as a shell gives them, whatever
    this test process holds (a test of Ctrl-C judges the CLI, not the state of the worker that ran
    it: in the full suite a CLI once started with SIGINT unheard and ran to its end)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)


class Pending:
    """A CLI run in progress; `result()` waits for it (at most `limit` seconds from its start)."""

    def __init__(self, args: list[str], tmp: Path, *, limit: float, env: dict[str, str] | None,
                 command: list[str]) -> None:
        self.report_path = tmp / f"report-{uuid.uuid4().hex[:8]}.json"
        if args and args[0] == "test":
            args = [args[0], "--json", str(self.report_path), *args[1:]]
        self.limit = limit
        self.started = time.perf_counter()
        self.inherited = inherited_signals()
        self.proc = subprocess.Popen(
            [*command, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp,
            env={**os.environ, "COLUMNS": "120", "HYPOTHESIS_STORAGE_DIRECTORY": str(STORAGE), **(env or {})},
            preexec_fn=as_from_a_terminal,
        )
        self._run: Run | None = None

    @property
    def seconds_so_far(self) -> float:
        return time.perf_counter() - self.started

    def result(self) -> Run:
        if self._run is None:
            left = max(0.1, self.limit - (time.perf_counter() - self.started))
            try:
                stdout, stderr = self.proc.communicate(timeout=left)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                stdout, stderr = self.proc.communicate()
                raise AssertionError(
                    f"the CLI ran for more than {self.limit:g}s ({self.inherited}); stderr:\n{stderr[-3000:]}"
                ) from None
            seconds = time.perf_counter() - self.started
            report = json.loads(self.report_path.read_text()) if self.report_path.exists() else None
            self._run = Run(self.proc.returncode, stdout, stderr, seconds, report)
        return self._run


def start_cli(args: list[str], tmp: Path, *, limit: float = 60.0, env: dict[str, str] | None = None,
              command: list[str] = CLI) -> Pending:
    """Start `hypothesis-mcp ARGS`; for `test`, with --json into tmp."""
    return Pending(args, tmp, limit=limit, env=env, command=command)


def run_cli(args: list[str], tmp: Path, *, limit: float = 60.0, env: dict[str, str] | None = None,
            command: list[str] = CLI) -> Run:
    """Run `hypothesis-mcp ARGS` to the end; never leaves the CLI running past `limit`."""
    return start_cli(args, tmp, limit=limit, env=env, command=command).result()


@contextlib.contextmanager
def http_server(*args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Start hostile_http.py over HTTP on a free port; yield its URL; stop it and all its workers."""
    word = token()
    try:
        with serve_http([sys.executable, HOSTILE], *args, word, env=env) as url:
            yield url
    finally:
        for pid in processes_with(word):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
