"""The README's first command, run as a user runs it: its console fits a screen, reads as the README
says line for line, carries no trailing spaces off a terminal, and its last line, the only gate
line, names what failed. That `--quiet` prints that gate line alone is test_ci_trust.py's (the line
does not depend on it: cli.py builds it before it chooses what to print)."""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

import pytest

from helpers import ROOT, SERVE, Cli, CliRun

README = ROOT / "README.md"
COMMAND = ["test", "python -m hypothesis_mcp.sample_server --bug silent-skip", "--smoke", "--probes",
           "--allow-writes", "--ci"]
BLOCKING = ("probe-silent-noop on create_note", "happy-output-schema on export_notes")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> CliRun:
    folder = tmp_path_factory.mktemp("readme")
    # `python` on PATH is this venv's, as after the README's `. .venv/bin/activate`; it starts the
    # server as the suite's own servers start, forked by the zygote (tests/zygote.py), rather than
    # importing the SDK again for each of the run's servers.
    python = folder / "bin" / "python"
    python.parent.mkdir()
    python.write_text(f'#!/bin/sh\nexec {shlex.join(SERVE)} "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    env = {"PATH": os.pathsep.join([str(python.parent), str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    return Cli(COMMAND, folder, limit=400, env=env).wait()


def shown(run: CliRun) -> list[str]:
    """What a CI log shows: the progress on stderr, then the report on stdout."""
    return run.stderr.splitlines() + run.stdout.splitlines()


def readme_block() -> list[str]:
    text = README.read_text(encoding="utf-8")
    block = text[text.index("<!-- readme-run -->"):].split("```text\n", 1)[1].split("\n```", 1)[0]
    return block.splitlines()


def without_times(lines: list[str]) -> list[str]:
    """Times vary, and so do example and call counts: until draws are seeded per scope, they shift
    with the literals of the installed source (docs/architecture.md, Determinism)."""
    return [re.sub(r"\d+ examples · \d+ calls", "N examples · N calls", re.sub(r"\d+\.\d+s$", "Ts", line))
            for line in lines]


def test_the_run_fits_in_40_lines_without_trailing_spaces(run: CliRun) -> None:
    assert run.code == 1, run
    lines = shown(run)
    assert len(lines) <= 40, run
    assert [line for line in lines if line != line.rstrip()] == []


def test_the_verdict_comes_once_last_naming_each_blocking_failure(run: CliRun) -> None:
    report = run.stdout.splitlines()
    assert report[0].startswith("MCP Scorecard: notes-server")
    verdict = report[-1]
    assert verdict.startswith("Gate failed") and [line for line in report if line.startswith("Gate")] == [verdict]
    for name in BLOCKING:
        assert name in verdict, verdict
    failures = report[report.index(next(line for line in report if line.startswith("Failures"))):]
    assert failures[1].startswith("1. BLOCKING ") and any(line.startswith("2. BLOCKING ") for line in failures)


def test_the_readme_shows_the_run_line_for_line(run: CliRun) -> None:
    block = readme_block()
    assert without_times(block) == without_times(shown(run))
    text = README.read_text(encoding="utf-8")
    assert f"prints these {len(block)} lines" in " ".join(text.split())
