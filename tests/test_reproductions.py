"""Reproductions a user pastes: the console shows each as Python over the public API with
readable literals, the same lines an emitted test carries; pasted as printed it fails while the bug
is there, naming the broken law, passes once it is fixed, and keeps the server's files in a folder
of its own; an emitted test that still fails says which calls and answers, not a dump of the
replay."""

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

from helpers import command_line, journal_store, one, sample, sample_probes
from hypothesis_mcp.emit import emit_tests, file_name
from hypothesis_mcp.report.console import render_console
from hypothesis_mcp.results import Report, Result
from hypothesis_mcp.snippet import literal, program

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
    end = start + 3 + len(result.reproduction.calls) if result.reproduction else start
    return [line[3:] for line in lines[start:end]]


def run_program(lines: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    """The program in a fresh interpreter, in an empty folder, with its own temporary folder."""
    work, scratch = folder / "work", folder / "tmp"
    work.mkdir(parents=True)
    scratch.mkdir()
    script = folder / "repro.py"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=work,
                          env={**os.environ, "TMPDIR": str(scratch)})


def test_the_console_shows_python_that_makes_the_same_calls(silent_skip: Report) -> None:
    result = finding(silent_skip)
    assert result.reproduction is not None
    snippet = snippet_of(silent_skip, result, width=60)
    assert snippet[1] == f"with connect({literal(silent_skip.target)}) as server:", "one line at any width"
    calls = [node for node in ast.walk(ast.parse("\n".join(snippet))) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Attribute) and node.func.attr == "call"]
    made = [(ast.literal_eval(c.args[0]), ast.literal_eval(c.args[1])) for c in calls]
    assert made == [(call.tool, call.arguments) for call in result.reproduction.calls]


def test_the_console_snippet_fails_with_the_bug_and_passes_without(silent_skip: Report, tmp_path: Path) -> None:
    """Pasted as printed: an AssertionError stating the law on the buggy server; on the correct one
    (the same program without `--bug`) it passes; it writes nothing where it runs."""
    result = finding(silent_skip)
    snippet = snippet_of(silent_skip, result, width=200)
    assert snippet[-1].startswith("    assert holds(server, "), snippet
    buggy = run_program(snippet, tmp_path / "buggy")
    assert buggy.returncode == 1, buggy.stderr[-2000:]
    assert f"AssertionError: {result.message}" in buggy.stderr, buggy.stderr[-2000:]
    fixed_lines = [line.replace(" --bug silent-skip", "") for line in snippet]
    assert fixed_lines != snippet
    fixed = run_program(fixed_lines, tmp_path / "fixed")
    assert fixed.returncode == 0 and "Traceback" not in fixed.stderr, fixed.stderr[-2000:]
    for folder in (tmp_path / "buggy", tmp_path / "fixed"):
        assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) == ["repro.py", "tmp", "work"]


def test_a_program_gives_the_server_its_environment_in_a_folder_of_its_own(tmp_path: Path) -> None:
    """A `{tmpdir}` in the run's environment becomes a folder the program makes (tempfile.mkdtemp):
    the server's data file lands there, never at its default place. The journal keeps its entries in
    JOURNAL_FILE (default: the system temporary folder), so a second write shows in the read."""
    calls = [{"tool": "save_entry", "arguments": {"slug": "hm1-slug", "body": "hm1-body"}},
             {"tool": "browse_journal", "arguments": {}}]
    result = Result.from_dict({"kind": "probe", "check": "round-trip", "tool": "save_entry", "status": "fail",
                               "rule": "probe-write-not-observable", "message": "the entry is not shown",
                               "id": "probe/round-trip/probe-write-not-observable/save_entry",
                               "details": {"expect": {"contains_any": ["hm1-body"]}},
                               "reproduction": {"calls": calls}})
    lines = program(result, command_line(journal_store("keeps-file")),
                    env={"JOURNAL_FILE": "{tmpdir}/journal.json"})
    assert "folder = tempfile.mkdtemp()" in lines and "{tmpdir}" not in "\n".join(lines), lines
    assert 'env={"JOURNAL_FILE": folder + "/journal.json"}' in "\n".join(lines), lines
    done = run_program(lines, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    made = [p.relative_to(tmp_path / "tmp") for p in (tmp_path / "tmp").rglob("*") if p.is_file()]
    assert len(made) == 1 and made[0].name == "journal.json" and len(made[0].parts) == 2, made
    assert "hm1-body" in (tmp_path / "tmp" / made[0]).read_text(encoding="utf-8")
    assert not list((tmp_path / "work").iterdir())


def test_an_emitted_test_holds_readable_literals_and_fails_readably(silent_skip: Report, tmp_path: Path) -> None:
    result = finding(silent_skip)
    written = {p.name: p for p in emit_tests(silent_skip.results, silent_skip.target, tmp_path)}
    path = written[file_name(result, silent_skip.target, tmp_path)]
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


def test_emitted_tests_of_two_folders_are_collected_together(silent_skip: Report, tmp_path: Path) -> None:
    """pytest imports a file outside a package by its basename: two folders of the same failures
    must not hold two files of one name, or one session cannot collect both."""
    written = [emit_tests(silent_skip.results, silent_skip.target, tmp_path / folder) for folder in ("one", "two")]
    assert written[0] and len(written[0]) == len(written[1])
    assert not {p.name for p in written[0]} & {p.name for p in written[1]}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider",
                           "one", "two"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]
    assert f"{2 * len(written[0])} tests collected" in done.stdout, done.stdout[-2000:]
