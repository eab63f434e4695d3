"""Law 7 on a listing that takes no page size (stateful/laws/own_pages.py), by the laws machine alone:
tests/servers/parcel_depot.py scans three parcels an answer, its opaque `onward` token given back
for the rest. With `onward-skips` the parcel after each page's last is never scanned, while
`parcel.track` still finds it: the walk at the depot's own page size, to its end, shows the loss;
its reproduction (the parcels lodged, then the first two pages) replays on a fresh buggy depot and
not on the correct one, and none of its calls can go. The correct depot draws no finding of the
machine."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from helpers import engine, grading, machine_finding, machine_findings, parcel_depot
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Call, Report, Reproduction, Result
from hypothesis_mcp.stateful.config import ProbeConfig

BUG = "onward-skips"


@cache
def graded(bug: str | None) -> Report:
    return engine(parcel_depot(bug), grading(), probes=True, allow_writes=True, probe_config=ProbeConfig(laws="only"))


def still_fails(result: Result, calls: list[Call], bug: str | None) -> bool:
    shortened = replace(result, reproduction=Reproduction(calls, fresh_server=True))
    return replay(shortened, parse_target(parcel_depot(bug))).still_fails


def test_the_parcel_the_scan_skips_is_found_at_the_depots_own_page_size() -> None:
    result = machine_finding(graded(BUG), "parcels.scan", "probe-pages-skip")
    assert result.confidence == "high"
    assert "own page size (3 a page)" in result.message and "parcel.track still finds" in result.message
    assert result.reproduction is not None and result.reproduction.fresh_server
    calls = result.reproduction.calls
    assert [c.tool for c in calls] == ["parcel.lodge"] * 4 + ["parcels.scan"] * 2
    assert still_fails(result, calls, BUG)
    assert not still_fails(result, calls, None)
    for index in range(len(calls) - 1):
        assert not still_fails(result, calls[:index] + calls[index + 1:], BUG), (index, calls)


def test_the_correct_depot_draws_no_finding_of_the_machine() -> None:
    found = machine_findings(graded(None))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
