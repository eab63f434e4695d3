"""Losses the laws machine once let pass while the per-invariant machines drew them
(tests/servers/crate_yard.py), graded with the laws machine on.

crates: an update whose schema has no name for a field its record holds (a relabel cannot name the
contents) cannot mean to reset it, so the record is still looked for, and judged, by that field:
emptied, it is data lost. racks: a list written at its longest (the schema's maxItems) shows a
store that keeps only the first few items. tape: a listing that shrank at a write is no window
of the newest or oldest records: the records it no longer shows were lost by that write. Each twin
draws no finding of the machine."""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, engine, grading, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report
from hypothesis_mcp.stateful.config import ProbeConfig

FOUND = [("crates", "RelabelCrate", "probe-data-lost"), ("racks", "PutRack", "probe-value-changed"),
         ("tape", "Record", "probe-data-lost")]
"""Each buggy store, the tool its bug shows on, and the law's rule."""
KEPT: dict[tuple[str, bool], Report] = {}


def store(name: str, bug: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/crate_yard.py"), "--store", name, *(["--bug"] if bug else [])]


def run(name: str, bug: bool) -> Report:
    """The store graded with the laws machine alone (`laws: only`), once per module."""
    if (name, bug) not in KEPT:
        KEPT[(name, bug)] = engine(store(name, bug), grading(), probes=True, allow_writes=True,
                                   probe_config=ProbeConfig(laws="only"))
    return KEPT[(name, bug)]


@pytest.mark.parametrize(("name", "tool", "rule"), FOUND)
def test_a_loss_is_found_by_the_law_it_breaks(name: str, tool: str, rule: str) -> None:
    found = [r for r in machine_findings(run(name, True)) if (r.tool, r.rule) == (tool, rule)]
    assert len(found) == 1, [(r.tool, r.rule, r.message) for r in machine_findings(run(name, True))]
    result = found[0]
    assert result.confidence == "high" and result.status == "fail", result.message
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert replay(result, parse_target(store(name, True))).still_fails
    assert not replay(result, parse_target(store(name, False))).still_fails


@pytest.mark.parametrize("name", ["crates", "racks", "tape"])
def test_twins_draw_no_finding_of_the_machine(name: str) -> None:
    found = machine_findings(run(name, False))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
