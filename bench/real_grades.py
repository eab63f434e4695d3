"""Grades the suite's real servers as docs/scoring.md "Grades of real servers" states, one per process.

    python bench/real_grades.py [NAME ...] [--out DIR]

Each server is graded with `--smoke --probes --allow-writes` under the grading profile and its
shipped strategy, started as its test starts it (tests/public_servers.py); the PyPI stores with
the smaller `max_examples` of tests/test_real_servers_stores.py. Prints one line per server
(grade, score, exercised, cap reasons, every failure and warning outside lint) and writes each
JSON report to DIR, so the table's rows can be re-measured and each finding read.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis_mcp.connection import parse_target  # noqa: E402
from hypothesis_mcp.engine import RunOptions, run  # noqa: E402
from hypothesis_mcp.profiles import make_profile  # noqa: E402
from hypothesis_mcp.report.json_report import render_json  # noqa: E402
from hypothesis_mcp.shipped import load_strategy  # noqa: E402
from public_servers import PYPI, fresh_git_repo, fresh_sandbox, in_venv, npm_server, venv_script  # noqa: E402

SAMPLE = [sys.executable, "-m", "hypothesis_mcp.sample_server"]


def _store(package: str, version: str, script: str, *args: str) -> list[str]:
    return [*in_venv(PYPI / f"{package}@{version}" / "bin" / script), *args]




SERVERS: dict[str, tuple[Callable[[], list[str]], str | None, int | None]] = {
    "mcp-server-time": (lambda: venv_script("mcp-server-time"), "mcp-server-time", None),
    "server-everything": (lambda: npm_server("server-everything", "2026.8.31"), "server-everything", None),
    "mcp-server-git": (lambda: [*venv_script("mcp-server-git"), "--repository", str(fresh_git_repo())],
                       "mcp-server-git", None),
    "mcp-memory-bank": (lambda: _store("mcp-memory-bank", "1.1.3", "mcp-memory-bank", "--dir", "{tmpdir}"),
                        "mcp-memory-bank", 10),
    "mcp-server-sqlite": (lambda: _store("mcp-server-sqlite", "2025.4.25", "mcp-server-sqlite", "--db-path",
                                         "{tmpdir}/db.sqlite"), "mcp-server-sqlite", 10),
    "todo-txt-mcp": (lambda: _store("todo-txt-mcp", "1.0.2", "todo-txt-mcp", "{tmpdir}/todo.txt"), "todo-txt-mcp", 10),
    "sample": (lambda: SAMPLE, None, None),
    "server-filesystem": (lambda: [*npm_server("server-filesystem", "2026.8.31"), str(fresh_sandbox())],
                          "server-filesystem", None),
    "server-memory": (lambda: npm_server("server-memory", "2026.8.31"), "server-memory", None),
    "agent-toolkit": (lambda: _store("agent-toolkit-mcp-server", "0.4.0", "agent-toolkit-mcp-server"),
                      "agent-toolkit", 3),
    "todo-mcp-server-kit": (lambda: _store("todo-mcp-server-kit", "0.2.0", "todo-mcp-server-kit"),
                            "todo-mcp-server-kit", 10),
    "memory-bank-mcp": (lambda: npm_server("@allpepper/memory-bank-mcp", "0.2.2"), "memory-bank", None),
    "sample-silent-skip": (lambda: [*SAMPLE, "--bug", "silent-skip"], None, None),
    "sample-lose-on-write": (lambda: [*SAMPLE, "--bug", "lose-on-write"], None, None),
}


def grade(name: str, out: Path) -> str:
    make, strategy, examples = SERVERS[name]
    shipped = load_strategy(strategy) if strategy else None
    argv = make()
    target = parse_target(argv, env=shipped.env if shipped else None)
    profile = make_profile("grading", max_examples=examples)
    started = time.monotonic()
    report = run(target, RunOptions(profile=profile, probe_config=shipped.config if shipped else None,
                                    smoke=True, probes=True, allow_writes=True))
    (out / f"{name}.json").write_text(render_json(report))
    found = sorted({(r.subject, r.rule, r.status, r.confidence) for r in report.results
                    if r.status in ("fail", "warn") and r.kind != "lint"})
    capped = f" (capped from {report.grade_cap.uncapped_grade}: {report.grade_cap.reasons})" \
        if report.grade_cap.capped else ""
    return json.dumps({"server": name, "grade": report.grade + capped, "score": report.score,
                       "exercised": report.subscores.get("exercised"), "seconds": round(time.monotonic() - started),
                       "found": found})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=[])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "real-grades")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.names or SERVERS:
        print(grade(name, args.out), flush=True)


if __name__ == "__main__":
    main()
