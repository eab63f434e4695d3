"""A grade CI can trust: pure machine output, partial runs, checked inputs, waivers, verified
isolation, stable result ids and reproductions people can paste.

Every run is a real subprocess of the console script against a real server: the sample server,
or tests/servers/journal_store.py, whose `--bug keeps-file` keeps its entries in a file that
every new process reads (its in-memory twin is the control). The runs start together in one
module fixture and overlap.
"""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console

from helpers import (
    STORAGE,
    Cli,
    CliRun,
    cli,
    command_line,
    engine,
    free_port,
    grading,
    http_server,
    journal_store,
    memory_server,
    one,
    results,
    sample,
    smoke_demo,
)
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.report.console import render_console
from hypothesis_mcp.shipped import suggest_for
from hypothesis_mcp.waivers import parse_waiver

WAIVED_ID = "scenario/happy/happy-output-schema/export_notes"
BLOCKED = "Gate failed — 1 blocking failure: happy-output-schema on export_notes"
"""The sample server's gate line without --ci: its html export breaks its outputSchema."""
LIMIT = 900.0
"""The runs of a fixture overlap; on a loaded machine the slowest can take minutes."""


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("trust")


@pytest.fixture(scope="module")
def runs(out: Path) -> dict[str, CliRun]:
    fast = ["--max-examples", "10"]
    journal = out / "journal.json"
    config = out / "waive.yaml"
    config.write_text("ignore:\n  - happy-output-schema:export_notes\n")
    started = {
        "unwaived": Cli(["test", command_line(sample()), "--ci", *fast], out, json_report=True, limit=LIMIT),
        "waived": Cli(["test", command_line(sample()), "--ci", *fast, "--ignore", "happy-output-schema:export_notes",
                       "--markdown", str(out / "waived.md"), "--junit", str(out / "waived.xml"),
                       "--badge", str(out / "waived.svg")], out, json_report=True, limit=LIMIT),
        "config-waived": Cli(["test", command_line(sample()), "--ci", *fast, "--probe-config", str(config)], out,
                             json_report=True, limit=LIMIT),
        "smoke": Cli(["test", command_line(sample()), "--ci", "--smoke", *fast], out, json_report=True, limit=LIMIT),
        "smoke-waived": Cli(["test", command_line(smoke_demo()), "--smoke", "--profile", "grading", *fast,
                             "--ignore", "smoke_structured_content:dishonest", "--ignore",
                             "smoke_invalid_arguments:sloppy"], out, json_report=True, limit=LIMIT),
        "stdout": Cli(["test", command_line(sample()), "--profile", "grading", *fast, "--json", "-"], out, limit=LIMIT),
        "markdown-stdout": Cli(["test", command_line(sample()), "--profile", "grading", *fast, "--markdown", "-"],
                               out, limit=LIMIT),
        "quiet": Cli(["test", command_line(sample()), "--profile", "grading", *fast, "--quiet"], out, limit=LIMIT),
        "partial": Cli(["test", command_line(sample("silent-skip")), "--probes", "--allow-writes", "--max-time", "2",
                        "--ci", "--markdown", str(out / "partial.md"), "--badge", str(out / "partial.json")], out,
                       json_report=True, limit=LIMIT),
        "persists": Cli(["test", command_line(journal_store("keeps-file")), "--probes", "--allow-writes", *fast,
                         "--profile", "grading", "--env", f"JOURNAL_FILE={journal}"], out, json_report=True,
                        limit=LIMIT),
        "throwaway": Cli(["test", command_line(journal_store("keeps-file")), "--probes", "--allow-writes", *fast,
                          "--profile", "grading", "--env", "JOURNAL_FILE={tmpdir}/journal.json"], out,
                         json_report=True, limit=LIMIT),
        "twin": Cli(["test", command_line(journal_store()), "--probes", "--allow-writes", *fast,
                     "--profile", "grading"], out, json_report=True, limit=LIMIT),
    }
    return {name: run.wait() for name, run in started.items()}


# --- 1. machine output is pure ------------------------------------------------------------------

