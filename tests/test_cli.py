"""The `hypothesis-mcp` console script: exit codes, output files, the tools command.

Each CLI run is a real subprocess of the venv's console script. The runs that test a server start
together in one module fixture and overlap (they spend most of their time waiting on servers);
each test then reads the finished run it needs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from helpers import Cli, CliRun, cli, command_line, memory_server, sample, smoke_bugs, smoke_demo
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Result

KINDS = ("scenario", "smoke", "probe", "lint", "incident")
DEAD_SERVER = command_line(["python", "-c", "import sys; sys.stderr.write('boom\\n'); sys.exit(3)"])


@pytest.fixture(scope="module")
def runs(out: Path) -> dict[str, CliRun]:
    """Every server-testing run of this module, started at once."""
    fast = ["--max-examples", "10"]
    started = {
        # exit 0: the correct smoke_bugs twin, every gate on.
        "ok": Cli(["test", command_line(smoke_bugs()), "--smoke", "--ci", *fast, "--junit", str(out / "ok.xml"),
                   "--markdown", str(out / "ok.md"), "--badge", str(out / "ok.json")], out, json_report=True),
        # exit 1: --ci and a high-confidence probe failure.
        "ci": Cli(["test", command_line(sample("silent-skip")), "--probes", "--allow-writes", "--ci", *fast,
                   "--junit", str(out / "ci.xml"), "--markdown", str(out / "ci.md"), "--badge", str(out / "ci.svg"),
                   "--emit-tests", str(out / "emitted")], out, json_report=True),
        # exit 3: grade B below --fail-under A (grading: the B 89.1 of docs/scoring.md, found with 10 examples).
        "below": Cli(["test", command_line(sample()), "--profile", "grading", *fast, "--fail-under", "A"], out,
                     json_report=True),
        # exit 3 wins over 4: the smoke demo fails both gates.
        "below_and_smoke": Cli(["test", command_line(smoke_demo()), "--smoke", "--profile", "grading", *fast,
                                "--fail-under", "A"], out, json_report=True),
        # exit 4: smoke failures, score gate passed.
        "smoke": Cli(["test", command_line(smoke_demo()), "--smoke", "--profile", "grading", *fast,
                      "--fail-under", "50"], out, json_report=True),
        # exit 5: the server dies at start.
        "dead": Cli(["test", DEAD_SERVER, "--profile", "grading"], out),
    }
    return {name: run.wait() for name, run in started.items()}


# --- exit codes ----------------------------------------------------------------------------------

def test_exit_0_when_every_gate_passes(runs: dict[str, CliRun]) -> None:
    run = runs["ok"]
    assert run.code == 0, run
    assert run.report is not None
    assert run.report["smoke"]["summary"]["failed"] == 0
    assert run.report["profile"] == "grading", "--ci uses the grading profile"
    assert "Gate failed" not in run.stdout, run


def test_exit_1_on_a_blocking_failure_under_ci(runs: dict[str, CliRun]) -> None:
    run = runs["ci"]
    assert run.code == 1, run
    failure = run.results(kind="probe", rule="probe-silent-noop")
    assert [(r["tool"], r["status"], r["confidence"]) for r in failure] == [("create_note", "fail", "high")]
    last = run.stdout.splitlines()[-1]
    assert last.startswith("Gate failed — --ci: ") and "probe-silent-noop on create_note" in last, run


def test_exit_3_below_fail_under(runs: dict[str, CliRun]) -> None:
    run = runs["below"]
    assert run.code == 3, run
    assert run.report is not None and (run.report["grade"], run.report["score"]) == ("B", 89.1)


def test_exit_3_wins_over_4(runs: dict[str, CliRun]) -> None:
    run = runs["below_and_smoke"]
    assert run.code == 3, run
    assert run.report is not None and run.report["smoke"]["summary"]["failed"] == 2
    assert "Gate failed — --fail-under A: grade" in run.stdout, run
    assert "Gate failed — --smoke" not in run.stdout, "only the gate that decided the exit code is named"


def test_exit_4_when_a_smoke_check_fails(runs: dict[str, CliRun]) -> None:
    run = runs["smoke"]
    assert run.code == 4, run
    assert run.report is not None
    assert run.report["smoke"]["summary"] == {"passed": 4, "failed": 2, "skipped": 3}
    failed = {(c["check_id"], c["tool_name"]) for c in run.report["smoke"]["checks"] if c["verdict"] == "fail"}
    assert failed == {("smoke_structured_content", "dishonest"), ("smoke_invalid_arguments", "sloppy")}
    assert "dishonest" in run.stdout and "sloppy" in run.stdout
    last = run.stdout.splitlines()[-1]
    assert last.startswith("Gate failed — --smoke: 2 smoke checks failed: "), run
    named = {f"{r['rule']} on {r['tool']}" for r in run.results(kind="smoke", status="fail")}
    assert len(named) == 2 and all(name in last for name in named), run
    assert "  smoke: 4 passed, 2 failed, 3 skipped" in run.stdout, run


def test_exit_5_when_the_server_does_not_start(runs: dict[str, CliRun]) -> None:
    run = runs["dead"]
    assert run.code == 5, run
    assert "boom" in run.stderr, run
    assert "Traceback" not in run.stderr + run.stdout, run
    assert "exited with code 3" in run.stderr, run


BAD_USAGE = {
    "fail-under": (["--fail-under", "Z"], "--fail-under"),
    "fail-under-range": (["--fail-under", "150"], "between 0 and 100"),
    "arg": (["--arg", "no-equals-sign"], "no-equals-sign"),
    "profile": (["--profile", "fastest"], "fastest"),
    "env": (["--env", "NOVALUE"], "--env"),
}


@pytest.fixture(scope="module")
def usage_runs(out: Path) -> dict[str, CliRun]:
    config = out / "bad-probes.yaml"
    config.write_text("relations:\n  - tool: list_notes\n    param: limit\n    values: [1, -2]\n")
    started = {name: Cli(["test", command_line(sample()), *args], out) for name, (args, _) in BAD_USAGE.items()}
    started["probe-config"] = Cli(["test", command_line(sample()), "--probe-config", str(config)], out)
    started["missing-config"] = Cli(["test", command_line(sample()), "--probe-config", str(out / "none.yaml")], out)
    return {name: run.wait() for name, run in started.items()}


@pytest.mark.parametrize("name", sorted(BAD_USAGE))
def test_exit_2_on_usage_errors(usage_runs: dict[str, CliRun], name: str) -> None:
    run = usage_runs[name]
    assert run.code == 2, run
    assert BAD_USAGE[name][1] in run.stderr, run
    assert "Traceback" not in run.stderr, run


def test_exit_2_on_a_bad_probe_config_names_the_place(usage_runs: dict[str, CliRun]) -> None:
    run = usage_runs["probe-config"]
    assert run.code == 2, run
    assert "relations[0].values" in run.stderr, run
    assert "Traceback" not in run.stderr
    missing = usage_runs["missing-config"]
    assert missing.code == 2 and "none.yaml" in missing.stderr, missing


# --- output files --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["ok", "ci"])
def test_junit_parses_and_counts_every_result(runs: dict[str, CliRun], out: Path, name: str) -> None:
    run = runs[name]
    assert run.report is not None, run
    root = ET.parse(out / f"{name}.xml").getroot()
    assert root.tag == "testsuites"
    results = run.report["results"]
    assert int(root.get("tests", "-1")) == len(results)
    assert int(root.get("failures", "-1")) == sum(r["status"] == "fail" for r in results)
    assert int(root.get("skipped", "-1")) == sum(r["status"] in ("skip", "inconclusive") for r in results)
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {f"hypothesis-mcp.{k}" for k in KINDS}
    for kind in KINDS:
        suite = suites[f"hypothesis-mcp.{kind}"]
        mine = [r for r in results if r["kind"] == kind]
        assert len(suite.findall("testcase")) == len(mine) == int(suite.get("tests", "-1"))
        assert len(suite.findall("testcase/failure")) == sum(r["status"] == "fail" for r in mine)


def test_junit_failure_carries_the_reproduction(out: Path) -> None:
    root = ET.parse(out / "ci.xml").getroot()
    failures = [f for f in root.iter("failure") if f.get("type") == "probe-silent-noop"]
    assert len(failures) == 1
    assert "create_note" in (failures[0].text or "")


def test_markdown_shows_the_grade(runs: dict[str, CliRun], out: Path) -> None:
    for name in ("ok", "ci"):
        report = runs[name].report
        assert report is not None
        text = (out / f"{name}.md").read_text()
        assert f"**Grade {report['grade']}**" in text, text
    assert "probe-silent-noop" in (out / "ci.md").read_text()


def test_badges(runs: dict[str, CliRun], out: Path) -> None:
    ok = json.loads((out / "ok.json").read_text())
    report = runs["ok"].report
    assert report is not None
    assert ok["schemaVersion"] == 1 and ok["label"] == "mcp grade"
    assert ok["message"].startswith(report["grade"]) and "capped" not in ok["message"]
    svg = ET.parse(out / "ci.svg").getroot()
    assert svg.tag.endswith("svg")
    ci = runs["ci"].report
    assert ci is not None and ci["grade"] == "C" and ci["grade_cap"]["capped"], ci and ci["grade_cap"]
    assert svg.get("aria-label") == "mcp grade: C (capped)"
    title = svg.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and "probe-silent-noop on create_note" in (title.text or "")


@pytest.mark.slow
def test_memory_server_badge_says_capped(out: Path) -> None:
    """server-memory with no probe config, only a memory file per process: its silent no-op on
    create_entities is found high (the reader already showed the record), its reproduction replays,
    and the capped grade is what --fail-under and the badge use."""
    server = memory_server()
    if server is None:
        pytest.skip("@modelcontextprotocol/server-memory 2026.8.31 is not installed (scripts/install-npm-servers)")
    badge = out / "memory.svg"
    run = cli(["test", command_line(server), "--profile", "grading", "--probes", "--allow-writes",
               "--env", "MEMORY_FILE_PATH={tmpdir}/memory.jsonl", "--badge", str(badge), "--fail-under", "B"],
              out, json_report=True)
    assert run.code == 3, f"--fail-under uses the capped grade\n{run}"
    report = run.report
    assert report is not None
    assert (report["grade"], report["score"]) == ("C", 92.5)
    cap = report["grade_cap"]
    assert (cap["capped"], cap["cap"], cap["uncapped_grade"]) == (True, "C", "A")
    assert cap["reasons"] == ["probe-silent-noop on create_entities"]
    noop = run.results(kind="probe", rule="probe-silent-noop", status="fail")
    assert [(r["tool"], r["confidence"]) for r in noop] == [("create_entities", "high")]
    finding = Result.from_dict(noop[0])
    assert finding.reproduction is not None and finding.reproduction.fresh_server
    calls = finding.reproduction.calls
    writes = [c for c in calls if c.tool == "create_entities"]
    assert len(writes) == 2 and calls[-1].tool == "read_graph", calls
    assert writes[0].arguments["entities"][0]["name"] == writes[1].arguments["entities"][0]["name"], calls
    done = replay(finding, parse_target(server, env={"MEMORY_FILE_PATH": "{tmpdir}/memory.jsonl"}))
    assert done.still_fails, done.verdict
    root = ET.parse(badge).getroot()
    assert root.get("aria-label") == "mcp grade: C (capped)"
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and "probe-silent-noop on create_entities" in (title.text or "")
    assert "Grade A by score" in (title.text or "")


# --- emitted regression tests -----------------------------------

def test_emitted_regression_tests(runs: dict[str, CliRun], out: Path) -> None:
    report = runs["ci"].report
    assert report is not None
    folder = out / "emitted"
    files = sorted(folder.glob("test_*.py"))
    expected = [r for r in report["results"] if r["status"] in ("fail", "warn") and r["reproduction"]
                and r["kind"] != "incident"]
    assert len(files) == len(expected), files
    probe = [f for f in files if "probe_silent_noop" in f.name]
    assert len(probe) == 1, files
    pytest_cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(probe[0])]
    buggy = subprocess.run(pytest_cmd, capture_output=True, text=True, cwd=out)
    assert buggy.returncode == 1, buggy.stdout[-2000:]
    assert "probe-silent-noop" in buggy.stdout
    fixed = subprocess.run(pytest_cmd, capture_output=True, text=True, cwd=out,
                           env={**os.environ, "HYPOTHESIS_MCP_TARGET": command_line(sample())})
    assert fixed.returncode == 0, fixed.stdout[-2000:]


# --- other commands ------------------------------------------------------------------------------

def test_tools_command_lists_roles_keys_and_bounds(out: Path) -> None:
    run = cli(["tools", command_line(sample()), "--json"], out)
    assert run.code == 0, run
    catalog = json.loads(run.stdout)
    assert catalog["server"]["name"] == "notes-server"
    tools = {t["name"]: t["x-hypothesis-mcp"] for t in catalog["tools"]}
    assert set(tools) == {"create_note", "get_note", "list_notes", "search_notes", "list_tags", "delete_note",
                          "export_notes"}
    assert tools["create_note"]["role"] == "write"
    assert tools["create_note"]["key_fields"] == ["title"]
    assert tools["get_note"]["role"] == "read"
    assert {"param": "limit", "kind": "limit", "required": False} in tools["list_notes"]["bounds"]


def test_version(out: Path) -> None:
    run = cli(["--version"], out)
    assert run.code == 0 and run.stdout.startswith("hypothesis-mcp "), run
