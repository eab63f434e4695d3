"""`test --all`, `--shard` and `merge`: a fleet graded in one run, alone, and in shards merged back.

Three servers, each a real process: smoke_bugs with a bug (long-list), its correct twin, and one
that dies at start. The runs start together in one module fixture and overlap; the assertions do
not depend on how many examples ran, so the runs are kept small.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from helpers import PYTHON, Cli, CliRun, cli, smoke_bugs, without_duration
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.fleet import load_members, parse_shard, shard_of
from hypothesis_mcp.gates import worst

FAST = ["--ci", "--max-examples", "5"]
# The names spread the three servers over three shards, one each (shard_of is a digest of the name).
SERVERS = {
    "long-list": smoke_bugs("long-list"),
    "smoke-twin": smoke_bugs(),
    "dead": [PYTHON, "-c", "import sys; sys.stderr.write('no database\\n'); sys.exit(3)"],
}


@pytest.fixture(scope="module")
def config(out: Path) -> Path:
    path = out / "fleet.json"
    path.write_text(json.dumps({"mcpServers": {name: {"command": argv[0], "args": argv[1:]}
                                               for name, argv in SERVERS.items()}}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def runs(out: Path, config: Path) -> dict[str, CliRun]:
    every = ["test", "--config", str(config), "--all", *FAST]
    started = {
        "all": Cli([*every, "--markdown", str(out / "all.md"), "--junit", str(out / "all.xml"),
                    "--sarif", str(out / "all.sarif")], out, json_report=True),
        "alone": Cli(["test", "--config", str(config), "--server", "long-list", *FAST], out, json_report=True),
        **{f"shard{i}": Cli([*every, "--shard", f"{i}/3"], out, json_report=True) for i in (1, 2, 3)},
    }
    return {name: run.wait() for name, run in started.items()}


def _rows(run: CliRun) -> dict[str, dict[str, Any]]:
    assert run.report is not None, run
    return {row["name"]: row for row in run.report["servers"]}


def _timeless(document: dict[str, Any]) -> dict[str, Any]:
    copy = json.loads(json.dumps(document))
    for row in copy["servers"]:
        if row["report"] is not None:
            row["report"] = without_duration(row["report"])
    return copy


def test_all_grades_every_server_and_a_dead_one_is_its_exit_5_row(runs: dict[str, CliRun]) -> None:
    run = runs["all"]
    rows = _rows(run)
    assert sorted(rows) == sorted(SERVERS), run
    dead = rows["dead"]
    assert (dead["exit"], dead["grade"], dead["report"]) == (5, None, None), dead
    assert "no database" in dead["error"], "the server's own last words say why it did not start"
    buggy, twin = rows["long-list"], rows["smoke-twin"]
    assert buggy["exit"] == 1 and any(r["status"] == "fail" and r["tool"] == "count_items"
                                      for r in buggy["report"]["results"]), buggy["grade"]
    assert twin["exit"] == 0 and not [r for r in twin["report"]["results"] if r["status"] == "fail"], twin["grade"]
    assert (twin["grade"], twin["score"]) == (twin["report"]["grade"], twin["report"]["score"])
    assert run.code == 5 and run.report is not None and run.report["exit"] == 5, run
    assert "Gate failed — exit 5: dead" in run.stdout, run


def test_a_servers_report_is_the_same_alone_and_in_the_fleet(runs: dict[str, CliRun]) -> None:
    alone = runs["alone"].report
    assert alone is not None, runs["alone"]
    assert without_duration(_rows(runs["all"])["long-list"]["report"]) == without_duration(alone)
    assert runs["alone"].code == _rows(runs["all"])["long-list"]["exit"]


def test_the_leaderboard_junit_and_sarif_have_one_entry_per_server(runs: dict[str, CliRun], out: Path) -> None:
    assert runs["all"].code == 5
    markdown = (out / "all.md").read_text(encoding="utf-8")
    table = [line for line in markdown.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert [line.split("|")[2].strip() for line in table] == ["smoke-twin", "long-list", "dead"], markdown
    suites = ET.parse(out / "all.xml").getroot().findall("testsuite")
    assert [s.get("name") for s in suites] == [f"hypothesis-mcp.{n}" for n in sorted(SERVERS)]
    assert {s.get("name"): s.get("errors") for s in suites}["hypothesis-mcp.dead"] == "1"
    assert {s.get("name"): int(s.get("failures") or 0) for s in suites}["hypothesis-mcp.long-list"] >= 1
    sarif = json.loads((out / "all.sarif").read_text(encoding="utf-8"))
    by_id = {r["automationDetails"]["id"]: r for r in sarif["runs"]}
    assert sorted(by_id) == [f"hypothesis-mcp/{n}/" for n in sorted(SERVERS)]
    assert by_id["hypothesis-mcp/dead/"]["invocations"][0]["executionSuccessful"] is False
    assert by_id["hypothesis-mcp/long-list/"]["results"], "the bug is a SARIF result of its server's run"
    assert not [r for r in by_id["hypothesis-mcp/smoke-twin/"]["results"] if r["level"] == "error"]


def test_three_shards_merged_are_the_single_run(runs: dict[str, CliRun], out: Path) -> None:
    shards = [runs[f"shard{i}"] for i in (1, 2, 3)]
    assert sorted(name for s in shards for name in _rows(s)) == sorted(SERVERS), [str(s) for s in shards]
    paths = [str(out / f"shard{i}.json") for i in (1, 2, 3)]
    for path, shard in zip(paths, shards, strict=True):
        Path(path).write_text(json.dumps(shard.report), encoding="utf-8")
    merged = cli(["merge", *paths, "--json", "-", "--markdown", str(out / "merged.md")], out)
    assert merged.code == 5, merged
    single = runs["all"].report
    assert single is not None
    assert _timeless(json.loads(merged.stdout)) == _timeless(single)
    assert "Gate failed — exit 5: dead" in merged.stderr, "with the JSON on stdout, people read stderr"


def test_merge_refuses_a_server_twice_and_a_plain_report(runs: dict[str, CliRun], out: Path) -> None:
    shard = out / "twice.json"
    shard.write_text(json.dumps(runs["shard1"].report), encoding="utf-8")
    twice = cli(["merge", str(shard), str(shard)], out)
    assert twice.code == 2 and "in both" in twice.stderr, twice
    plain = out / "plain.json"
    plain.write_text(json.dumps(runs["alone"].report), encoding="utf-8")
    refused = cli(["merge", str(plain)], out)
    assert refused.code == 2 and "not a combined report" in refused.stderr, refused
    assert "Traceback" not in twice.stderr + refused.stderr


@pytest.mark.parametrize(("args", "said"), [
    (["--all"], "give --config"),
    (["CONFIG", "--shard", "1/2"], "give --all too"),
    (["CONFIG", "--all", "--shard", "4/3"], "between 1 and N"),
    (["CONFIG", "--all", "--shard", "two"], "takes I/N"),
    (["CONFIG", "--all", "--strategy", "server-memory"], "belongs to one server"),
])
def test_fleet_usage_errors_exit_2(args: list[str], said: str, config: Path, out: Path) -> None:
    given = [word for a in args for word in (["--config", str(config)] if a == "CONFIG" else [a])]
    run = cli(["test", *given], out)
    assert run.code == 2 and said in run.stderr, run


def test_shards_split_by_name_alone() -> None:
    names = [f"server-{i}" for i in range(60)]
    for count in (1, 2, 5):
        shards = [shard_of(name, count) for name in names]
        assert set(shards) == set(range(1, count + 1)), "every shard gets servers"
    assert [shard_of(n, 5) for n in names] == [shard_of(n, 5) for n in reversed(names)][::-1]
    assert parse_shard(" 2/3 ") == (2, 3)
    with pytest.raises(UsageError):
        parse_shard("0/3")


def test_a_list_file_names_one_target_a_line(tmp_path: Path) -> None:
    listing = tmp_path / "servers.txt"
    listing.write_text("# the fleet\npython -m one_server\n\nhttps://mcp.example.com/mcp\n", encoding="utf-8")
    members = load_members(listing)
    assert [m.name for m in members] == ["python -m one_server", "https://mcp.example.com/mcp"]
    assert members[0].target is not None and members[0].target.command == ("python", "-m", "one_server")
    assert members[1].target is not None and members[1].target.url == "https://mcp.example.com/mcp"
    listing.write_text("a\na\n", encoding="utf-8")
    with pytest.raises(UsageError, match="twice"):
        load_members(listing)


def test_the_worst_exit_code_follows_the_gate_order() -> None:
    assert worst([0, 1, 4]) == 4
    assert worst([4, 3, 1]) == 3, "below --fail-under wins over the smoke gate, as for one server"
    assert worst([3, 5, 0]) == 5, "a server never graded is worse than any grade"
    assert worst([]) == 0
