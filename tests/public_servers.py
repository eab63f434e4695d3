"""Where the pinned public servers live once scripts/install-npm-servers and install-pypi-servers have run."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.engine import RunOptions, run
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.results import Report, Result
from hypothesis_mcp.shipped import load_strategy

ROOT = Path(__file__).resolve().parents[1]
NPM = ROOT / ".cache" / "npm"
PYPI = ROOT / ".cache" / "pypi"


def npm_entry(package: str, version: str) -> Path:
    """The script an npm package's `bin` names, under .cache/npm/<package>@<version>; `package` is
    a full name, or a bare one (server-memory) for the @modelcontextprotocol scope."""
    full = package if package.startswith("@") else f"@modelcontextprotocol/{package}"
    home = NPM / f"{full.removeprefix('@modelcontextprotocol/')}@{version}" / "node_modules" / full
    try:
        bin_field = json.loads((home / "package.json").read_text())["bin"]
    except (OSError, ValueError, KeyError):
        return home / "missing"
    return home / (bin_field if isinstance(bin_field, str) else next(iter(bin_field.values())))


def npm_server(package: str, version: str) -> list[str]:
    """The argv that starts a pinned npm server (see npm_entry), or a skip if it is not installed."""
    entry = npm_entry(package, version)
    node = shutil.which("node")
    if node is None or not entry.is_file():
        pytest.skip(f"{package}@{version} is not installed: run scripts/install-npm-servers")
    return [node, str(entry)]


def pypi_server(package: str, version: str, command: str | None = None) -> list[str]:
    """The console script of a PyPI server installed in a venv of its own, or a skip if it is not."""
    script = PYPI / f"{package}@{version}" / "bin" / (command or package)
    if not script.is_file():
        pytest.skip(f"{package}=={version} is not installed: run HYPOTHESIS_MCP_HEAVY=1 ./scripts/install, then pytest "
                    "(needs Python >= 3.12)")
    return in_venv(script)


def in_venv(script: Path, python: Path | None = None) -> list[str]:
    """The command that runs a Python script with a venv's interpreter (by default that of the venv
    the script sits in), forked from that venv's zygote in the suite (tests/zygote.py): the server's
    own release and its own SDK, with the SDK imported once per session instead of once per start."""
    return [str(python or script.parent / "python"), str(ROOT / "tests/zygote.py"), str(script)]


def venv_script(name: str) -> list[str]:
    """A console script installed beside the interpreter running the tests, by absolute path, so the
    tests find it whether or not the venv is activated; run by that interpreter forked from the
    suite's zygote (`in_venv`), so a start does not import the SDK again."""
    return in_venv(Path(sys.executable).parent / name, Path(sys.executable))


def grade(argv: list[str], strategy: str, *, env: dict[str, str] | None = None, **options: object) -> Report:
    """One grading-profile run with a shipped strategy, as `hypothesis-mcp test --strategy` does."""
    shipped = load_strategy(strategy)
    target = parse_target(argv, env={**shipped.env, **(env or {})})
    return run(target, RunOptions(profile=make_profile("grading"), probe_config=shipped.config,
                                  overrides=None, **options))  # type: ignore[arg-type]


def probe_results(report: Report, tool: str, rule: str) -> list[Result]:
    return [r for r in report.results if r.kind == "probe" and r.tool == tool and r.rule == rule]


def not_passed(report: Report) -> set[tuple[str, str, str, str]]:
    """(tool, rule, status, confidence) of every failure and warning outside lint, to compare with
    the list of verdicts docs/real-servers.md defends one by one."""
    return {(r.subject, r.rule, r.status, r.confidence) for r in report.results
            if r.status in ("fail", "warn") and r.kind != "lint"}


TEN_LINES = "".join(f"line {i}\n" for i in range(1, 11))
"""The file the filesystem bounds read."""


def fresh_sandbox() -> Path:
    """The folder the filesystem strategy names, emptied, with a ten-line file."""
    folder = Path("/tmp/hm-sandbox")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    (folder / "ten.txt").write_text(TEN_LINES)
    return folder


def fresh_git_repo() -> Path:
    """The repository the git strategy names, new, with one empty commit: the write probes change it."""
    repo = Path("/tmp/hm-git")
    shutil.rmtree(repo, ignore_errors=True)
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com",
                    "commit", "-q", "--allow-empty", "-m", "start"], check=True)
    return repo
