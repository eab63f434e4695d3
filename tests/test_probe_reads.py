"""Reads change nothing (tests/servers/read_effects.py): a read-only call must leave every other
reader showing what it showed.

A search that archives what it finds (inbox) and a fetch that moves an entry out of the listing
(kv) pass the effect machine's round trip; the reads machine finds each with --allow-writes, no
probe config and two examples per effect machine (helpers.hunting), at high confidence on facts
the reproduction shows, and the reproduction replays on the buggy store, not on its twin, and loses
its failure without any one of its calls. The correct twins draw no finding under the grading
profile.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from helpers import ROOT, SERVE, engine, grading, hunting, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Reproduction

STORES = {"inbox": "search_messages", "kv": "kv.fetch"}
_reports: dict[tuple[str, bool], Report] = {}


def store(name: str, bug: bool = False) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/read_effects.py"), "--store", name, *(["--bug"] if bug else [])]


def run(name: str, bug: bool = False) -> Report:
    if (name, bug) not in _reports:
        _reports[name, bug] = engine(store(name, bug), hunting() if bug else grading(), probes=True,
                                     allow_writes=True)
    return _reports[name, bug]


@pytest.mark.parametrize("name", STORES)
def test_a_correct_store_draws_no_probe_finding(name: str) -> None:
    found = [r for r in results(run(name), kind="probe") if r.status in ("fail", "warn")]
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]


@pytest.mark.parametrize("name", STORES)
def test_a_read_that_hides_a_record_is_found_and_replays(name: str) -> None:
    report = run(name, bug=True)
    found = [r for r in results(report, kind="probe", rule="probe-read-changed-state") if r.status == "fail"]
    assert found, [(r.tool, r.rule, r.status, r.message) for r in results(report, kind="probe")]
    finding = found[0]
    assert finding.tool == STORES[name] and finding.confidence == "high"
    assert all(f["evidence"] == "shown" for f in finding.details["rests_on"]), finding.details["rests_on"]
    assert finding.reproduction is not None
    calls = finding.reproduction.calls
    assert calls[-1].tool != finding.tool and any(c.tool == finding.tool for c in calls[:-1])
    assert replay(finding, parse_target(store(name, bug=True))).still_fails
    assert not replay(finding, parse_target(store(name))).still_fails


@pytest.mark.parametrize("name", STORES)
def test_no_call_of_the_reproduction_can_go(name: str) -> None:
    """Without the read-only call nothing hides the record. The write stays (without it the read
    would miss the record on any server), and so does the first read of the judged reader: it is
    the fact the finding rests on, that the reader showed the record before the call."""
    finding = next(r for r in results(run(name, bug=True), kind="probe", rule="probe-read-changed-state"))
    assert finding.reproduction is not None
    calls = finding.reproduction.calls
    assert [c.tool for c in calls] == [calls[0].tool, calls[-1].tool, finding.tool, calls[-1].tool]
    shorter = Reproduction(calls[:2] + calls[3:], fresh_server=True)
    assert not replay(replace(finding, reproduction=shorter), parse_target(store(name, bug=True))).still_fails
