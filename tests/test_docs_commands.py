"""Every command README.md and docs/*.md show, checked as written.

A `hypothesis-mcp` command is parsed by the command line's own parser (click, under typer), so an
unknown option, a misspelt name or a value of the wrong type fails here, and its values that the
command checks itself (a strategy, a waiver, a gate, a profile, a shard, `--workers`) are checked
by the same functions. A usage synopsis (`[--smoke] [--json FILE|-]`) names only options its
command has. `pytest` commands name only options pytest knows with this project's plugin and
pytest-xdist; the sample server's only its own; `pip install` installs a checkout, never a name no
index has. Three commands run end to end against the sample server, as a user runs them from a
folder of their own. What is not checked is listed in NOT_RUN, with why.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.core import TyperGroup

from helpers import ROOT, SERVE, Cli, CliRun
from hypothesis_mcp.cli import app
from hypothesis_mcp.cli_help import ANNOTATION_FORMATS
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.fleet import parse_shard
from hypothesis_mcp.gates import parse_fail_under
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.sample_server import BUGS
from hypothesis_mcp.search.lanes import parse_workers
from hypothesis_mcp.shipped import load_strategy
from hypothesis_mcp.strategies import Overrides
from hypothesis_mcp.waivers import parse_waiver

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_BLOCKS = ("bash", "sh", "shell", "console", "")
STARTS = r"(hypothesis-mcp|pytest|pip|python3?|\.|\./|\.venv/)(\s|$|[\w/-]*\s)"
"""How a line that runs something starts; a block's other lines are what a run printed."""
GITHUB_EXPRESSIONS = {"${{ matrix.shard }}": "1"}
"""A workflow's expressions, as GitHub fills them in before the shell sees the line."""

NOT_RUN = {
    "python3 -m venv .venv": "makes a virtual environment; the suite runs inside one already",
    ". .venv/bin/activate": "a shell built-in that changes the shell's PATH; test_readme_run.py runs the "
                            "command after it with this venv's bin first on PATH",
    "./scripts/install": "installs every Python and npm dependency of the suite (network); checked to exist",
    ".venv/bin/mypy": "type-checks src/ (the CI step does); checked to exist",
}
"""Pieces of documented commands that are not parsed or run here, and why."""

SAMPLE_OPTIONS = {"--bug": set(BUGS), "--http": None}
"""The sample server's command line: `--bug` takes one of BUGS, `--http` a port."""


def _str_list(values: list[str]) -> None:
    for value in values:
        parse_waiver(value, "--ignore")


CHECKED_VALUES: dict[str, Callable[[Any], object]] = {
    "strategy": load_strategy,
    "ignore": _str_list,
    "fail_under": parse_fail_under,
    "workers": parse_workers,
    "shard": parse_shard,
    "profile": make_profile,
    "arg": lambda values: Overrides.parse(list(values)),
    "annotations": lambda value: ANNOTATION_FORMATS.index(value),
}
"""The values a command checks in its own body, by parameter name, checked by the same functions."""


@dataclass(frozen=True)
class Shown:
    where: str
    line: str

    def pieces(self) -> list[list[str]]:
        """The commands of the line: split like a shell, comments dropped, cut at && || ;."""
        words = shlex.split(self.line, comments=True)
        found: list[list[str]] = [[]]
        for word in words:
            if word in ("&&", "||", ";"):
                found.append([])
            else:
                found[-1].append(word)
        return [piece for piece in found if piece]

    @property
    def synopsis(self) -> bool:
        """A usage line: `[OPTION]` brackets or `A|B` alternatives, not a command to run."""
        return bool(re.search(r"(^|\s)\[", self.line))


def shown_lines() -> list[Shown]:
    """The lines of shell blocks, and the `run:` lines of workflow blocks, of every doc."""
    found: list[Shown] = []
    last: tuple[Path, int] | None = None
    for doc in DOCS:
        lines = doc.read_text(encoding="utf-8").splitlines()
        language: str | None = None
        for number, line in enumerate(lines, 1):
            fence = re.match(r"^\s*```(\w*)", line)
            if fence:
                language = fence.group(1) if language is None else None
                continue
            if language is None:
                continue
            text = line.strip()
            if language == "yaml":
                run = re.match(r"^-?\s*run:\s*(.+)$", text)
                if run is None:
                    continue
                text = run.group(1)
            elif language not in SHELL_BLOCKS:
                continue
            text = text.removeprefix("$ ")
            for expression, value in GITHUB_EXPRESSIONS.items():
                text = text.replace(expression, value)
            where = f"{doc.relative_to(ROOT)}:{number}"
            if text.startswith("[") and found and found[-1].synopsis and last == (doc, number - 1):
                found[-1] = Shown(found[-1].where, f"{found[-1].line} {text}")  # a synopsis goes on
                last = (doc, number)
            elif text and re.match(STARTS, text):
                found.append(Shown(where, text))
                last = (doc, number)
    return found