def test_json_to_stdout_is_the_only_thing_on_stdout(runs: dict[str, CliRun]) -> None:
    run = runs["stdout"]
    assert run.code == 1, run  # the html export's broken output is a blocking failure, --ci or not
    data = json.loads(run.stdout)
    assert data["schema_version"] == 1 and data["results"], run
    assert "MCP Scorecard" in run.stderr and BLOCKED in run.stderr, run
    tool = subprocess.run([sys.executable, "-m", "json.tool"], input=run.stdout, capture_output=True, text=True)
    assert tool.returncode == 0, tool.stderr


def test_markdown_to_stdout_is_the_only_thing_on_stdout(runs: dict[str, CliRun]) -> None:
    run = runs["markdown-stdout"]
    assert run.code == 1, run
    assert run.stdout.startswith("## MCP Scorecard: notes-server"), run
    assert "╭" not in run.stdout and "Gate failed" not in run.stdout and BLOCKED in run.stderr, run
    assert "MCP Scorecard" in run.stderr, run


def test_two_outputs_cannot_share_stdout(out: Path) -> None:
    run = cli(["test", command_line(sample()), "--json", "-", "--markdown", "-"], out)
    assert run.code == 2 and "only one output can go to stdout" in run.stderr, run
    assert run.stdout == "", run


def test_quiet_prints_only_the_gate_line(runs: dict[str, CliRun]) -> None:
    """--quiet prints the gate line alone: no progress, no report (on stderr either)."""
    run = runs["quiet"]
    assert run.code == 1 and run.stderr == "", run
    assert run.stdout.strip().splitlines() == [run.stdout.strip()], run
    assert run.stdout.strip() == BLOCKED, run


# --- 2. partial runs are never graded as complete -----------------------------------------------

def test_a_run_cut_by_max_time_is_partial_and_fails_ci(runs: dict[str, CliRun], out: Path) -> None:
    run = runs["partial"]
    assert run.code == 1, run
    assert run.report is not None
    assert run.report["partial"] is True, run
    assert "--max-time 2s reached" in run.report["partial_reason"], run
    assert "Gate failed — --ci: incomplete run (--max-time 2s reached" in run.stdout, run
    assert "MCP Scorecard: notes-server 0.1.0  —  PARTIAL" in run.stdout, run
    assert "(PARTIAL)" in (out / "partial.md").read_text().splitlines()[0]
    assert "PARTIAL RUN" in (out / "partial.md").read_text()
    badge = json.loads((out / "partial.json").read_text())
    assert badge["message"].startswith("PARTIAL ") and badge["color"] == "lightgrey", badge


def test_a_complete_run_is_not_partial(runs: dict[str, CliRun]) -> None:
    report = runs["unwaived"].report
    assert report is not None
    assert report["partial"] is False and report["partial_reason"] is None
    assert report["interrupted"] is False


# --- 3. inputs are checked against the catalog --------------------------------------------------

BAD_NAMES = {
    "arg-tool": (["--arg", "no_such_tool:x=1"], "no tool 'no_such_tool'"),
    "arg-tool-typo": (["--arg", "get_notes:title=x"], "closest: get_note"),
    "arg-param": (["--arg", "get_note:titel=x"], "tool 'get_note' has no parameter 'titel' in its inputSchema; "
                  "closest: title"),
    "arg-any-param": (["--arg", "nosuchparam=1"], "no tool takes a parameter 'nosuchparam'"),
    "ignore-tool": (["--ignore", "happy-output-schema:export_note"], "closest: export_notes"),
    "ignore-rule": (["--ignore", "happy-output-shema"], "no rule 'happy-output-shema'; closest: happy-output-schema"),
    "strategy": (["--strategy", "server-memroy"], "closest: server-memory"),
}


