"""`hypothesis-mcp --help` a user can scan: `-h`, options in panels with named placeholders, examples and
exit codes; and help and version answered without loading Hypothesis or the mcp SDK."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import cli

PANELS = ("Target", "Checks", "Writes", "Search budget", "Outputs", "CI gates")

# Runs the console script's entry point in-process, then names the top-level packages it loaded.
LOADED = """
import json, sys
sys.argv = ["hypothesis-mcp", *json.loads(sys.argv[1])]
from hypothesis_mcp.launch import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def loaded_by(args: list[str]) -> tuple[str, set[str]]:
    done = subprocess.run([sys.executable, "-c", LOADED, json.dumps(args)], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "COLUMNS": "100"}, stdin=subprocess.DEVNULL)
    return done.stdout, set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["-h"], ["test", "--help"], ["tools", "-h"],
                                  ["replay", "--help"]])
def test_help_and_version_load_neither_hypothesis_nor_the_sdk(args: list[str]) -> None:
    stdout, loaded = loaded_by(args)
    assert "hypothesis-mcp" in stdout
    assert not loaded & {"hypothesis", "mcp", "mcp_types", "anyio", "httpx", "jsonschema", "pydantic"}, sorted(loaded)


def test_a_command_still_loads_what_it_needs() -> None:
    """The control: the measure above would see the SDK, were it loaded."""
    _, loaded = loaded_by(["tools", "--json", "python -c 'import sys; sys.exit(3)'", "--timeout", "5"])
    assert {"hypothesis_mcp", "mcp"} <= loaded


def test_short_help_is_help(tmp_path: Path) -> None:
    short, long = cli(["test", "-h"], tmp_path), cli(["test", "--help"], tmp_path)
    assert short.code == long.code == 0, short
    assert short.stdout == long.stdout
    assert cli(["-h"], tmp_path).stdout == cli(["--help"], tmp_path).stdout


def test_test_help_groups_options_with_named_placeholders(tmp_path: Path) -> None:
    run = cli(["test", "--help"], tmp_path)
    assert run.code == 0, run
    text = run.stdout
    positions = [text.index(f"─ {name} ─") for name in PANELS]
    assert positions == sorted(positions), "panels in the order a user fills them in"
    for option, placeholder in (("--max-examples", "N"), ("--timeout", "SECONDS"), ("--ignore", r"RULE\[:TOOL\]"),
                                ("--json", "FILE"), ("--probe-config", "FILE"), ("--emit-tests", "DIR"),
                                ("--include-tool", "GLOB")):
        assert re.search(rf"│ {option} +{placeholder} ", text), option
    option_rows = [line for line in text.splitlines() if line.startswith("│ --") and "--help" not in line]
    assert option_rows
    for row in option_rows:
        if row.startswith(("│ --smoke ", "│ --ci ", "│ --allow-writes ")):
            assert row.split()[2][0].isupper(), f"a switch takes no value: {row}"


def test_test_help_shows_examples_and_every_exit_code(tmp_path: Path) -> None:
    text = cli(["test", "--help"], tmp_path).stdout
    examples = text[text.index("Examples"):text.index("Exit codes")]
    first = next(line.strip() for line in examples.splitlines()[1:] if line.strip().startswith("hypothesis-mcp"))
    assert first == 'hypothesis-mcp test "python server.py" --ci', "the examples open with the CI form"
    assert "--exit-zero" in examples, "the report-only form is shown too"
    codes = text[text.index("Exit codes"):]
    for code in ("0", "1", "2", "3", "4", "5", "130"):
        assert f"\n   {code} " in codes, code
    assert "143 by SIGTERM" in codes and "with or without --ci" in codes, codes


@pytest.mark.parametrize("args", [["--help"], ["test", "--help"], ["tools", "--help"], ["learn", "--help"],
                                  ["replay", "--help"], ["merge", "--help"]])
def test_help_shows_no_python_type_placeholders(args: list[str], tmp_path: Path) -> None:
    """Neither options, the help flag nor TARGET read as `<bool>`, `<str>` or `<list[str]>`."""
    run = cli(args, tmp_path)
    assert run.code == 0, run
    assert not re.findall(r"<[a-z][\w\[\], ]*>", run.stdout), run.stdout
    if args[0] in ("test", "tools", "learn"):
        assert re.search(r"│ +TARGET +The server", run.stdout), run.stdout
