"""Refusal shapes learned read-only, from reads of ids nobody wrote (tests/servers/missing_records.py).

Each store answers a record that does not exist in a shape the fixed rules do not read: a sentence
(catalogue), a JSON envelope whose `ok` is false beside members of its own (envelope), a blank
record under the asked id (profiles). Each bug draws exactly the finding named for it, and its
correct twin none: the twins refuse with isError, or (profiles) answer `{"result": null}`, an
empty answer that is how that server says "nothing there". One grading run per server, shared.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from helpers import ROOT, SERVE, engine, grading, one, results, summary
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report

Run = Callable[[str, bool], Report]
MISSING = "read-missing-as-success"


def store(name: str, bug: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/missing_records.py"), "--store", name, *(["--bug"] if bug else [])]


@pytest.fixture(scope="module")
def run() -> Run:
    """Read-only grading runs (the envelope bug's with --allow-writes and probes), each made once."""
    made: dict[tuple[str, bool], Report] = {}

    def get(name: str, bug: bool) -> Report:
        if (name, bug) not in made:
            writes = name == "envelope" and bug
            made[name, bug] = engine(store(name, bug), grading(max_examples=10) if writes else grading(),
                                     probes=writes, allow_writes=writes)
        return made[name, bug]

    return get


def findings(report: Report) -> set[tuple[str, str | None]]:
    return {(r.rule, r.tool) for r in report.results if r.status in ("fail", "warn") and r.kind != "lint"}


def test_a_not_found_sentence_is_a_refusal(run: Run) -> None:
    report = run("catalogue", True)
    assert findings(report) == {("error-as-success", None)}, summary(report)
    [found] = results(report, rule="error-as-success")
    assert [w["tool"] for w in found.details["where"]] == ["book_fetch"]
    assert found.confidence == "low" and "No book with ISBN '\u2026' is on the shelf." in found.message
    [fact] = found.details["rests_on"]
    assert "reads of ids nobody wrote" in fact["what"] and fact["evidence"] == "shown"
    # Every random isbn the searches asked for was refused (the sentence, whatever the isbn), as on the twin;
    # searched again with the isbns the listing prints, the reader serves them.
    happy = one(report, check="happy", tool="book_fetch")
    assert happy.status == "pass" and "isbn" in happy.details["owned"], summary(report)
    assert replay(found, parse_target(store("catalogue", True))).still_fails


def test_a_json_failure_flag_beside_members_of_its_own_is_a_refusal_and_writes_are_judged(run: Run) -> None:
    """The envelope design: every refusal `{"ok": false, "error": ..., "meta": ...}`, isError false.
    Its refused writes (texts over 60 characters) are refusals to the probes: no unobservable write."""
    report = run("envelope", True)
    found = findings(report)
    assert found == {("error-as-success", None)}, summary(report)
    assert not results(report, rule="probe-write-not-observable"), summary(report)
    [probe] = results(report, kind="probe", tool="putItem", check="round-trip")
    assert probe.status == "pass", summary(report)
    [get] = results(report, rule="error-as-success")
    assert "getItem" in {w["tool"] for w in get.details["where"]}
    assert "'ok' member is \"false\"" in get.message and get.reproduction is not None
    assert get.reproduction.refusals == [("ok", False)]


def test_a_blank_record_for_an_id_nobody_wrote_is_a_finding(run: Run) -> None:
    report = run("profiles", True)
    assert findings(report) == {(MISSING, "profile-get")}, summary(report)
    [found] = results(report, rule=MISSING)
    assert (found.status, found.confidence, found.kind) == ("warn", "medium", "scenario") and found.fix
    assert found.reproduction is not None and len(found.reproduction.calls) == 1
    assert replay(found, parse_target(store("profiles", True))).still_fails
    assert not replay(found, parse_target(store("profiles", False))).still_fails
    # A refusal a client cannot tell from data weighs: 30 points over the store's three tools.
    assert report.score <= run("profiles", False).score - 9.9, (report.score, summary(run("profiles", False)))


@pytest.mark.parametrize("name", ["catalogue", "envelope", "profiles"])
def test_the_correct_twin_draws_no_finding(run: Run, name: str) -> None:
    """Refusals with isError, or an empty answer for a missing id; the catalogue's "error log" book
    is a user's words, not a refusal."""
    report = run(name, False)
    assert not findings(report), summary(report)
    assert not report.results or all(r.reproduction is None or not r.reproduction.refusals for r in report.results)
