"""Reproductions a user pastes: the console shows each as Python over the public API with
readable literals, the same lines an emitted test carries, and an emitted test that still fails
says which calls and answers, not a dump of the replay."""

from __future__ import annotations

import ast
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from helpers import command_line, one, sample, sample_probes
from hypothesis_mcp.emit import emit_tests
from hypothesis_mcp.emit import test_name as emitted_name
from hypothesis_mcp.report.console import render_console
from hypothesis_mcp.results import Report, Result
from hypothesis_mcp.snippet import literal

AWKWARD: list[Any] = [
    {"title": 'say "hi"\\n', "n": 3, "ratio": 0.5, "ok": True, "gone": None, "tags": ["é", "日本", "\t"]},
    {"weird key": {"nested": [[], {}, False]}, "": "\u0000\u001f\\u", "big": 10**30, "neg": -1.5e-7},
    "\U0001f600 and a lone \ud800",
]


@pytest.mark.parametrize("value", AWKWARD)
def test_literals_evaluate_to_the_value_on_one_line_or_indented(value: Any) -> None:
    for indent in (None, 4):
        text = literal(value, indent=indent)
        assert ast.literal_eval(text) == value
        assert ("\n" in text) == (indent is not None and isinstance(value, dict))
    assert "true" not in literal({"a": True}) and "null" not in literal({"a": None})


@pytest.fixture(scope="module")
def silent_skip() -> Report:
    return sample_probes("silent-skip")


def finding(report: Report) -> Result:
    return one(report, kind="probe", rule="probe-silent-noop", status="fail")


def snippet_of(report: Report, result: Result, width: int) -> list[str]:
    console = Console(file=io.StringIO(), width=width, record=True, color_system=None, force_terminal=True)
    render_console(report, console)
    lines = console.export_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("from hypothesis_mcp import connect")
                 and f"{result.rule} on {result.subject}" in "\n".join(lines[:i]))
    end = start + 2 + len(result.reproduction.calls) if result.reproduction else start
    return [line[3:] for line in lines[start:end]]


def test_the_console_shows_python_that_makes_the_same_calls(silent_skip: Report) -> None:
    result = finding(silent_skip)
    assert result.reproduction is not None
    snippet = snippet_of(silent_skip, result, width=60)
    assert snippet[1] == f"with connect({literal(silent_skip.target)}) as server:", "one line at any width"
    calls = [node for node in ast.walk(ast.parse("\n".join(snippet))) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Attribute) and node.func.attr == "call"]
    made = [(ast.literal_eval(c.args[0]), ast.literal_eval(c.args[1])) for c in calls]
    assert made == [(call.tool, call.arguments) for call in result.reproduction.calls]


def test_the_console_snippet_runs_against_the_server(silent_skip: Report, tmp_path: Path) -> None:
    snippet = snippet_of(silent_skip, finding(silent_skip), width=200)
    script = tmp_path / "repro.py"
    script.write_text("\n".join(snippet) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]


def test_an_emitted_test_holds_readable_literals_and_fails_readably(silent_skip: Report, tmp_path: Path) -> None:
    result = finding(silent_skip)
    written = {p.name: p for p in emit_tests(silent_skip.results, silent_skip.target, tmp_path)}
    path = written[f"test_{emitted_name(result)}.py"]
    text = path.read_text(encoding="utf-8")
    assert "json.loads" not in text and "RESULT = Result.from_dict({\n" in text
    assert 'server.call("create_note", {"title": ' in text, "the docstring holds the console's Python"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)]
    buggy = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert buggy.returncode == 1, buggy.stdout[-2000:]
    assert "probe-silent-noop on create_note still fails: " in buggy.stdout, buggy.stdout[-2000:]
    assert "  create_note(" in buggy.stdout and "    -> " in buggy.stdout, buggy.stdout[-2000:]
    assert "Replay(" not in buggy.stdout, "a still failing test names calls and answers, not a dataclass"
    fixed = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300,
                           env={**os.environ, "HYPOTHESIS_MCP_TARGET": command_line(sample())})
    assert fixed.returncode == 0, fixed.stdout[-2000:]
