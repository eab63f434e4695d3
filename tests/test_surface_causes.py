"""Resource and prompt findings, one per cause, with reproductions that stand alone.

tests/servers/garden_beds.py lists each bed the client digs as a resource; under `undecoded` a bed
whose label needs escaping is listed but cannot be read, under `decoded-uri` both templates answer
with another URI than the one read, under `bad-role` both prompts answer with a role MCP does not
have. Its correct twin is the control. A read of a bed fails on a fresh server for want of the bed
unless the reproduction digs it first: each reproduction holds the call that made its record, and
replay confirms the finding on the buggy server and sees it pass on the twin.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from helpers import ROOT, SERVE, Cli, cli, command_line
from hypothesis_mcp.checks.prompts import PromptChecks
from hypothesis_mcp.checks.resources import ResourceChecks
from hypothesis_mcp.checks.surfaces import maker_of_uri
from hypothesis_mcp.connection import Connection, Exchange, parse_target
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import RESOURCES_READ, Call, Result

LABELS = ("Herbs & Spices", "Sweet Peas", "Roses")


def garden(bug: str | None = None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/garden_beds.py"), *(["--bug", bug] if bug else [])]


def checked(bug: str | None) -> list[Result]:
    """The resource and prompt checks after the client dug three beds, as a run's own calls would."""
    with Connection(garden(bug)) as conn:
        for label in LABELS:
            assert conn.call("dig_bed", {"label": label, "crop": "mint"}).ok
        profile = make_profile("grading")
        return [*ResourceChecks(conn, profile).run(), *PromptChecks(conn, profile).run()]


def failed(found: list[Result]) -> list[Result]:
    return [r for r in found if r.status in ("fail", "warn")]


def confirmed(result: Result, bug: str) -> None:
    """The finding replays from a fresh server: it still fails on the buggy one and passes on the twin."""
    again = Result.from_dict(result.to_dict())
    on_bug, on_twin = replay(again, parse_target(garden(bug))), replay(again, parse_target(garden()))
    assert on_bug.still_fails and not on_bug.unconfirmed, on_bug.verdict
    assert not on_twin.still_fails and not on_twin.unconfirmed, on_twin.verdict


def test_the_twin_passes_with_the_beds_dug() -> None:
    found = checked(None)
    assert failed(found) == []
    assert sum(r.check == "smoke_resource_read" and r.status == "pass" for r in found) == 1 + len(LABELS)


def test_a_read_of_a_record_the_run_made_holds_the_call_that_made_it() -> None:
    [finding] = failed(checked("undecoded"))
    assert (finding.rule, finding.details["count"]) == ("resource-read-failed", 2), finding
    escaped = {f"garden://beds/{quote(label, safe='')}" for label in LABELS if quote(label, safe="") != label}
    assert set(finding.details["uris"]) == escaped
    assert finding.reproduction is not None and finding.reproduction.fresh_server
    made, read = finding.reproduction.calls
    assert made.tool == "dig_bed" and read.method == RESOURCES_READ
    assert read.tool == f"garden://beds/{quote(made.arguments['label'], safe='')}", "the bed it reads is the one dug"
    confirmed(finding, "undecoded")


def test_templates_failing_alike_are_one_finding() -> None:
    [finding] = failed(checked("decoded-uri"))
    assert (finding.check, finding.rule, finding.details["count"]) == (
        "smoke_resource_template", "resource-uri-mismatch", 2), finding
    assert sorted(finding.details["subjects"]) == ["template garden://beds/{label}/area",
                                                   "template garden://beds/{label}/crop"]
    assert finding.message.startswith("2 of 2 templates fail alike")
    confirmed(finding, "decoded-uri")


def test_prompts_failing_alike_are_one_finding() -> None:
    [finding] = failed(checked("bad-role"))
    assert (finding.check, finding.rule, finding.details["count"]) == (
        "smoke_prompt_get", "prompt-messages-invalid", 2), finding
    assert sorted(finding.details["subjects"]) == ["prompt plan_bed", "prompt water_bed"]
    confirmed(finding, "bad-role")


def _exchange(name: str, arguments: dict[str, str], *, is_error: bool = False) -> Exchange:
    return Exchange("tools/call", {"name": name, "arguments": arguments},
                    {"kind": "result", "content": [{"type": "text", "text": "done"}], "isError": is_error}, 0.0, 0.0)


def test_the_maker_is_the_first_successful_call_sent_a_segment_of_the_uri() -> None:
    transcript = [_exchange("dig_bed", {"label": "Sweet Peas"}, is_error=True),
                  _exchange("dig_bed", {"label": "Roses"}), _exchange("dig_bed", {"label": "Sweet"}),
                  _exchange("dig_bed", {"label": "Sweet Peas"})]
    assert maker_of_uri(transcript, "garden://beds/Sweet%20Peas") == Call("dig_bed", {"label": "Sweet Peas"})
    assert maker_of_uri(transcript, "garden://beds/Tulips") is None, "no call names it: nothing to add"
    assert maker_of_uri(transcript[:3], "garden://beds/Sweet%20Peas") is None, "a refused call made nothing"


def test_a_full_run_reports_one_finding_whose_reproduction_replays(tmp_path: Path) -> None:
    """The run's own calls dig the beds: the unreadable ones are one finding, and its reproduction,
    replayed from the report by the command line, digs the bed before reading it."""
    target = command_line(garden("undecoded"))
    started = Cli(["test", target, "--smoke", "--call-all", "--max-examples", "5"], tmp_path, json_report=True)
    run = started.wait()
    assert run.report is not None and started.report_path is not None, run
    reads = [r for r in run.report["results"] if r["check"] == "smoke_resource_read" and r["status"] == "fail"]
    assert len(reads) == 1 and reads[0]["rule"] == "resource-read-failed", reads
    calls = reads[0]["reproduction"]["calls"]
    assert calls[0]["tool"] == "dig_bed" and calls[-1]["method"] == RESOURCES_READ, calls
    replayed = cli(["replay", str(started.report_path), "--result", reads[0]["id"]], tmp_path)
    assert replayed.code == 1 and "still fails" in replayed.stdout, replayed
    fixed = cli(["replay", str(started.report_path), "--result", reads[0]["id"], "--target",
                 command_line(garden())], tmp_path)
    assert fixed.code == 0 and "now passes" in fixed.stdout, fixed
