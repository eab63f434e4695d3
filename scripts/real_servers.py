"""Run the grading profile on each pinned public server and print docs/real-servers.md tables.

    python scripts/real_servers.py > /tmp/tables.md
    python scripts/real_servers.py basic-memory > /tmp/tables.md     # only the named strategies

Needs scripts/install-npm-servers, scripts/install-pypi-servers (basic-memory) and the test extra
(mcp-server-time, mcp-server-git).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from hypothesis_mcp.results import Call  # noqa: E402
from public_servers import npm_entry  # noqa: E402  (where the tests find the same pinned servers)

PYPI = ROOT / ".cache" / "pypi"
SANDBOX = Path("/tmp/hm-sandbox")
GIT = Path("/tmp/hm-git")


def npm(package: str, version: str) -> str:
    return f"node {npm_entry(package, version).relative_to(ROOT)}"


def pypi(package: str, version: str) -> str:
    """A server whose own venv lives under .cache/pypi (it cannot share ours), by relative path."""
    return str((PYPI / f"{package}@{version}" / "bin" / package).relative_to(ROOT))


def prepare() -> None:
    """A new sandbox and git repository: the write probes change both."""
    shutil.rmtree(SANDBOX, ignore_errors=True)
    SANDBOX.mkdir()
    (SANDBOX / "ten.txt").write_text("".join(f"line {i}\n" for i in range(1, 11)))
    shutil.rmtree(GIT, ignore_errors=True)
    GIT.mkdir()
    subprocess.run(["git", "init", "-q", str(GIT)], check=True)
    subprocess.run(["git", "-C", str(GIT), "-c", "user.name=t", "-c", "user.email=t@example.com",
                    "commit", "-q", "--allow-empty", "-m", "start"], check=True)


def venv(script: str) -> str:
    """A console script of the test extra, beside this interpreter, by relative path."""
    return str(Path(os.path.relpath(Path(sys.executable).parent / script, ROOT)))


WRITES = ["--smoke", "--probes", "--allow-writes"]
RUNS = [
    ("server-memory 2026.8.31", npm("server-memory", "2026.8.31"), "server-memory", WRITES),
    ("server-filesystem 2026.8.31", f"{npm('server-filesystem', '2026.8.31')} {SANDBOX}", "server-filesystem",
     WRITES),
    ("server-filesystem 2.0.1", f"{npm('server-filesystem', '2.0.1')} {SANDBOX}", "server-filesystem", WRITES),
    ("memory-bank-mcp 0.2.2", npm("@allpepper/memory-bank-mcp", "0.2.2"), "memory-bank", WRITES),
    ("server-everything 2026.8.31", npm("server-everything", "2026.8.31"), "server-everything", WRITES),
    ("mcp-server-time 2026.10.19", venv("mcp-server-time"), "mcp-server-time", WRITES),
    ("mcp-server-git 2026.10.19", f"{venv('mcp-server-git')} --repository {GIT}", "mcp-server-git", WRITES),
    # Python imports take seconds before its handshake, more on a loaded machine: wait longer.
    ("basic-memory 0.24.1", f"{pypi('basic-memory', '0.24.1')} mcp", "basic-memory", [*WRITES, "--timeout", "90"]),
]


def main() -> None:
    exe = str(Path(sys.executable).parent / "hypothesis-mcp")
    only = sys.argv[1:]
    for title, target, strategy, flags in RUNS:
        if only and strategy not in only:
            continue
        out = Path(f"/tmp/hm-real-{strategy}.json")
        out.unlink(missing_ok=True)
        if "hm-sandbox" in target or "hm-git" in target:
            prepare()
        argv = [exe, "test", target, "--strategy", strategy, *flags, "--profile", "grading", "--json", str(out)]
        started = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
        code, wall = done.returncode, time.perf_counter() - started
        if not out.exists():
            sys.exit(f"{title}: no report (exit {code}); run from the project's venv after scripts/install\n"
                     f"{done.stderr[-2000:]}")
        report = json.loads(out.read_text())
        sub = report["subscores"]
        shown = " · ".join(f"{k} {'n/a' if v is None else f'{v:g}%'}" for k, v in sub.items())
        cap = " (capped)" if report["grade_cap"]["capped"] else ""
        print(f"### {title}\n")
        print("```\n" + shlex.join(["hypothesis-mcp", "test", target, "--strategy", strategy, *flags,
                                    "--profile", "grading"]) + "\n```\n")
        print("| grade | score | subscores | calls | server starts | wall time | exit |")
        print("|---|---|---|---|---|---|---|")
        stats = report["stats"]
        print(f"| {report['grade']}{cap} | {report['score']:g} | {shown} | {stats['calls']} | "
              f"{stats['server_starts']} | {wall:.1f} s | {code} |\n")
        rows = [r for r in report["results"] if r["status"] in ("fail", "warn") and r["kind"] != "lint"]
        if rows:
            print("| result | tool | rule | confidence | minimal reproduction |")
            print("|---|---|---|---|---|")
            for r in rows:
                calls = (r.get("reproduction") or {}).get("calls") or []
                repro = "; ".join(f"`{Call.from_dict(c).describe()}`" for c in calls) or "-"
                subject = r["tool"] or (r.get("details") or {}).get("subject") or "server"
                print(f"| {r['status']} | {subject} | {r['rule']} | {r['confidence']} | "
                      f"{repro.replace('|', '¦')} |")
            print()


if __name__ == "__main__":
    main()
