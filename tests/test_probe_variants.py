"""Identity variants (tests/servers/identity_variants.py): a record written under a variant of an
existing identity (case, spaces, Unicode NFD, a shared prefix) stays its own record.

Two stores in different styles (notes: snake names, structuredContent, isError refusals, a keyed
get and a listing; pages: dotted names, JSON text with {"ok": false} refusals, a keyed get and an
object keyed by slug), each run once with all its bugs on: a store that folds case, spaces or
Unicode form is reported as a warning (and the model folds too, so the prefix bug of the same
store is still found, with no data-loss alarm in between); a store that matches identities by
prefix fails at high confidence on facts the reproduction shows. Each finding replays on its
buggy store, not on its twin, and loses its failure without either write. The twins draw no
finding. A store that drops the characters a slug cannot hold folds `abcé` into `abc` without
matching prefixes: a fold, never the prefix failure. A correct store whose listing shows only its
oldest few draws no fold. Six grading runs in all.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from helpers import ROOT, SERVE, engine, grading, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Reproduction, Result

STORES = {"notes": ("save_note", ["fold-case", "prefix"], {"case"}),
          "pages": ("page.save", ["trim", "nfc", "prefix-get"], {"space", "nfd"})}
"""Each store's write tool, its bugs, and the variants its bugs fold."""
_reports: dict[tuple[str, ...], Report] = {}


def store(name: str, bug: bool = False, only: str | None = None) -> list[str]:
    bugs = [arg for b in ([only] if only else STORES[name][1] if bug else []) for arg in ("--bug", b)]
    return [*SERVE, str(ROOT / "tests/servers/identity_variants.py"), "--store", name, *bugs]


def run(name: str, bug: bool = False, only: str | None = None) -> Report:
    key = (name, str(bug), only or "")
    if key not in _reports:
        _reports[key] = engine(store(name, bug, only), grading(), probes=True, allow_writes=True)
    return _reports[key]


def found(name: str, rule: str) -> list[Result]:
    return [r for r in results(run(name, bug=True), kind="probe", rule=rule) if r.status in ("fail", "warn")]


def writes(result: Result) -> list[int]:
    assert result.reproduction is not None
    return [i for i, c in enumerate(result.reproduction.calls) if c.tool == result.tool]


@pytest.mark.parametrize("name", STORES)
def test_a_correct_store_draws_no_probe_finding(name: str) -> None:
    report = run(name)
    problems = [r for r in results(report, kind="probe") if r.status in ("fail", "warn")]
    assert not problems, [(r.tool, r.rule, r.confidence, r.message) for r in problems]
    assert results(report, kind="probe", rule="round-trip", status="pass")


def test_a_listing_of_the_oldest_few_witnesses_no_fold() -> None:
    """shelf: a correct store whose listing shows only its three oldest notes, with no page to ask
    for. A variant's note is never among them, nor is a note of an unrelated label written after it:
    the listing shows a window, not two identities made one (it drew five medium folds before)."""
    report = engine([*SERVE, str(ROOT / "tests/servers/identity_variants.py"), "--store", "shelf"], grading(),
                    probes=True, allow_writes=True)
    problems = [r for r in results(report, kind="probe") if r.status in ("fail", "warn")]
    assert not problems, [(r.tool, r.rule, r.confidence, r.message) for r in problems]


@pytest.mark.parametrize("name", STORES)
def test_a_prefix_match_that_loses_a_record_fails_and_replays(name: str) -> None:
    report = run(name, bug=True)
    failures = found(name, "probe-identity-prefix")
    assert failures, [(r.tool, r.rule, r.status, r.message) for r in results(report, kind="probe")]
    finding = failures[0]
    assert finding.status == "fail" and finding.confidence == "high" and finding.tool == STORES[name][0]
    assert all(f["evidence"] == "shown" for f in finding.details["rests_on"]), finding.details["rests_on"]
    assert replay(finding, parse_target(store(name, bug=True))).still_fails
    assert not replay(finding, parse_target(store(name))).still_fails
    assert not [r for r in results(report, kind="probe", rule="probe-data-lost") if r.status == "fail"]


@pytest.mark.parametrize("name", STORES)
def test_a_fold_is_a_warning_for_each_variant_the_store_folds(name: str) -> None:
    warnings = found(name, "probe-identity-folded")
    assert {w.details["variant"] for w in warnings} == STORES[name][2], [w.message for w in warnings]
    for warning in warnings:
        assert warning.status == "warn" and warning.confidence == "medium"
        assert replay(warning, parse_target(store(name, bug=True))).still_fails
        assert not replay(warning, parse_target(store(name))).still_fails


@pytest.mark.parametrize("name", STORES)
def test_no_call_of_a_reproduction_can_go(name: str) -> None:
    """Each reproduction writes two identities and reads one of them last. Without the write of the
    other identity, the read shows its own record again; the write of the record the read misses
    stays (without it the read would miss it on any server), and so does an earlier read of the
    same record: it is the fact the finding rests on, that the reader showed the record by its key."""
    for finding in [*found(name, "probe-identity-prefix"), *found(name, "probe-identity-folded")]:
        assert finding.reproduction is not None
        calls = finding.reproduction.calls
        assert len(writes(finding)) == 2 and calls[-1].tool != finding.tool, calls
        missed = finding.details["expect"]["contains_any"]
        carrying = [i for i in writes(finding) if any(t in json.dumps(calls[i].arguments) for t in missed)]
        assert len(carrying) == 1, (missed, calls)
        assert all(c == calls[-1] for c in calls[:-1] if c.tool != finding.tool), calls
        other = next(i for i in writes(finding) if i not in carrying)
        shorter = Reproduction(calls[:other] + calls[other + 1:], fresh_server=True)
        assert not replay(replace(finding, reproduction=shorter), parse_target(store(name, bug=True))).still_fails


def test_a_store_that_drops_characters_folds_and_matches_no_prefix() -> None:
    """The shorter variant of an accented path loses only the accent, which the slug store drops:
    one note, as a prefix match would make; the plain pair in the same relation (`hm...-path`,
    `hm...-pat`) stays two notes, so the finding is a fold (checked by hand on a real server that
    slugs note names, docs/real-servers.md)."""
    report = run("notes", only="slug")
    variants = [r for r in results(report, kind="probe", check="variants") if r.status in ("fail", "warn")]
    assert not [r for r in variants if r.rule == "probe-identity-prefix"], [r.message for r in variants]
    folds = {r.details["variant"]: r for r in variants if r.rule == "probe-identity-folded"}
    assert "shorter" in folds, [r.message for r in variants]
    assert "drops or rewrites" in folds["shorter"].message
    assert replay(folds["shorter"], parse_target(store("notes", only="slug"))).still_fails
    assert not replay(folds["shorter"], parse_target(store("notes"))).still_fails
