"""Shared helpers for the end-to-end suites: the servers under test, the engine, the CLI.

Used by test_smoke.py, test_probes.py, test_scorecard.py, test_cli.py, test_replay.py and
test_pytest_plugin.py. Every server runs as a real process, over stdio by default or over
streamable HTTP with `http_server(...)`.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis_mcp.connection import Connection, Target, parse_target
from hypothesis_mcp.engine import RunOptions, run
from hypothesis_mcp.profiles import Profile, make_profile
from hypothesis_mcp.results import Report, Result
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.judge import ProbeFinding, Rest, reproduces
from hypothesis_mcp.stateful.laws.observe import Learned, learned
from hypothesis_mcp.stateful.probes import base_arguments

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
SERVE = [PYTHON, str(ROOT / "tests/zygote.py")]
"""How the suite starts its Python test servers: `[*SERVE, SCRIPT, ARGS...]` runs `python SCRIPT
ARGS...` forked from a process that imported the SDK once (tests/zygote.py)."""

STORAGE = Path(tempfile.gettempdir()) / "hypothesis-mcp-e2e-storage"
"""Hypothesis's storage directory for CLI subprocesses: a fresh one costs ~2 s per process
(Hypothesis builds its caches first), so every run here shares this one. Grading runs use no
example database, so nothing carries over between runs that could change an outcome."""


# --- the servers under test ------------------------------------------------------------------

def sample(bug: str | None = None, *extra: str) -> list[str]:
    """`python -m hypothesis_mcp.sample_server [--bug BUG]` (docs/sample-server.md)."""
    return [*SERVE, "-m", "hypothesis_mcp.sample_server", *(["--bug", bug] if bug else []), *extra]


def smoke_demo(*extra: str) -> list[str]:
    """The four-tool smoke demo (examples/smoke_demo/README.md)."""
    return [*SERVE, str(ROOT / "examples/smoke_demo/server.py"), *extra]


def smoke_bugs(bug: str | None = None, *extra: str) -> list[str]:
    """tests/servers/smoke_bugs.py: bugs one fixed smoke call misses; no bug: the correct twin."""
    return [*SERVE, str(ROOT / "tests/servers/smoke_bugs.py"), *(["--bug", bug] if bug else []), *extra]


def effect_variety(bug: str | None = None, *extra: str) -> list[str]:
    """tests/servers/effect_variety.py: effect bugs behind naming unlike the sample server's."""
    return [*SERVE, str(ROOT / "tests/servers/effect_variety.py"), *(["--bug", bug] if bug else []), *extra]


def probe_bugs(bug: str | None = None, *extra: str) -> list[str]:
    """tests/servers/probe_bugs.py: effect bugs that need more than a few fixed steps."""
    return [*SERVE, str(ROOT / "tests/servers/probe_bugs.py"), *(["--bug", bug] if bug else []), *extra]


def journal_store(bug: str | None = None, *extra: str) -> list[str]:
    """tests/servers/journal_store.py: `--bug keeps-file` keeps entries in a file across processes."""
    return [*SERVE, str(ROOT / "tests/servers/journal_store.py"), *(["--bug", bug] if bug else []), *extra]


def error_shapes(bug: str | None = None, *extra: str) -> list[str]:
    """tests/servers/error_shapes.py: refusals answered as successes in the style BUG names."""
    return [*SERVE, str(ROOT / "tests/servers/error_shapes.py"), *(["--bug", bug] if bug else []), *extra]


def command_line(argv: list[str]) -> str:
    """One string for the CLI and the pytest plugin, split again like a shell would."""
    import shlex

    return shlex.join(argv)