def is_hypothesis_mcp(piece: list[str]) -> bool:
    return piece[0] == "hypothesis-mcp"


def is_pytest(piece: list[str]) -> bool:
    return piece[0] == "pytest" or piece[1:3] == ["-m", "pytest"]


def is_sample_server(piece: list[str]) -> bool:
    return piece[1:3] == ["-m", "hypothesis_mcp.sample_server"]


def is_script(piece: list[str]) -> bool:
    return piece[0] in ("python", "python3") and len(piece) > 1 and piece[1].endswith(".py")


def commands() -> list[tuple[Shown, list[str]]]:
    """Every piece of every shown line that runs something, with the line it is on."""
    return [(shown, piece) for shown in shown_lines() if not shown.synopsis for piece in shown.pieces()
            if is_hypothesis_mcp(piece) or is_pytest(piece) or is_sample_server(piece) or is_script(piece)
            or piece[:2] == ["pip", "install"] or " ".join(piece) in NOT_RUN]


def the_command_line() -> tuple[TyperGroup, typer.Context]:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    return group, typer.Context(group, info_name="hypothesis-mcp")


def parse_hypothesis_mcp(args: list[str]) -> dict[str, Any]:
    """The documented arguments as the command line parses them (click, under typer: unknown
    options and values of the wrong type raise), then the values its body checks."""
    group, top = the_command_line()
    command = group.get_command(top, args[0])
    assert command is not None, f"no command {args[0]!r}"
    context = command.make_context(args[0], list(args[1:]), parent=top)
    for name, check in CHECKED_VALUES.items():
        value = context.params.get(name)
        if value is not None and value != []:
            check(value)
    return dict(context.params)


def test_the_docs_show_commands_of_every_kind() -> None:
    shown = commands()
    kinds = {"hypothesis-mcp": is_hypothesis_mcp, "pytest": is_pytest, "sample server": is_sample_server}
    for kind, matches in kinds.items():
        assert sum(matches(piece) for _, piece in shown) >= 3, kind
    assert len(shown) >= 30, [shown.where for shown, _ in shown]


def test_every_hypothesis_mcp_command_parses_as_written() -> None:
    wrong = []
    for shown, piece in commands():
        if not is_hypothesis_mcp(piece):
            continue
        try:
            parse_hypothesis_mcp(piece[1:])
        except (typer.TyperException, UsageError, ValueError, AssertionError) as exc:
            wrong.append(f"{shown.where}: {shown.line}\n    {exc}")
    assert wrong == []


def test_a_wrong_option_or_value_would_fail_the_check() -> None:
    """The check above can fail: an option the command lacks, a value of the wrong type, a gate, a
    waiver or a strategy that does not exist are each refused."""
    for args in (["test", "python s.py", "--prboes"], ["test", "python s.py", "--timeout", "soon"],
                 ["test", "python s.py", "--fail-under", "Z"], ["test", "python s.py", "--ignore", "no-such-rule"],
                 ["test", "python s.py", "--strategy", "no-such-server"], ["replay"], ["grade", "x"]):
        with pytest.raises((typer.TyperException, UsageError, AssertionError)):
            parse_hypothesis_mcp(args)


def test_every_synopsis_names_only_options_its_command_has() -> None:
    group, top = the_command_line()
    synopses = [shown for shown in shown_lines() if shown.synopsis]
    assert len(synopses) >= 5
    for shown in synopses:
        words = shown.line.split()
        named = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", " ".join(words[2:])))
        if words[:3] == ["python", "-m", "hypothesis_mcp.sample_server"]:
            assert named <= set(SAMPLE_OPTIONS), shown
            bugs = re.search(r"--bug ([\w|-]+)", shown.line)
            assert bugs is None or set(bugs.group(1).split("|")) == set(BUGS), shown
            continue
        assert words[0] == "hypothesis-mcp", shown
        command = group.get_command(top, words[1])
        assert command is not None, shown
        known = {option for param in command.params for option in [*param.opts, *param.secondary_opts]}
        assert named <= known | {"-"}, (shown, named - known)


PYTEST_PARSE = """
import json, sys
from _pytest.config import _prepareconfig
for args in json.loads(sys.argv[1]):
    try:
        _prepareconfig(args)._ensure_unconfigure()
    except BaseException as exc:
        print(json.dumps([args, str(exc)]))
"""
"""Parses each argument list as `pytest` does before it configures anything (its own options,
this project's plugin, pytest-xdist's, Hypothesis's); prints the ones it refuses."""


