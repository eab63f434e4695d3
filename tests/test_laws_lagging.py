"""Removals some reader misses (tests/servers/lagging_views.py), graded with the laws machine on.

pantry: a listing that lags behind removals, and a removal that answers the record it took, so no
snapshot changed and its call read like a read; the keyed read that then refuses the record shows it
removed, and the listing still showing it breaks the law (`probe-delete-kept` on the removal, not a
read that changed state; the removal probe, on the same experiments, says so too). badges: a keyed
read that still answers a revoked badge, whose refusal (`Error: no badge coded X`, isError unset)
names the code asked, and a badge whose only text is that code; a refusal the run tells apart is
still a refusal, so the revoked badge's read is judged (not a made-up record). Each twin draws no
finding of the machine."""

from __future__ import annotations

import pytest

from helpers import LawsStores, machine_findings, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay

FOUND = [("pantry", "use-up", ["add-jar", "use-up", "jars"]),
         ("badges", "badge.revoke", ["badge.issue", "badge.revoke", "badge.show"])]
"""Each buggy store, its removal, and the tools of the smallest reproduction."""
STORES = LawsStores("tests/servers/lagging_views.py")
store, run = STORES.command, STORES.run


@pytest.mark.parametrize(("name", "tool", "tools"), FOUND)
def test_a_removal_a_reader_misses_is_found_by_the_law_it_breaks(name: str, tool: str, tools: list[str]) -> None:
    # Grading keeps one finding of a rule on a tool: the machine's, or the removal probe's it stands on.
    found = [r for r in results(run(name, True), kind="probe", tool=tool, rule="probe-delete-kept")
             if r.status in ("fail", "warn")]
    assert len(found) == 1, [(r.tool, r.rule, r.message) for r in machine_findings(run(name, True))]
    result = found[0]
    assert result.confidence == "high" and result.status == "fail", result.message
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert [c.tool for c in result.reproduction.calls] == tools
    assert replay(result, parse_target(store(name, True))).still_fails
    assert not replay(result, parse_target(store(name, False))).still_fails
    others = [(r.tool, r.rule) for r in results(run(name, True), kind="probe") if r.status in ("fail", "warn")
              and r.rule in ("probe-read-changed-state", "read-missing-as-success")]
    assert others == []


@pytest.mark.parametrize("name", ["pantry", "badges"])
def test_twins_draw_no_finding_of_the_machine(name: str) -> None:
    found = machine_findings(run(name, False))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
