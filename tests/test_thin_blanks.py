"""Reads of records nobody holds answered with a blank thinner than a record (tests/servers/thin_blanks.py).

lockers: codes the store makes, under a pattern a marked text does not fit; the blank is the code and
the shelf's default. ledger: user titles, answers in `key: value` lines; the blank is one line, the
title. Neither blank holds the two other members a record is otherwise taken to need: what tells it
is that it holds nothing beyond the members the reader showed for a stored record (the laws machine,
after a removal; the read-only check has seen no stored record, so it leaves such a blank alone).
Twins refuse with isError.
"""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, LawsStores, engine, grading, machine_findings, summary
from hypothesis_mcp.results import Report

MISSING = "read-missing-as-success"
READERS = {"lockers": "peek", "ledger": "ledger_read"}
LAWS = LawsStores("tests/servers/thin_blanks.py")
_read_only: dict[tuple[str, bool], Report] = {}


def store(name: str, bug: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/thin_blanks.py"), "--store", name, *(["--bug"] if bug else [])]


def read_only(name: str, bug: bool) -> Report:
    """A grading run without writes: only the read-only check asks the reader for ids nobody wrote."""
    if (name, bug) not in _read_only:
        _read_only[(name, bug)] = engine(store(name, bug), grading())
    return _read_only[(name, bug)]


@pytest.mark.parametrize("name", sorted(READERS))
def test_the_twin_that_refuses_draws_no_read_finding(name: str) -> None:
    report = read_only(name, False)
    assert not [r for r in report.results if r.status in ("fail", "warn") and r.kind != "lint"], summary(report)


def test_the_laws_machine_finds_the_blank_of_a_removed_record_under_a_code_the_store_made() -> None:
    """The record's code is made anew by each fresh server: the replay judges the read by its own code."""
    found = [r for r in machine_findings(LAWS.run("lockers", True)) if r.rule == MISSING]
    assert [(r.tool, r.confidence) for r in found] == [("peek", "medium")], summary(LAWS.run("lockers", True))
    [result] = found
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert [c.tool for c in result.reproduction.calls][-2:] == ["clear", "peek"]
    assert not [r for r in machine_findings(LAWS.run("lockers", False))], summary(LAWS.run("lockers", False))


def test_a_false_flag_every_stored_record_held_true_is_an_answer_about_the_code_not_a_record() -> None:
    """badges answers an unknown code `{"badge": CODE, "found": false}`; its stored records all said
    `found: true`. The bug answers `found: true` with nothing else: a record made up for the code."""
    found = [r for r in machine_findings(LAWS.run("badges", True)) if r.rule == MISSING]
    assert [(r.tool, r.confidence) for r in found] == [("lookup", "medium")], summary(LAWS.run("badges", True))
    assert not [r for r in machine_findings(LAWS.run("badges", False))], summary(LAWS.run("badges", False))