def test_every_pytest_command_parses_as_written(tmp_path: Path) -> None:
    shown = [(shown, piece[1 if piece[0] == "pytest" else 3:]) for shown, piece in commands() if is_pytest(piece)]
    assert len(shown) >= 5
    wrong = [["--mcp-sever", "x"], ["--dist", "x"]]  # a wrong option and a wrong value, which must be refused
    done = subprocess.run([sys.executable, "-c", PYTEST_PARSE, json.dumps([*(args for _, args in shown), *wrong])],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    refused = [json.loads(line) for line in done.stdout.splitlines()]
    assert [args for args, _ in refused] == wrong, refused


def test_every_sample_server_command_uses_its_options() -> None:
    for shown, piece in commands():
        if not is_sample_server(piece):
            continue
        args = piece[3:]
        while args:
            option, value, args = args[0], args[1], args[2:]
            assert option in SAMPLE_OPTIONS, shown
            choices = SAMPLE_OPTIONS[option]
            assert value.isdigit() if choices is None else value in choices, shown


def test_every_script_a_command_runs_is_in_the_project() -> None:
    scripts = [(shown, piece[1]) for shown, piece in commands() if is_script(piece)]
    assert scripts
    for shown, script in scripts:
        assert (ROOT / script).is_file(), f"{shown.where}: no {script}"


def test_pip_installs_a_checkout_never_a_name_no_index_has() -> None:
    installs = [(shown, piece) for shown, piece in commands() if piece[:2] == ["pip", "install"]]
    assert installs
    for shown, piece in installs:
        targets = [word for word in piece[2:] if not word.startswith("-")]
        assert "hypothesis-mcp" not in targets, f"{shown.where}: no package index has hypothesis-mcp"
        checkouts = [word for word in targets if word.startswith((".", "/"))]
        assert checkouts, f"{shown.where}: installs no checkout"
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'name = "hypothesis-mcp"' in project, "`pip install -e .` in the README installs this checkout"


def test_the_pieces_not_run_are_still_shown_and_exist() -> None:
    shown = {" ".join(piece) for _, piece in commands()}
    assert set(NOT_RUN) <= shown, set(NOT_RUN) - shown
    assert os.access(ROOT / "scripts/install", os.X_OK)
    assert (Path(sys.executable).parent / "mypy").exists()


# --- three of them end to end ---------------------------------------------------------------------

SMOKE_RUN = 'hypothesis-mcp test "python -m hypothesis_mcp.sample_server" --smoke'
TOOLS_RUN = "hypothesis-mcp tools --config .vscode/mcp.json"
REPLAY_RUN = "hypothesis-mcp replay report.json --config .vscode/mcp.json --server notes"
VSCODE_CONFIG = {"servers": {"notes": {"type": "stdio", "command": "python",
                                       "args": ["-m", "hypothesis_mcp.sample_server"]}}}
"""The editor config of docs/config.md, with the sample server as `notes`."""


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CliRun]:
    """The smoke run (its JSON report written as report.json) and the tools listing side by side,
    then the replay of that report, each from a user's folder with this venv's python on PATH."""
    shown = {" ".join(shlex.quote(word) if " " in word else word for word in piece)
             for _, piece in commands()}
    shown |= {shown.line for shown in shown_lines()}
    for command in (SMOKE_RUN, TOOLS_RUN, REPLAY_RUN):
        assert command in shown, f"the docs no longer show {command!r}"
    folder = tmp_path_factory.mktemp("user")
    (folder / ".vscode").mkdir()
    (folder / ".vscode/mcp.json").write_text(json.dumps(VSCODE_CONFIG), encoding="utf-8")
    # `python` on PATH is this venv's; it starts the server forked by the suite's zygote
    # (tests/zygote.py), as test_readme_run.py's does, rather than importing the SDK again.
    python = folder / "bin" / "python"
    python.parent.mkdir()
    python.write_text(f'#!/bin/sh\nexec {shlex.join(SERVE)} "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    env = {"PATH": os.pathsep.join([str(python.parent), str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    started = {"smoke": Cli([*shlex.split(SMOKE_RUN)[1:], "--json", "report.json"], folder, env=env),
               "tools": Cli(shlex.split(TOOLS_RUN)[1:], folder, env=env)}
    done = {name: run.wait() for name, run in started.items()}
    done["replay"] = Cli(shlex.split(REPLAY_RUN)[1:], folder, env=env).wait()
    return done


def test_the_documented_smoke_run_grades_the_sample_server(ran: dict[str, CliRun]) -> None:
    run = ran["smoke"]
    assert run.code in (0, 1) and "Traceback" not in run.stderr, run
    assert "MCP Scorecard: notes-server" in run.stdout and "smoke:" in run.stdout, run


def test_the_documented_tools_command_reads_the_editor_config(ran: dict[str, CliRun]) -> None:
    run = ran["tools"]
    assert run.code == 0, run
    for tool in ("create_note", "list_notes", "export_notes"):
        assert tool in run.stdout, run


def test_the_documented_replay_reruns_that_report_through_the_config(ran: dict[str, CliRun]) -> None:
    run = ran["replay"]
    assert run.code in (0, 1) and "Traceback" not in run.stderr, run
    assert "happy-output-schema on export_notes" in run.stdout and "still fails" in run.stdout, run