def memory_server() -> list[str] | None:
    """`node .../server-memory/dist/index.js` (2026.8.31) when installed by scripts/install-npm-servers."""
    node = shutil.which("node")
    if node is None:
        return None
    for base in (ROOT / ".cache/npm/server-memory@2026.8.31/node_modules", ROOT / ".cache/npm/node_modules"):
        package = base / "@modelcontextprotocol/server-memory"
        entry = package / "dist/index.js"
        try:
            version = json.loads((package / "package.json").read_text())["version"]
        except (OSError, ValueError, KeyError):
            continue
        if entry.exists() and version == "2026.8.31":
            return [node, str(entry)]
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[bytes], limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the HTTP server exited at start with status {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port} after {limit:g}s")


@contextlib.contextmanager
def http_server(argv: list[str], *after: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Start a server with `--http PORT` (then `after`) on a free port; yield its URL; stop it (it
    exits 0 on SIGTERM; one a test has wedged with a blocking hang cannot, and is killed after 3 s)."""
    port = free_port()
    proc = subprocess.Popen([*argv, "--http", str(port), *after], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True, cwd=ROOT,
                            env={**os.environ, **(env or {})})
    try:
        wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


# --- the engine in-process ---------------------------------------------------------------------

def grading(max_examples: int | None = None) -> Profile:
    return make_profile("grading", max_examples=max_examples)


def hunting() -> Profile:
    """The grading profile with two examples per effect machine instead of eight, for a buggy
    server whose bugs show on a machine's first examples: the examples it saves are those of the
    server's correct tools, each a fresh server, and its correct twin keeps the full profile (that
    eight examples draw no finding is what a twin asserts)."""
    return Profile(**{**grading().__dict__, "probe_examples": 2})


def seeded(seed: int, *, max_examples: int | None = None, shrink_calls: int | None = None) -> Profile:
    """The default profile with a pinned seed and no example database (so a saved failure from an
    earlier run cannot make a later one find it more easily than the seed alone would)."""
    profile = make_profile("default", seed=seed, max_examples=max_examples, database_dir=None)  # type: ignore[arg-type]
    if shrink_calls is not None:
        profile = Profile(**{**profile.__dict__, "shrink_calls": shrink_calls})
    return profile


def engine(target: list[str] | str | Target, profile: Profile | None = None, **options: Any) -> Report:
    """Run the engine in-process on `target` (grading profile unless given)."""
    return run(parse_target(target), RunOptions(profile=profile or grading(), **options))


@dataclass
class LawsStores:
    """A test server of several stores (`--store NAME`, `--bug`), each store and side graded once per
    module with the laws machine on and deletes allowed: the buggy side on `hunting` (absent_updates'
    kennel: the same finding and reproduction in 25 s of CPU instead of 33), the twin on the full
    grading profile."""

    script: str
    kept: dict[tuple[str, bool], Report] = field(default_factory=dict)

    def command(self, name: str, bug: bool) -> list[str]:
        return [*SERVE, str(ROOT / self.script), "--store", name, *(["--bug"] if bug else [])]

    def run(self, name: str, bug: bool) -> Report:
        if (name, bug) not in self.kept:
            self.kept[(name, bug)] = engine(self.command(name, bug), hunting() if bug else grading(), probes=True,
                                            allow_writes=True, allow_deletes=True,
                                            probe_config=ProbeConfig(laws=True))
        return self.kept[(name, bug)]


def experiments(command: list[str]) -> Learned:
    """What the experiments the laws machine stands on show of a fresh server, on the grading profile,
    deletes allowed."""
    profile = grading()
    with Connection(parse_target(command)) as conn:
        return learned(conn, conn.list_tools(), lambda tool: base_arguments(tool, None, ProbeConfig()), profile.seed,
                       profile.settings(1), True)


@dataclass
class StoreAlone:
    """One store of a test server of several (`--store NAME`, `--bug`), graded once per module and side
    by the laws machine alone, on the grading profile, writes allowed."""

    script: str
    store: str
    kept: dict[bool, Report] = field(default_factory=dict)

    def command(self, bug: bool) -> list[str]:
        return [*SERVE, str(ROOT / self.script), "--store", self.store, *(["--bug"] if bug else [])]

    def run(self, bug: bool) -> Report:
        if bug not in self.kept:
            self.kept[bug] = engine(self.command(bug), grading(), probes=True, allow_writes=True,
                                    probe_config=ProbeConfig(laws="only"))
        return self.kept[bug]


@dataclass
class LawsAlone:
    """A test server (`--bug NAME`, none for its correct twin) graded once per module and side by the
    laws machine alone, at five examples (its budget is per server)."""

    script: str
    deletes: bool = False
    kept: dict[str | None, Report] = field(default_factory=dict)

    def command(self, bug: str | None) -> list[str]:
        return [*SERVE, str(ROOT / self.script), *(["--bug", bug] if bug else [])]

    def run(self, bug: str | None) -> Report:
        if bug not in self.kept:
            self.kept[bug] = engine(self.command(bug), grading(max_examples=5), probes=True, allow_writes=True,
                                    allow_deletes=self.deletes, probe_config=ProbeConfig(laws="only"))
        return self.kept[bug]

    def assert_twin_clean(self) -> None:
        """The correct twin draws no medium or high finding, and the machine no finding at all."""
        found = [r for r in results(self.run(None)) if r.status in ("fail", "warn") and r.kind != "lint"
                 and r.confidence in ("high", "medium")]
        assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
        drawn = machine_findings(self.run(None))
        assert not drawn, [(r.tool, r.rule, r.message) for r in drawn]


_shared: dict[str, Report] = {}
SHARED_RUNS: Path | None = None
"""A folder every pytest process of one session sees (conftest.py sets it): the reports of
`shared_run` are kept there, so xdist workers other than the first read them instead of running
them again."""


def shared_run(target: list[str], profile: Profile | None = None, **options: Any) -> Report:
    """`engine(...)` once per test session for the same arguments: a report that several tests
    read, maybe in other modules on other xdist workers. Grading runs are deterministic (two runs
    give the same JSON apart from the duration, tests/test_scorecard.py), so reading a kept report
    asserts what running it again would; a test about two runs agreeing runs its second itself."""
    key = hashlib.sha256(repr((target, profile or grading(), sorted(options.items()))).encode()).hexdigest()[:20]
    if key not in _shared:
        _shared[key] = _kept_run(key, lambda: engine(target, profile, **options))
    return _shared[key]


def _kept_run(key: str, make: Callable[[], Report]) -> Report:
    """The report kept under `key`, made by the first process that asks while the others wait."""
    if SHARED_RUNS is None:
        return make()
    SHARED_RUNS.mkdir(parents=True, exist_ok=True)
    kept = SHARED_RUNS / f"{key}.pickle"
    with (SHARED_RUNS / f"{key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            report: Report = pickle.loads(kept.read_bytes())
            return report
        report = make()
        partial = kept.with_suffix(f".{os.getpid()}")
        partial.write_bytes(pickle.dumps(report))
        partial.replace(kept)
        return report


def sample_probes(bug: str | None = None) -> Report:
    """`hypothesis-mcp test "python -m hypothesis_mcp.sample_server [--bug BUG]" --probes
    --allow-writes --profile grading`, the runs docs/scoring.md works through."""
    return shared_run(sample(bug), probes=True, allow_writes=True)


def sample_smoked(bug: str | None = None) -> Report:
    """`sample_probes` with `--smoke`: the prompt bug's run that test_draws_stable.py compares with
    the command line's and test_resources_prompts.py reads."""
    return shared_run(sample(bug), smoke=True, probes=True, allow_writes=True)