@pytest.fixture(scope="module")
def bad_name_runs(out: Path) -> dict[str, CliRun]:
    pair = out / "pair.yaml"
    pair.write_text("pairs:\n  - write: create_note\n    read: get_notez\n")
    args_file = out / "args.json"
    args_file.write_text('{"list_note": {"limit": 2}}')
    broken = out / "broken.yaml"
    broken.write_text("pairs:\n  - write: create_note\n    read: [get_note\n")
    broken_json = out / "broken.json"
    broken_json.write_text('{"pairs": [\n  {"write": "create_note",}\n]}')
    started = {name: Cli(["test", command_line(sample()), *args], out, limit=LIMIT)
               for name, (args, _) in BAD_NAMES.items()}
    started["config-pair"] = Cli(["test", command_line(sample()), "--probe-config", str(pair)], out, limit=LIMIT)
    started["args-file"] = Cli(["test", command_line(sample()), "--args-file", str(args_file)], out, limit=LIMIT)
    started["yaml"] = Cli(["test", command_line(sample()), "--probe-config", str(broken)], out, limit=LIMIT)
    started["json"] = Cli(["test", command_line(sample()), "--probe-config", str(broken_json)], out, limit=LIMIT)
    return {name: run.wait() for name, run in started.items()}


@pytest.mark.parametrize("name", sorted(BAD_NAMES))
def test_unknown_names_exit_2_with_the_closest(bad_name_runs: dict[str, CliRun], name: str) -> None:
    run = bad_name_runs[name]
    assert run.code == 2, run
    assert BAD_NAMES[name][1] in run.stderr, run
    assert "Traceback" not in run.stderr, run


def test_a_config_pair_naming_an_unknown_tool_exits_2(bad_name_runs: dict[str, CliRun]) -> None:
    run = bad_name_runs["config-pair"]
    assert run.code == 2, run
    assert "pair.yaml: pairs[0].read: no tool 'get_notez'; closest: get_note" in run.stderr, run
    args = bad_name_runs["args-file"]
    assert args.code == 2 and "--args-file" in args.stderr and "closest: list_notes" in args.stderr, args


def test_config_syntax_errors_name_file_line_and_column(bad_name_runs: dict[str, CliRun]) -> None:
    run = bad_name_runs["yaml"]
    assert run.code == 2, run
    assert "broken.yaml:4:1: probe config is not valid YAML" in run.stderr, run
    run = bad_name_runs["json"]
    assert run.code == 2, run
    assert "broken.json:2:27: probe config is not valid JSON" in run.stderr, run


# --- 4. waivers ------------------------------------------------------------------------------------

def test_without_the_waiver_the_sample_server_fails_ci(runs: dict[str, CliRun]) -> None:
    run = runs["unwaived"]
    assert run.code == 1, run
    assert run.results(id=WAIVED_ID)[0]["status"] == "fail"


def test_a_waived_result_keeps_its_row_and_never_gates(runs: dict[str, CliRun], out: Path) -> None:
    run, before = runs["waived"], runs["unwaived"]
    assert run.code == 0, run
    assert run.report is not None and before.report is not None
    (waived,) = run.results(id=WAIVED_ID)
    assert waived["status"] == "waived"
    assert waived["waiver"] == {"rule": "happy-output-schema", "tool": "export_notes", "source": "--ignore",
                                "status": "fail"}
    assert run.report["waivers"] == [{"rule": "happy-output-schema", "tool": "export_notes",
                                      "source": "--ignore", "matched": [WAIVED_ID]}]
    assert len(run.report["results"]) == len(before.report["results"])
    assert run.report["subscores"]["happy"] == 100.0 > before.report["subscores"]["happy"], "never scored"
    assert "Waived (1)" in run.stdout and "waived by --ignore" in run.stdout, run
    assert "Gates passed" in run.stdout and "1 waived" in run.stdout, run
    markdown = (out / "waived.md").read_text()
    assert "### Waived (1)" in markdown and WAIVED_ID in markdown and "--ignore" in markdown
    junit = ET.parse(out / "waived.xml").getroot()
    case = next(c for c in junit.iter("testcase") if c.get("id") == WAIVED_ID)
    skipped = case.find("skipped")
    assert skipped is not None and "waived by --ignore" in skipped.get("message", "")
    assert "1 waived: happy-output-schema on export_notes" in (out / "waived.svg").read_text()


