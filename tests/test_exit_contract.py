"""An exit code CI can trust: a blocking failure exits 1 with or without --ci (--exit-zero keeps a
report-only run at 0); an --arg value the tool's inputSchema forbids is a usage error, or with
--allow-invalid-args is sent and never held against the server; output paths that cannot be
written exit 2 before any server starts; an unknown project key names the closest one.

Real subprocesses of the console script against real servers: tests/servers/raw_server.py with
`crashy` (crash_above(n) exits for n > 50) and without it (the correct twin), and the sample
server, whose list_notes and search_notes take `limit` with maximum 100. The runs overlap.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from helpers import ROOT, Cli, CliRun, cli, command_line, sample
from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.inputs import value_problems
from hypothesis_mcp.strategies import Overrides

RAW = str(ROOT / "tests/servers/raw_server.py")
FAST = ["--profile", "grading", "--max-examples", "5"]
LIMITED = ["--include-tool", "list_*", "--include-tool", "search_notes"]
"""list_notes and search_notes take `limit` (1..100); list_tags takes nothing, so one tool is
always called with values the run vouches for."""
LIMIT = 600.0


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("exits")


@pytest.fixture(scope="module")
def runs(out: Path) -> dict[str, CliRun]:
    crashy = command_line([sys.executable, RAW, "crashy"])
    started = {
        "crash": Cli(["test", crashy, *FAST], out, json_report=True, limit=LIMIT),
        "crash-exit-zero": Cli(["test", crashy, *FAST, "--exit-zero"], out, json_report=True, limit=LIMIT),
        "twin": Cli(["test", command_line([sys.executable, RAW]), *FAST], out, json_report=True, limit=LIMIT),
        "outside": Cli(["test", command_line(sample()), *FAST, "--arg", "limit=999"], out, limit=LIMIT),
        "allowed": Cli(["test", command_line(sample()), *FAST, *LIMITED, "--arg", "limit=999",
                        "--allow-invalid-args"], out, json_report=True, limit=LIMIT),
        "baseline": Cli(["test", command_line(sample()), *FAST, *LIMITED], out, json_report=True, limit=LIMIT),
    }
    return {name: run.wait() for name, run in started.items()}


def last_line(run: CliRun) -> str:
    return run.stdout.strip().splitlines()[-1]


def test_a_crashing_server_exits_1_without_ci(runs: dict[str, CliRun]) -> None:
    run = runs["crash"]
    assert run.code == 1, run
    assert run.results(kind="incident", rule="server-crashed", tool="crash_above"), run
    assert last_line(run).startswith("Gate failed — 1 blocking failure: server-crashed on crash_above"), run


def test_exit_zero_keeps_a_report_only_run_at_0_and_still_names_the_failure(runs: dict[str, CliRun]) -> None:
    run = runs["crash-exit-zero"]
    assert run.code == 0, run
    assert run.results(kind="incident", rule="server-crashed", tool="crash_above"), "the same findings"
    assert last_line(run).startswith("Gate failed, not enforced (--exit-zero) — 1 blocking failure: "
                                     "server-crashed on crash_above"), run


def test_the_correct_twin_exits_0(runs: dict[str, CliRun]) -> None:
    run = runs["twin"]
    assert run.code == 0, run
    assert not run.results(kind="incident"), run
    assert last_line(run).startswith("Gates passed"), run


def test_an_arg_outside_the_schema_is_a_usage_error_naming_the_keyword(runs: dict[str, CliRun]) -> None:
    run = runs["outside"]
    assert run.code == 2, run
    assert "--arg limit=999: search_notes's limit must be <= 100 (maximum)" in run.stderr, run
    assert "--arg limit=999: list_notes's limit must be <= 100 (maximum)" in run.stderr, run
    assert "--allow-invalid-args" in run.stderr and "Traceback" not in run.stderr, run
    assert "MCP Scorecard" not in run.stdout, "no tool was called"


def test_allow_invalid_args_sends_the_value_and_never_blames_the_server(runs: dict[str, CliRun]) -> None:
    run, baseline = runs["allowed"], runs["baseline"]
    assert run.code == 0 and baseline.code == 0, f"{run}\n{baseline}"
    assert run.report is not None and baseline.report is not None
    assert not run.results(rule="happy-rejected-valid-input"), run
    for tool in ("list_notes", "search_notes"):
        (happy,) = run.results(kind="scenario", check="happy", tool=tool)
        assert happy["status"] == "skip" and "not judged" in happy["message"], happy
        assert "limit must be <= 100 (maximum)" in happy["message"], happy
        assert int(happy["details"]["calls_answered"]) > 0, "the value was sent"
    assert any("sent anyway (--allow-invalid-args)" in note for note in run.report["notes"]), run.report["notes"]
    assert "ABCDF".index(run.report["grade"]) <= "ABCDF".index(baseline.report["grade"]), \
        (run.report["grade"], baseline.report["grade"], run.report["grade_cap"])
    assert not run.report["grade_cap"]["capped"], run.report["grade_cap"]


def test_an_unwritable_output_exits_2_before_any_server_starts(tmp_path: Path) -> None:
    """The target would leave a file behind if it were started."""
    started = tmp_path / "started"
    target = command_line([sys.executable, "-c", f"open({str(started)!r}, 'w')"])
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "a-file").write_text("")
    run = cli(["test", target, "--json", str(tmp_path / "missing/report.json"), "--junit", str(tmp_path / "a-folder"),
               "--markdown", str(tmp_path / "missing/summary.md"), "--sarif", str(tmp_path / "missing/r.sarif"),
               "--badge", str(tmp_path / "missing/badge.svg"), "--emit-tests", str(tmp_path / "a-file/tests")],
              tmp_path)
    assert run.code == 2, run
    assert not started.exists(), "the server was started"
    message = run.stderr.strip()
    assert len(message.splitlines()) == 1 and "Traceback" not in message, run
    named = [("--json", "missing/report.json"), ("--junit", "a-folder"), ("--markdown", "missing/summary.md"),
             ("--sarif", "missing/r.sarif"), ("--badge", "missing/badge.svg"), ("--emit-tests", "a-file/tests")]
    for flag, path in named:
        assert f"{flag} {tmp_path / path}:" in message, (flag, message)
    assert f"the folder {tmp_path / 'missing'} does not exist" in message and "is a folder" in message, message


def test_an_unknown_project_key_names_the_closest_one(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.hypothesis-mcp]\nfail_undr = "B"\nmax-examples = 3\n')
    run = cli(["test", "unused"], tmp_path)
    assert run.code == 2, run
    assert "[tool.hypothesis-mcp]: unknown key(s) fail-undr; fail-undr: did you mean fail-under?" in run.stderr, run


def test_each_value_outside_the_schema_names_where_it_was_given_and_what_is_allowed(tmp_path: Path) -> None:
    """Judged by the run's one validator, `$ref` and nested values included; what only the whole call
    can break (a required parameter left to generation) is not the given values' fault."""
    tool = Tool("find", {
        "type": "object", "required": ["query"], "$defs": {"Mode": {"enum": ["fast", "exact"]}},
        "properties": {"query": {"type": "string"}, "mode": {"$ref": "#/$defs/Mode"},
                       "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                       "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}},
                       "code": {"type": "string", "maxLength": 3}}})
    args_file = tmp_path / "args.yaml"
    args_file.write_text("find:\n  code: abcd\n")
    given = Overrides.parse(["mode=slow", "find:limit=0", "tags=[\"ok\", \"Not\"]", "query=fine"], args_file)
    assert sorted(value_problems([tool], given)) == sorted([
        f"--args-file {args_file}: find.code: find's code must have at most 3 characters (maxLength)",
        "--arg find:limit=0: find's limit must be >= 1 (minimum)",
        '--arg mode=slow: find\'s mode must be one of "fast", "exact" (enum)',
        "--arg tags=[\"ok\", \"Not\"]: find's tags/1 must match the pattern ^[a-z]+$ (pattern)",
    ])
    assert value_problems([tool], Overrides.parse(["limit=100", "mode=exact"])) == [], "required query: not theirs"
    broken = Tool("broken", {"type": "object", "properties": {"p": {"type": "string", "pattern": "("}}})
    assert value_problems([broken], Overrides.parse(["p=x"])) == [], "a schema the oracle cannot apply judges nothing"