def smoke_bug_run(bug: str) -> Report:
    """`--smoke --profile grading` on tests/servers/smoke_bugs.py --bug BUG."""
    return shared_run(smoke_bugs(bug), smoke=True)


def fresh(argv: list[str], later: Rest | None = None) -> Callable[[ProbeFinding], bool]:
    """The laws machine's fresh replays, each on a new server of `argv` (a listing read on through
    `later` where its first page leaves the record out)."""
    def replays(finding: ProbeFinding) -> bool:
        with Connection(parse_target(argv)) as conn:
            return reproduces(finding, conn, later)
    return replays


def results(report: Report, **match: Any) -> list[Result]:
    return [r for r in report.results if all(getattr(r, k) == v for k, v in match.items())]


def machine_findings(report: Report) -> list[Result]:
    """The laws machine's failures and warnings (stateful/laws/)."""
    return [r for r in results(report, kind="probe") if r.status in ("fail", "warn")
            and r.basis.startswith("laws machine")]


def machine_finding(report: Report, tool: str, rule: str) -> Result:
    found = [r for r in machine_findings(report) if (r.tool, r.rule) == (tool, rule)]
    assert found, [(r.tool, r.rule, r.message) for r in machine_findings(report)]
    return found[0]


def one(report: Report, **match: Any) -> Result:
    found = results(report, **match)
    assert len(found) == 1, f"expected one result with {match}, got {[_short(r) for r in found]}\n{summary(report)}"
    return found[0]


