"""A grading run draws from its seed and scopes alone (search/seeding.py): not from our source
text, not from which modules are loaded, not from how the package is installed.

The sample server (plain and each `--bug`) is graded two ways and the JSON reports must be
byte-identical apart from the duration: in this pytest process (this checkout's source as
installed for development, the test modules and pytest loaded beside it), and by the command line
running a wheel installed as site-packages, built from a copy of the source in which every
docstring is changed and every module holds new string and integer literals. One run of the edited
wheel shows both: neither the text nor the install moves a draw (were each to move draws, they
could not cancel out to the same bytes). It also shows that two grading runs of one server agree,
the full profile with scenarios, lint and a probe that fails and shrinks to its reproduction.

The in-process runs are the session's kept ones: the runs docs/scoring.md works through
(`--probes --allow-writes`, helpers.sample_probes) for the plain server and the probe bugs, and
`--smoke` added for the prompt bug (test_resources_prompts.py reads it), so the smoke checks' draws
are compared too.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from helpers import PYTHON, ROOT, STORAGE, sample, sample_probes, sample_smoked, without_duration

BUGS = [None, "silent-skip", "lose-on-write", "limit-ignored", "prompt-default-arg"]
SMOKED = ("prompt-default-arg",)
"""The variant graded with --smoke as well (its run: sample_smoked); the others as sample_probes."""
ADDED = ("title", "error", "name", "id", "hm00000000-note", "success", 123456789, 98765432109876)
"""Literals of the kind Hypothesis would mine from a loaded module: field and error words, a
marker, large integers."""
CLI = "import sys; from hypothesis_mcp.launch import main; sys.argv[0] = 'hypothesis-mcp'; main()"


def _copy_tree(to: Path) -> Path:
    to.mkdir(parents=True)
    for name in ("src", "strategies"):
        shutil.copytree(ROOT / name, to / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, to / name)
    return to


def _edit_docstrings(source: str) -> str:
    """Every module, class and function docstring with words added before its closing quotes."""
    tree = ast.parse(source)
    lines = source.encode().splitlines(keepends=True)
    ends: list[tuple[int, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str) and first.end_lineno is not None
                    and first.end_col_offset is not None):
                ends.append((first.end_lineno - 1, first.end_col_offset))
    for line, col in sorted(ends, reverse=True):
        text = lines[line]
        quotes = 3 if text[col - 3:col] in (b'"""', b"'''") else 1
        lines[line] = text[:col - quotes] + b" Edited by the draw-stability test." + text[col - quotes:]
    return b"".join(lines).decode()


def _edit(tree: Path) -> int:
    """Change every docstring and add literals to every module of the copy; the modules edited.
    The sample server's docstrings are its tools' descriptions, part of the server under test, so
    it only gets the literals."""
    count = 0
    for path in sorted((tree / "src" / "hypothesis_mcp").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if path.name != "sample_server.py":
            source = _edit_docstrings(source)
        source += f"\n_EDITED_BY_TEST = {ADDED!r}\n"
        ast.parse(source)
        path.write_text(source, encoding="utf-8")
        count += 1
    return count


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site-packages folder holding the package installed from a wheel of an edited copy."""
    base = tmp_path_factory.mktemp("draws")
    tree = _copy_tree(base / "edited")
    assert _edit(tree) > 50
    built = base / "dist"
    subprocess.run([PYTHON, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(built), str(tree)], check=True, capture_output=True, timeout=300)
    site = base / "site-packages"
    subprocess.run([PYTHON, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site),
                    *map(str, built.glob("*.whl"))], check=True, capture_output=True, timeout=300)
    return site


def _env(path: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(path), "HYPOTHESIS_STORAGE_DIRECTORY": str(STORAGE),
            "PATH": f"{Path(PYTHON).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def _loaded_from(path: Path) -> Path:
    found = subprocess.run([PYTHON, "-c", "import hypothesis_mcp; print(hypothesis_mcp.__file__)"],
                           env=_env(path), capture_output=True, text=True, check=True)
    return Path(found.stdout.strip()).parent


def _grade(path: Path, bug: str | None, out: Path) -> subprocess.Popen[str]:
    args = ["test", *(["--smoke"] if bug in SMOKED else []), "--probes", "--allow-writes", "--profile", "grading",
            "--quiet", "--json", str(out), "--", *sample(bug)]
    return subprocess.Popen([PYTHON, "-c", CLI, *args], env=_env(path), cwd=out.parent, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)


def _text(data: dict[str, Any]) -> str:
    return json.dumps(without_duration(data), indent=2, ensure_ascii=False, sort_keys=True)


def test_the_edited_wheel_is_what_runs(edited: Path) -> None:
    """The command line below runs the edited copy from site-packages, not this checkout's source."""
    loaded = _loaded_from(edited)
    assert loaded == edited / "hypothesis_mcp" and "/site-packages/" in f"{edited}/"
    assert "Edited by the draw-stability test." in (loaded / "search/driver.py").read_text()
    assert "_EDITED_BY_TEST" in (loaded / "engine.py").read_text()


@pytest.mark.parametrize("bug", BUGS, ids=[b or "plain" for b in BUGS])
def test_grading_json_is_the_same_whatever_the_source_text_or_install(
        bug: str | None, edited: Path, tmp_path: Path) -> None:
    out = tmp_path / "edited.json"
    proc = _grade(edited, bug, out)
    kept = sample_smoked(bug) if bug in SMOKED else sample_probes(bug)
    baseline = _text(kept.to_dict())
    _, stderr = proc.communicate(timeout=600)
    # Graded to its end: every variant's html export blocks (1), a failed smoke check wins (4).
    assert proc.returncode in (1, 4), f"exit {proc.returncode}\n{stderr[-2000:]}"
    assert _text(json.loads(out.read_text(encoding="utf-8"))) == baseline
    data = json.loads(baseline)
    assert {r["kind"] for r in data["results"]} >= {"scenario", "lint", "probe"}
    if bug == "silent-skip":
        assert any(r["rule"] == "probe-silent-noop" and r["reproduction"] for r in data["results"])
