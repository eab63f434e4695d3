"""Calibration settles what the probes used to guess (tests/servers/learned_stores.py).

Eight correct stores whose behaviour a guess gets wrong (appending queues with server-made ids,
a store keyed by an integer bin, a reader that returns the first of duplicates, a deployment whose
every write fails with JSON error fields, refusals as `success: false` and `status: "error"`,
camelCase, kebab and dotted names, refusals in a shape of the server's own that calibration
learns) draw no high or medium probe finding under the grading profile.
Each buggy twin is still found, at high confidence with every fact it rests on shown, except the
deployment whose reader never showed a record: there the reader is a guess, and the finding low.
"""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, engine, grading, machine_findings, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.model.refusals import IMPOSSIBLE_ID
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report
from hypothesis_mcp.stateful.config import ProbeConfig

STORES = ("queue", "shelf", "contacts", "readonly", "ledger", "bookmarks", "journal", "catalog", "devices")
FOUND = {
    "queue": ("enqueueJob", "probe-write-not-observable", "high"),
    "shelf": ("shelf.put", "probe-write-not-observable", "high"),
    "contacts": ("add_contact", "probe-value-changed", "high"),
    "readonly": ("save_item", "probe-write-not-observable", "low"),
    "ledger": ("put-entry", "probe-value-changed", "high"),
    "bookmarks": ("createBookmark", "probe-silent-noop", "high"),
    "journal": ("journal.append", "probe-data-lost", "high"),
    "catalog": ("upsertProduct", "probe-write-not-observable", "high"),
    "devices": ("device.register", "probe-write-not-observable", "high"),
}
_reports: dict[tuple[str, bool], Report] = {}


def store(name: str, bug: bool = False) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/learned_stores.py"), "--store", name, *(["--bug"] if bug else [])]


def run(name: str, bug: bool = False) -> Report:
    if (name, bug) not in _reports:
        _reports[name, bug] = engine(store(name, bug), grading(), probes=True, allow_writes=True)
    return _reports[name, bug]


@pytest.mark.parametrize("name", STORES)
def test_a_correct_store_draws_no_sure_probe_finding(name: str) -> None:
    found = [r for r in results(run(name), kind="probe") if r.status in ("fail", "warn")
             and r.confidence in ("high", "medium")]
    assert not found, [(r.tool, r.rule, r.confidence, r.message, r.details.get("rests_on")) for r in found]


@pytest.mark.parametrize("name", STORES)
def test_the_buggy_twin_is_found_at_the_confidence_its_facts_allow(name: str) -> None:
    tool, rule, confidence = FOUND[name]
    found = [r for r in results(run(name, bug=True), kind="probe", tool=tool, rule=rule)
             if r.status in ("fail", "warn")]
    assert found, [(r.tool, r.rule, r.status, r.message) for r in results(run(name, bug=True), kind="probe")]
    finding = found[0]
    assert finding.confidence == confidence
    facts = finding.details["rests_on"]
    assert all(f["evidence"] == "shown" for f in facts) is (confidence == "high"), facts
    assert finding.reproduction is not None
    if confidence == "high":
        assert replay(finding, parse_target(store(name, bug=True))).still_fails
        assert not replay(finding, parse_target(store(name))).still_fails


def test_a_refusal_shape_of_the_servers_own_is_learned_and_rests_under_the_finding() -> None:
    """The registry refuses with {"outcome": "rejected"} (isError false), which no fixed shape
    knows: a full registry's refusals were read as accepted writes that no reader showed. Calibration
    learns the shape from a lookup of a serial no server made and a registration with empty texts,
    and the twin's finding lists the shape, with those calls, among the facts it rests on."""
    finding = results(run("devices", bug=True), kind="probe", tool="device.register")[0]
    learned = [f for f in finding.details["rests_on"] if "'outcome' is \"rejected\"" in f["what"]]
    assert learned and learned[0]["evidence"] == "shown", finding.details["rests_on"]
    calls = [(c["tool"], c["arguments"]) for c in learned[0]["calls"]]
    assert calls[:2] == [("device.lookup", {"serial": IMPOSSIBLE_ID}), ("device.register", {"serial": "", "label": ""})]
    assert calls[2][0] == "device.register" and calls[2][1]["serial"]


def test_the_laws_machine_alone_reads_an_appending_store_by_a_field_it_wrote() -> None:
    """contacts appends (no identity to show) and get_contact takes a name: a keyed read by guess,
    proven by the record it shows, whose phone cut to 20 characters beside the listing's whole one is
    found by the laws machine alone (`laws: only`); the correct store draws nothing medium or high."""
    def alone(bug: bool) -> Report:
        return engine(store("contacts", bug), grading(), probes=True, allow_writes=True,
                      probe_config=ProbeConfig(laws="only"))

    twin = [r for r in results(alone(False), kind="probe") if r.status in ("fail", "warn")
            and r.confidence in ("high", "medium")]
    assert not twin, [(r.tool, r.rule, r.message) for r in twin]
    drawn = machine_findings(alone(True))
    found = [r for r in drawn if (r.tool, r.rule) == ("get_contact", "probe-readers-disagree")]
    assert found and found[0].confidence == "high", [(r.tool, r.rule, r.message) for r in drawn]
    assert replay(found[0], parse_target(store("contacts", bug=True))).still_fails
    assert not replay(found[0], parse_target(store("contacts"))).still_fails
