"""`--include-tool GLOB` and `--exclude-tool GLOB`: every check and probe sees only the chosen tools
of a real server, and a glob that matches nothing is a usage error with the closest names."""

from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import Path

import pytest

from helpers import Cli, CliRun, cli, command_line, sample

SAMPLE_TOOLS = {"create_note", "get_note", "list_notes", "list_tags", "search_notes", "export_notes", "delete_note"}
FAST = ["--max-examples", "6"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CliRun]:
    out = tmp_path_factory.mktemp("selection")
    target = command_line(sample("silent-skip"))
    started = {
        "include": Cli(["test", target, "--smoke", *FAST, "--include-tool", "*_note", "--include-tool", "list_t?gs"],
                       out, json_report=True),
        "exclude": Cli(["test", target, "--smoke", "--probes", "--allow-writes", *FAST, "--exclude-tool", "create_*",
                        "--exclude-tool", "export_notes"], out, json_report=True),
        "all": Cli(["test", target, "--smoke", "--probes", "--allow-writes", *FAST], out, json_report=True),
    }
    return {name: run.wait() for name, run in started.items()}


def tools_in(run: CliRun) -> set[str]:
    assert run.report is not None, run
    found = {r["tool"] for r in run.report["results"] if r["tool"]}
    found |= {c["tool_name"] for c in run.report["smoke"]["checks"] if c.get("tool_name")}
    return found


def test_include_globs_choose_the_tools_of_every_check(runs: dict[str, CliRun]) -> None:
    run = runs["include"]
    chosen = {t for t in SAMPLE_TOOLS if fnmatchcase(t, "*_note") or fnmatchcase(t, "list_t?gs")}
    assert chosen == {"create_note", "get_note", "delete_note", "list_tags"}
    assert run.code in (0, 4), run
    assert tools_in(run) == chosen, run
    assert run.report is not None
    kinds = {r["kind"] for r in run.report["results"] if r["tool"]}
    assert {"lint", "scenario", "smoke"} <= kinds, kinds
    assert run.report["smoke"]["coverage"]["tools_total"] == len(chosen)
    assert any("4 of 7 tools tested" in note and "export_notes" in note for note in run.report["notes"]), run


def test_exclude_globs_leave_tools_out_of_every_check_and_probe(runs: dict[str, CliRun]) -> None:
    run, every = runs["exclude"], runs["all"]
    left_out = {"create_note", "export_notes"}
    assert tools_in(every) & left_out == left_out, "the control run tests them"
    assert any(r["kind"] == "probe" and r["tool"] == "create_note" for r in every.report["results"])  # type: ignore[index]
    assert tools_in(run) == tools_in(every) - left_out, run
    assert run.report is not None
    assert not [r for r in run.report["results"] if r["rule"] == "probe-silent-noop"], "its write tool is left out"


def test_a_glob_that_matches_nothing_is_a_usage_error_with_the_closest_names(tmp_path: Path) -> None:
    run = cli(["test", command_line(sample()), "--include-tool", "create_nte", "--exclude-tool", "zzz*"], tmp_path)
    assert run.code == 2, run
    assert "--include-tool 'create_nte' matches no tool; closest: create_note" in run.stderr, run
    assert "--exclude-tool 'zzz*' matches no tool" in run.stderr, run
    assert "Traceback" not in run.stderr
    none_left = cli(["test", command_line(sample()), "--exclude-tool", "*"], tmp_path)
    assert none_left.code == 2 and "leave no tool to test" in none_left.stderr, none_left