def test_waived_smoke_checks_do_not_fail_the_smoke_gate(runs: dict[str, CliRun]) -> None:
    """The smoke demo fails two smoke checks (exit 4 without waivers, tests/test_cli.py); a smoke
    check is waived by its check id, and only that result: the edge scenario on sloppy still fails."""
    run = runs["smoke-waived"]
    assert run.code == 1, run  # not 4: what still fails the run is no smoke check
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("Gate failed — ") and "--smoke" not in last, last
    assert run.report is not None
    smoke = run.report["smoke"]
    assert smoke["summary"]["failed"] == 0, smoke
    assert sorted((c["check_id"], c["tool_name"]) for c in smoke["checks"] if c["verdict"] == "waived") == [
        ("smoke_invalid_arguments", "sloppy"), ("smoke_structured_content", "dishonest")]
    (smoke_sloppy,) = run.results(kind="smoke", tool="sloppy", check="smoke_invalid_arguments")
    assert smoke_sloppy["status"] == "waived"
    assert run.results(kind="scenario", check="edge", tool="sloppy")[0]["status"] == "fail"


def test_a_probe_config_ignore_list_waives_and_says_where(runs: dict[str, CliRun], out: Path) -> None:
    run = runs["config-waived"]
    assert run.code == 0, run
    (waived,) = run.results(id=WAIVED_ID)
    assert waived["status"] == "waived"
    assert waived["waiver"]["source"] == f"{out / 'waive.yaml'}: ignore[0]"


# --- 5. isolation is verified ---------------------------------------------------------------------

def test_a_server_keeping_records_in_a_file_gets_state_persists(runs: dict[str, CliRun]) -> None:
    run = runs["persists"]
    assert run.code == 0, run
    assert run.report is not None
    (found,) = run.results(rule="state-persists")
    assert found["status"] == "warn" and found["tool"] == "save_entry", found
    assert "browse_journal showed" in found["message"] and "hm" in found["message"], found
    assert "{tmpdir}" in found["fix"], found
    assert "--strategy" not in found["message"], "no shipped strategy is made for this server"
    assert "state persists" in run.report["isolation"], run.report["isolation"]
    repros = [r["reproduction"] for r in run.report["results"] if r["reproduction"]]
    assert not any(r["fresh_server"] for r in repros)
    assert "starts from a fresh server" not in run.stdout, run


@pytest.mark.parametrize("name", ["twin", "throwaway"])
def test_isolated_servers_get_no_state_persists(runs: dict[str, CliRun], name: str) -> None:
    """The in-memory twin, and the file-keeping server given a data file per process ({tmpdir})."""
    run = runs[name]
    assert run.code == 0, run
    assert run.report is not None
    assert not run.results(rule="state-persists"), run
    assert run.report["isolation"] == "fresh server process per stateful example"
    (round_trip,) = run.results(kind="probe", check="round-trip")
    assert round_trip["status"] == "pass", round_trip


# --- 6. stable result ids ----------------------------------------------------------------------------

def test_result_ids_do_not_depend_on_the_options(runs: dict[str, CliRun]) -> None:
    plain, smoke = runs["unwaived"].report, runs["smoke"].report
    assert plain is not None and smoke is not None

    def ids(report: dict) -> dict[tuple[str, str, str | None, str], list[str]]:
        found: dict[tuple[str, str, str | None, str], list[str]] = {}
        for r in report["results"]:
            found.setdefault((r["kind"], r["check"], r["tool"], r["rule"]), []).append(r["id"])
        return found

    shared = ids(plain).keys() & ids(smoke).keys()
    assert len(shared) == len(plain["results"]), "every result of the plain run is in the smoke run"
    assert all(ids(plain)[key] == ids(smoke)[key] for key in shared)
    assert any(r["kind"] == "smoke" for r in smoke["results"])
    every = [r["id"] for r in smoke["results"]]
    assert len(every) == len(set(every)), "ids are unique"


# --- 7. reproductions people can paste ---------------------------------------------------------------

