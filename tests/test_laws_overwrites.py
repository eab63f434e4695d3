"""Law 10 on a creator that ignores a second write to a record's identity, by the laws machine alone
(`laws: only`): bookmarks kept one per url, where a second create for a url answers "ok" and keeps
the old bookmark (tests/servers/learned_stores.py `--store bookmarks --bug`). The experiments show
the second write changing nothing while the same write under another url is stored; the machine
writes new values under a held url, and the keyed read still shows the first ones:
`probe-silent-noop` on the create, at high confidence (its answer is the "ok" every stored write
answers), which replays from a fresh server on the buggy store and not on its twin, whose second
create replaces, with no call to spare. The twin draws no finding of the machine."""

from __future__ import annotations

from dataclasses import replace

from helpers import ROOT, SERVE, engine, grading, machine_finding, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Reproduction
from hypothesis_mcp.stateful.config import ProbeConfig

_reports: dict[bool, Report] = {}


def bookmarks(twin: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/learned_stores.py"), "--store", "bookmarks",
            *(() if twin else ("--bug",))]


def run(twin: bool) -> Report:
    if twin not in _reports:
        _reports[twin] = engine(bookmarks(twin), grading(), probes=True, allow_writes=True,
                                probe_config=ProbeConfig(laws="only"))
    return _reports[twin]


def test_the_ignored_overwrite_is_found_replays_and_no_call_can_go() -> None:
    result = machine_finding(run(False), "createBookmark", "probe-silent-noop")
    assert result.confidence == "high" and result.status == "fail"
    assert all(f["evidence"] == "shown" for f in result.details["rests_on"]), result.details["rests_on"]
    assert result.reproduction is not None and result.reproduction.fresh_server
    calls = result.reproduction.calls
    assert [c.tool for c in calls] == ["createBookmark", "createBookmark", "getBookmark"]
    assert calls[0].arguments["url"] == calls[1].arguments["url"] == calls[2].arguments["url"]
    assert replay(result, parse_target(bookmarks(False))).still_fails
    assert not replay(result, parse_target(bookmarks(True))).still_fails
    for index in range(len(calls) - 1):
        shorter = Reproduction(calls[:index] + calls[index + 1:], fresh_server=True)
        assert not replay(replace(result, reproduction=shorter), parse_target(bookmarks(False))).still_fails, (
            index, calls)


def test_the_twin_draws_no_finding_of_the_machine() -> None:
    found = machine_findings(run(True))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]



def pins(bug: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/kept_pins.py"), *(("--bug", "declines") if bug else ())]


def test_an_ignored_write_answered_otherwise_than_a_stored_one_is_a_low_warning() -> None:
    """Pins whose second put to a place keeps the old pin and answers {"held": ..., "why": ...}, isError
    false (tests/servers/kept_pins.py `--bug declines`): no refusal shape the engine knows, so it reads
    as a success, but its members are not those of a stored put's answer, so a refusal in a shape the
    run has not learned is not ruled out: the finding is a low warning. The twin, whose second put
    replaces, draws no finding of the machine."""
    report = engine(pins(True), grading(), probes=True, allow_writes=True, probe_config=ProbeConfig(laws="only"))
    result = machine_finding(report, "pin_put", "probe-silent-noop")
    assert result.confidence == "low" and result.status == "warn", (result.confidence, result.status)
    assert "not shaped as the record's own write's" in result.message
    twin = engine(pins(False), grading(), probes=True, allow_writes=True, probe_config=ProbeConfig(laws="only"))
    assert not machine_findings(twin), [(r.tool, r.rule, r.confidence, r.message) for r in machine_findings(twin)]
