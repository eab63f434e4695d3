"""Removals told by a count alone, and removals kept in a bin (tests/servers/counted_removals.py), graded
with the laws machine on.

herbarium: a withdrawal that only lowers the census, while the keyed read and the catalogue still show
the sheet. The experiments once took it for an update (a call that changed what a looker shows), so no
law judged it as a removal and only the count looked wrong; now a call after which only a count of the
store moved back by one, and every reader shows the record as before, removes, and the catalogue still
showing the sheet breaks the law on the withdrawal. seedbank: a discard moves the lot to a listing of
discarded lots; the removal probe once judged that listing too, so the correct twin drew a low
`probe-delete-kept` (it shows the lot only once discarded), the same rule on the same tool as the bug
(a keyed read that still answers a discarded lot), and the pair cancelled. Each twin draws no probe
finding at all. pantry: a toss every reader shows but the tally, which still counts the jar; law 5
alone once judged it (`probe-count-wrong` on the tally, the rule of a drifting number), now law 4 also
names it on the toss: the tally stands above the example's number by exactly the jars it tossed."""

from __future__ import annotations

import pytest

from helpers import LawsStores, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay

FOUND = [("herbarium", "withdrawSpecimen", "catalogue"), ("seedbank", "lot_discard", "lot_get")]
"""Each buggy store, its removal, and the reader that still shows the record removed."""
STORES = LawsStores("tests/servers/counted_removals.py")
store, run = STORES.command, STORES.run


def findings(name: str, bug: bool) -> list[tuple[str, str, str]]:
    return [(r.tool, r.rule, r.confidence) for r in results(run(name, bug), kind="probe")
            if r.status in ("fail", "warn")]


@pytest.mark.parametrize(("name", "tool", "reader"), FOUND)
def test_a_removal_a_reader_misses_is_found_by_the_law_it_breaks(name: str, tool: str, reader: str) -> None:
    found = [r for r in results(run(name, True), kind="probe", tool=tool, rule="probe-delete-kept")
             if r.status == "fail"]
    assert found, findings(name, True)
    result = found[0]
    assert result.confidence == "high", result.message
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert result.reproduction.calls[-1].tool == reader
    assert replay(result, parse_target(store(name, True))).still_fails
    assert not replay(result, parse_target(store(name, False))).still_fails
    assert all(f["evidence"] == "shown" for f in result.details["rests_on"]), result.details["rests_on"]


def test_a_removal_only_the_count_shows_is_shown_by_the_count_and_not_judged_as_a_wrong_count() -> None:
    found = results(run("herbarium", True), kind="probe", tool="withdrawSpecimen", rule="probe-delete-kept")
    removes = found[0].details["rests_on"][0]["what"]
    assert removes.startswith("withdrawSpecimen removes records") and "census counted one record fewer" in removes
    assert ("census", "probe-count-wrong", "high") not in findings("herbarium", True)


def test_a_removal_only_the_count_keeps_is_found_by_law_4_on_the_remover() -> None:
    found = [r for r in results(run("pantry", True), kind="probe", tool="jar_toss", rule="probe-delete-kept")
             if r.status in ("fail", "warn")]
    assert found, findings("pantry", True)
    result = found[0]
    assert "jars_tally's total still counts them" in result.message
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert [c.tool for c in result.reproduction.calls][-2:] == ["jar_toss", "jars_tally"]
    assert replay(result, parse_target(store("pantry", True))).still_fails
    assert not replay(result, parse_target(store("pantry", False))).still_fails
    assert ("jars_tally", "probe-count-wrong", result.confidence) in findings("pantry", True)  # law 5 stays


@pytest.mark.parametrize("name", ["herbarium", "seedbank", "pantry"])
def test_twins_draw_no_probe_finding(name: str) -> None:
    assert findings(name, False) == []
