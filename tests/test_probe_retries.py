"""Probe writes a server refuses because of a marker in a field whose schema allows it are retried with
fewer marked fields (tests/servers/shelf_store.py: an owner must be a login name, refused with isError;
tests/servers/memo_pad.py: a label from a fixed list, refused as `{"error": ...}` text). Without the
retries every probe write of both was refused and the round trip was inconclusive. Now the correct
twins pass with no finding, the buggy twins' overwrite bugs are found and replay, and a write the server
refuses whatever its values is inconclusive with the fields tried named.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import ROOT, SERVE, Cli, cli, command_line, engine, one, problems, summary
from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection, parse_target
from hypothesis_mcp.results import Report
from hypothesis_mcp.stateful.unmarked import Plan, marked_fields, plain, plans, unmarked
from hypothesis_mcp.strategies import find_markers

SERVERS = {"shelf": ("shelf_store.py", "keeps-old-notes", "put_item", "owner", "probe-silent-noop"),
           "memo": ("memo_pad.py", "drops-body-on-overwrite", "save_memo", "label", "probe-data-lost")}
PROBES = ["--probes", "--allow-writes", "--profile", "grading"]


def server(name: str, bug: bool = False) -> list[str]:
    script, bug_name = SERVERS[name][:2]
    return [*SERVE, str(ROOT / "tests/servers" / script), *(["--bug", bug_name] if bug else [])]


def tool(properties: dict[str, Any], required: list[str]) -> Tool:
    return Tool.from_dict({"name": "put_card", "inputSchema": {"type": "object", "properties": properties,
                                                                "required": required}})


def test_retries_keep_the_key_and_the_likeliest_free_text_marked() -> None:
    write = tool({"slug": {"type": "string"}, "body": {"type": "string"}, "tag": {"type": "string"},
                  "note": {"type": "string", "description": "One of: a, b."}}, ["slug", "body"])
    tried = plans(write, ["slug", "note", "tag", "body"], "slug")
    assert tried == [Plan(frozenset({"tag", "note"}), frozenset()), Plan(frozenset({"note"}), frozenset({"body"})),
                     Plan(frozenset({"tag"}), frozenset({"body"})), Plan(frozenset({"tag", "note"}),
                                                                          frozenset({"body"}))]
    assert plans(write, ["body"], None) == [] and plans(write, ["slug"], "slug") == []


def test_a_plain_value_is_short_letters_and_no_marker() -> None:
    marker = "hm0a1b2c3d"
    args = {"slug": f"{marker}-slug", "body": f"{marker}-body\n€ x", "tags": [f"{marker}-tags", "kept"], "n": 3}
    assert marked_fields(args, marker) == ["slug", "body", "tags"]
    plan = Plan(frozenset({"slug"}), frozenset({"body", "tags"}))
    fewer = plan.apply(args, marker)
    assert "slug" not in fewer and fewer["n"] == 3 and fewer["tags"][1] == "kept"
    assert fewer["body"].isalpha() and fewer["body"].islower() and len(fewer["body"]) == 8
    assert len(plan.apply(args, marker, short=False)["body"]) == len(args["body"])
    assert not find_markers(fewer) and marker not in json.dumps(fewer)
    assert plain("hm0a1b2c3d-x", "hm0a1b2c3e") == "hm0a1b2c3d-x"


def test_a_plain_value_keeps_within_the_schema() -> None:
    """Short when the schema allows it; as long as the marked text when it wants more; no retry at all
    when it allows neither (a pattern the letters do not match)."""
    marker = "hm0a1b2c3d"
    write = tool({"slug": {"type": "string"}, "body": {"type": "string", "minLength": 12},
                  "code": {"type": "string", "pattern": "^(hm|[0-9])"}}, ["slug", "body", "code"])
    args = {"slug": f"{marker}-slug", "body": f"{marker}-body", "code": f"{marker}-code"}
    fewer = unmarked(write, Plan(frozenset(), frozenset({"body"})), args, marker)
    assert fewer is not None and len(fewer["body"]) == len(args["body"]) and not find_markers(fewer["body"])
    assert len(unmarked(write, Plan(frozenset(), frozenset({"slug"})), args, marker)["slug"]) == 8
    assert unmarked(write, Plan(frozenset(), frozenset({"code"})), args, marker) is None


@pytest.mark.parametrize("name", list(SERVERS))
def test_a_fully_marked_write_is_refused_by_the_correct_twin(name: str) -> None:
    """What every probe write got before the retries: a refusal, so the probe was inconclusive."""
    write, field = SERVERS[name][2], SERVERS[name][3]
    key = "title" if name == "shelf" else "slug"
    other = "notes" if name == "shelf" else "body"
    marker = "hm00000001"
    args = {key: f"{marker}-{key}", other: f"{marker}-{other}", field: f"{marker}-{field}"}
    with Connection(parse_target(server(name))) as conn:
        assert not conn.call(write, args).ok
        assert conn.call(write, {k: v for k, v in args.items() if k != field} if field == "label"
                         else {**args, field: "plainname"}).ok


@pytest.fixture(scope="module")
def twins() -> dict[str, Report]:
    return {name: engine(server(name), probes=True, allow_writes=True) for name in SERVERS}


@pytest.mark.parametrize("name", list(SERVERS))
def test_the_correct_twin_passes_with_the_refused_field_named(name: str, twins: dict[str, Report]) -> None:
    write, field = SERVERS[name][2], SERVERS[name][3]
    report = twins[name]
    assert not [r for r in problems(report) if r.kind == "probe"], summary(report)
    trip = one(report, kind="probe", check="round-trip", tool=write)
    assert (trip.status, trip.confidence) == ("pass", "high"), summary(report)
    assert f"a marker in {field} was refused, so writes left it out" in trip.message
    assert "same-key overwrite(s) judged" in trip.message and not trip.message.startswith("writes were visible "
                                                                                          "and kept (0 write")


def test_a_write_refused_whatever_its_values_names_the_fields_tried(twins: dict[str, Report]) -> None:
    report = twins["memo"]
    trip = one(report, kind="probe", check="round-trip", tool="add_reminder")
    assert trip.status == "inconclusive", summary(report)
    assert "with fewer marked fields, leaving unmarked: note; text; note, text; refused too" in trip.message
    assert "reminders are switched off" in trip.message


@pytest.mark.parametrize("name", list(SERVERS))
def test_the_buggy_twin_is_found_and_its_reproduction_replays(name: str, tmp_path: Path) -> None:
    """Found at high confidence with no refused write in the reproduction (each write of it is one the
    server accepts, the marker only where it was accepted), deterministic, and replayed by the CLI:
    still failing on the buggy twin, passing on the correct one."""
    write, field, rule = SERVERS[name][2], SERVERS[name][3], SERVERS[name][4]
    started = [Cli(["test", command_line(server(name, bug=True)), *PROBES, "--json", f"r{i}.json"], tmp_path,
                   limit=600) for i in range(2)]
    runs = [run.wait() for run in started]
    reports = [json.loads((tmp_path / f"r{i}.json").read_text()) for i in range(2)]
    for report in reports:
        report.pop("duration_s", None)
        report["stats"].pop("duration_s", None)
    assert reports[0] == reports[1], "the grading profile's JSON differs between two runs"
    [found] = [r for r in reports[0]["results"] if r["kind"] == "probe" and r["status"] in ("fail", "warn")]
    assert (found["tool"], found["rule"], found["status"], found["confidence"]) == (write, rule, "fail", "high"), \
        runs[0]
    writes = [c["arguments"] for c in found["reproduction"]["calls"] if c["tool"] == write]
    assert len(writes) >= 2 and all(not find_markers(w.get(field, "")) for w in writes), writes
    with Connection(parse_target(server(name))) as conn:
        assert all(conn.call(write, args).ok for args in writes)
    again = cli(["replay", "r0.json", "--result", found["id"]], tmp_path)
    assert again.code == 1 and "still fails" in again.stdout, again
    twin = cli(["replay", "r0.json", "--result", found["id"], "--target", command_line(server(name))], tmp_path)
    assert twin.code == 0 and "now passes" in twin.stdout, twin