def problems(report: Report) -> list[Result]:
    """Every failure and warning, lint findings excepted."""
    return [r for r in report.results if r.status in ("fail", "warn") and r.kind != "lint"]


def _short(result: Result) -> str:
    return f"{result.kind}/{result.check} {result.tool} {result.status} {result.rule} ({result.confidence})"


def summary(report: Report) -> str:
    """A few lines for assertion messages: the grade and every result that is not a plain pass."""
    lines = [f"grade {report.grade} score {report.score} subscores {report.subscores} cap {report.grade_cap}"]
    lines += [f"  {_short(r)}: {r.message[:160]}" for r in report.results if r.status != "pass"]
    return "\n".join(lines)


def smoke_check(report: Report, check_id: str, tool: str | None) -> dict[str, Any]:
    found = [c for c in report.smoke.checks if c["check_id"] == check_id and c["tool_name"] == tool]
    assert len(found) == 1, f"expected one smoke check {check_id} [{tool}], got {found}"
    return found[0]


def without_duration(data: dict[str, Any]) -> dict[str, Any]:
    """A JSON report with the one field that may differ between two identical runs taken out."""
    copy = json.loads(json.dumps(data))
    copy["stats"].pop("duration_s", None)
    return copy


# --- the CLI as a subprocess -------------------------------------------------------------------

def cli_command() -> list[str]:
    """The `hypothesis-mcp` console script of this venv."""
    beside = Path(PYTHON).parent / "hypothesis-mcp"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("hypothesis-mcp")
    assert found, "the hypothesis-mcp console script is not installed (pip install -e .)"
    return [found]


@dataclass
class CliRun:
    args: list[str]
    code: int
    stdout: str
    stderr: str
    seconds: float
    report: dict[str, Any] | None

    def __str__(self) -> str:
        return (f"hypothesis-mcp {' '.join(self.args)}\nexit {self.code} after {self.seconds:.1f}s\n"
                f"--- stdout ---\n{self.stdout[-3000:]}\n--- stderr ---\n{self.stderr[-3000:]}")

    def results(self, **match: Any) -> list[dict[str, Any]]:
        assert self.report is not None, f"no JSON report\n{self}"
        return [r for r in self.report["results"] if all(r.get(k) == v for k, v in match.items())]