def test_console_shows_the_calls_and_the_replay_command(runs: dict[str, CliRun], out: Path) -> None:
    run = runs["unwaived"]
    text = " ".join(run.stdout.split())
    assert 'server.call("export_notes", {"format": "html"})' in text, run
    command = f"hypothesis-mcp replay {run.args[-1]} --result '{WAIVED_ID}'"
    assert command in text, run
    replayed = cli(shlex.split(command)[1:], out)
    assert replayed.code == 1 and "still fails" in replayed.stdout, replayed


def test_replay_emit_tests_turns_a_report_into_pytest_files(runs: dict[str, CliRun], out: Path) -> None:
    report = runs["unwaived"].args[-1]
    folder = out / "emitted"
    run = cli(["replay", report, "--emit-tests", str(folder)], out)
    assert run.code == 0, run
    files = sorted(folder.glob("test_*.py"))
    named = [f.name[:-len("_12345678.py")] for f in files]
    assert named == ["test_scenario_happy_happy_output_schema_export_notes"], run
    # The html export fails on every variant of the sample server: the emitted test fails too.
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                             str(files[0])], capture_output=True, text=True, cwd=out,
                            env={**os.environ, "HYPOTHESIS_STORAGE_DIRECTORY": str(STORAGE)}, timeout=120)
    assert result.returncode == 1, result.stdout[-2000:]
    assert "happy-output-schema on export_notes" in result.stdout, result.stdout[-2000:]
    unknown = cli(["replay", report, "--result", "scenario/happy/happy-output-schema/export_note"], out)
    assert unknown.code == 2 and f"closest: {WAIVED_ID}" in unknown.stderr, unknown


# --- 8. small fixes ----------------------------------------------------------------------------------

def test_a_url_target_never_claims_fresh_server_examples() -> None:
    with http_server(sample()) as url:
        report = engine(url, grading(max_examples=5), probes=True, allow_writes=True)
    assert report.isolation.startswith("shared server (URL target)")
    trip = one(report, kind="probe", check="round-trip", tool="create_note")
    assert trip.status == "pass" and "shared-server (URL target) example(s)" in trip.message, trip
    assert "fresh" not in trip.message
    assert not results(report, rule="state-persists"), "a shared server keeps records by design"


def test_an_unreachable_url_does_not_talk_about_stderr(out: Path) -> None:
    run = cli(["test", f"http://127.0.0.1:{free_port()}/mcp", "--timeout", "3"], out)
    assert run.code == 5, run
    assert "stderr" not in run.stderr and "check the URL" in run.stderr, run


def test_state_persists_on_server_memory_suggests_its_shipped_strategy(tmp_path: Path) -> None:
    """server-memory keeps its graph in a JSONL file; every process given the same file shares it.
    The run sees the pair its strategy names (`--include-tool`): each write tool shows it alike, and
    the other six tools' searches and machines were two thirds of the run's CPU."""
    command = memory_server()
    if command is None:
        pytest.skip("server-memory is not installed (scripts/install-npm-servers)")
    target = parse_target(command, env={"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")})
    report = engine(target, grading(max_examples=5), probes=True, allow_writes=True,
                    include_tools=["create_entities", "read_graph"])
    persists = results(report, rule="state-persists")
    assert persists, [(r.rule, r.status, r.message) for r in report.results if r.kind == "probe"]
    assert all(r.fix.endswith("For this server: --strategy server-memory.") for r in persists)
    assert not any(r.reproduction.fresh_server for r in report.results if r.reproduction)
    console = Console(file=io.StringIO(), width=100, color_system=None)
    render_console(report, console)
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    hint = "use --strategy server-memory: it points the server at a temporary store"
    assert all(hint in r.message for r in persists) and hint in shown, shown


def test_shipped_strategies_name_their_servers() -> None:
    assert suggest_for("memory-server") == "server-memory"
    assert suggest_for("secure-filesystem-server") == "server-filesystem"
    assert suggest_for("notes-server") is None


@pytest.mark.parametrize("text", ["", "happy-output-schema:", ":export_notes", "no-such-rule"])
def test_malformed_waivers_are_usage_errors(text: str) -> None:
    with pytest.raises(UsageError):
        parse_waiver(text, "--ignore")