class Cli:
    """A CLI run in progress; `wait()` collects it. Start several, then wait for all: they overlap.

    The console script runs as the test servers do, forked by the zygote (tests/zygote.py): as
    `__main__`, with its own path as argv[0], in this run's folder, environment and pipes, but
    without paying again for the SDK's and the engine's imports (a smoke run of the CLI: 1.3 s of CPU
    started plainly, 0.5 s forked). Tests of the CLI's own start (what --help loads, signals as a
    terminal gives them, a pseudo-terminal) start it plainly."""

    def __init__(self, args: list[str], cwd: Path, *, json_report: bool = False, limit: float = 180.0,
                 env: dict[str, str] | None = None) -> None:
        self.report_path = cwd / f"report-{os.getpid()}-{id(self):x}.json" if json_report else None
        if self.report_path is not None:
            args = [*args, "--json", str(self.report_path)]
        self.args = args
        self.limit = limit
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [*SERVE, *cli_command(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "COLUMNS": "120", "HYPOTHESIS_STORAGE_DIRECTORY": str(STORAGE), **(env or {})},
        )
        self._done: CliRun | None = None

    def wait(self) -> CliRun:
        if self._done is None:
            left = max(1.0, self.limit - (time.perf_counter() - self.started))
            try:
                stdout, stderr = self.proc.communicate(timeout=left)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                stdout, stderr = self.proc.communicate()
                raise AssertionError(f"hypothesis-mcp {' '.join(self.args)} ran over {self.limit:g}s\n"
                                     f"{stderr[-3000:]}") from None
            report = None
            if self.report_path is not None and self.report_path.exists():
                report = json.loads(self.report_path.read_text(encoding="utf-8"))
            self._done = CliRun(self.args, self.proc.returncode, stdout, stderr,
                                time.perf_counter() - self.started, report)
        return self._done


def cli(args: list[str], cwd: Path, **kwargs: Any) -> CliRun:
    return Cli(args, cwd, **kwargs).wait()


def task_ledger(bug: str | None = None) -> list[str]:
    """tests/servers/task_ledger.py: an upsert with an optional id, a one-letter grade, a write only a
    resource shows and an update-only tool; `--bug loses-jottings|loses-summaries`."""
    return [*SERVE, str(ROOT / "tests/servers/task_ledger.py"), *(["--bug", bug] if bug else [])]


def task_patches(bug: str | None = None) -> list[str]:
    """tests/servers/task_patches.py: annotated tools, integer ids in structuredContent one level down;
    `--bug keeps-note|drops-title`."""
    return [*SERVE, str(ROOT / "tests/servers/task_patches.py"), *(["--bug", bug] if bug else [])]


def item_edits(bug: str | None = None) -> list[str]:
    """tests/servers/item_edits.py: random uids only in a JSON text; `--bug keeps-title|drops-note`."""
    return [*SERVE, str(ROOT / "tests/servers/item_edits.py"), *(["--bug", bug] if bug else [])]


def memo_replaces() -> list[str]:
    """tests/servers/memo_replaces.py: a create that answers no id and a listing without ids."""
    return [*SERVE, str(ROOT / "tests/servers/memo_replaces.py")]


def ledger_pages(bug: str | None = None) -> list[str]:
    """tests/servers/ledger_pages.py: an offset-paged listing in structuredContent;
    `--bug offset-skips|offset-overlaps`."""
    return [*SERVE, str(ROOT / "tests/servers/ledger_pages.py"), *(["--bug", bug] if bug else [])]


def bookmark_cursor(bug: str | None = None) -> list[str]:
    """tests/servers/bookmark_cursor.py: an opaque-cursor listing in JSON text;
    `--bug cursor-repeats|last-page-lost`."""
    return [*SERVE, str(ROOT / "tests/servers/bookmark_cursor.py"), *(["--bug", bug] if bug else [])]


def parcel_depot(bug: str | None = None) -> list[str]:
    """tests/servers/parcel_depot.py: a scan three parcels at a time with no page size to ask for;
    `--bug onward-skips`."""
    return [*SERVE, str(ROOT / "tests/servers/parcel_depot.py"), *(["--bug", bug] if bug else [])]


def blind(command: list[str]) -> list[str]:
    """`command` served through the name-blind proxy (tests/blind.py): tools `t1`, `t2`…, no
    descriptions or titles."""
    return [PYTHON, str(ROOT / "tests/blind.py"), "--", *command]
