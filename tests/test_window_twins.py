"""Correct stores that drew a false alarm (issue #43's storegen twins 196, 79 and 68 with the laws machine
on; 153, name-blind, from the round trip), each with a faulty twin that still draws the law, and one
fault the laws machine missed (stalls), with its correct twin (tests/servers/window_stores.py).

- tills: a listing whose first page (2) is smaller than the largest one may ask for (10). A record
  that only the larger page showed is no record the first page lost. The store that keeps only its
  newest receipts still loses data.
- tags: a handle's variant past a full first page of the listing is not folded into the handle it
  varies; the store that folds handles still folds them.
- crates: a text listing whose largest page (5) is full, and whose offset the engine does not know
  how to walk: a record past that page is not lost (storegen twin 153, blind). The store whose every
  third put drops the crate before it still loses data.
- stalls: a record a listing showed, then left unsure by writes that judge nothing (law 7's walk, a
  series), is asked of that listing again on its removal once the listing shows it again. The store
  whose listing answers from a copy taken at the last open, still showing a stall closed since, was
  missed: law 4 asked only the listings still marked as showing the stall. Its twin stays clean.
- kiosks: a fresh replay of a removal that a listing keeps reads the listing on past its first page,
  as the warm checks read it (storegen reader-stale 165: the kept record sat on a later page of a
  listing two a page, so no replay showed it, and the law was not tried again). Its twin's replay
  shows the record gone from every page.
- lockers: a copy of a record's write placed before a reproduction takes the same code, and the
  record's own write is then refused: that replay shows nothing of the free that follows. The store
  whose free also empties the locker before still takes another record.
"""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, engine, fresh, grading, hunting, summary
from hypothesis_mcp.connection import Connection, Outcome, parse_target
from hypothesis_mcp.results import Call, Report, Result
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.judge import ProbeFinding, reproduces
from hypothesis_mcp.stateful.laws.confirm import confirmed, finding_of
from hypothesis_mcp.stateful.laws.laws import Breach, kept, missing
from hypothesis_mcp.stateful.laws.tails import read_on
from hypothesis_mcp.stateful.looking import Pager, joined

SERIOUS = ("high", "medium")


def store(name: str, bug: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/window_stores.py"), "--store", name, *(["--bug"] if bug else [])]


def graded(name: str, bug: bool) -> Report:
    return engine(store(name, bug), hunting() if bug else grading(), probes=True, allow_writes=True,
                  probe_config=ProbeConfig(laws=True))


def serious(report: Report) -> list[Result]:
    return [r for r in report.results if r.kind == "probe" and r.status in ("fail", "warn")
            and r.confidence in SERIOUS]


def test_a_record_only_a_larger_page_showed_is_not_lost_from_the_first() -> None:
    assert serious(graded("tills", False)) == [], summary(graded("tills", False))


def test_the_till_that_keeps_only_its_newest_receipts_loses_data() -> None:
    report = graded("tills", True)
    assert ("ring_up", "probe-data-lost", "high") in {(r.tool, r.rule, r.confidence) for r in serious(report)}, \
        summary(report)


def test_a_variant_past_a_full_first_page_is_not_folded() -> None:
    report = graded("tags", False)
    assert serious(report) == [], summary(report)


def test_the_store_that_folds_handles_is_found_folding() -> None:
    report = graded("tags", True)
    assert ("tag_set", "probe-identity-folded") in {(r.tool, r.rule) for r in serious(report)}, summary(report)


def test_a_record_past_a_full_page_that_cannot_be_walked_is_not_lost() -> None:
    report = graded("crates", False)
    assert serious(report) == [], summary(report)


def test_the_crates_whose_puts_drop_the_one_before_lose_data() -> None:
    report = graded("crates", True)
    lost = [r for r in serious(report) if (r.tool, r.rule, r.confidence) == ("crate_put", "probe-data-lost", "high")]
    assert lost, summary(report)
    assert lost[0].reproduction is not None and lost[0].reproduction.calls[-1].tool == "crates_listed"


def graded_deleting(name: str, bug: bool) -> Report:
    return engine(store(name, bug), hunting() if bug else grading(), probes=True, allow_writes=True,
                  allow_deletes=True, probe_config=ProbeConfig(laws=True))


def test_a_listing_that_shows_a_record_again_is_judged_on_its_removal() -> None:
    report = graded_deleting("stalls", True)
    kept = {(r.tool, r.rule, r.confidence) for r in serious(report)}
    assert ("stall_close", "probe-delete-kept", "high") in kept, summary(report)


def test_the_stalls_twin_draws_no_finding() -> None:
    report = graded_deleting("stalls", False)
    assert serious(report) == [], summary(report)


def kiosk_removal() -> ProbeFinding:
    """Three kiosks opened, the oldest closed, and the listing's first page read: the closed one, if
    kept, sits on its second page."""
    calls = [Call("kiosk_open", {"code": code, "goods": f"hm0f0c500{n}-goods"})
             for n, code in enumerate(("ka7", "jb3", "lc9"))]
    calls += [Call("kiosk_close", {"code": "ka7"}), Call("kiosks_listed", {})]
    return finding_of(kept("probe-delete-kept", "kiosk_close", "kiosks_listed", 4, ("hm0f0c5000-goods",), (),
                           "a record was removed with success"), calls)


def read_on_by_next(conn: Connection, call: Call, first: Outcome) -> Outcome:
    return joined(read_on(lambda a: conn.call(call.tool, a), call.arguments, first, Pager("next", "after")))


@pytest.mark.parametrize("bug", [True, False])
def test_a_removal_a_listing_keeps_past_its_first_page_replays(bug: bool) -> None:
    with Connection(parse_target(store("kiosks", bug))) as conn:
        assert reproduces(kiosk_removal(), conn, read_on_by_next) is bug
    with Connection(parse_target(store("kiosks", bug))) as conn:
        assert not reproduces(kiosk_removal(), conn)  # its first page alone shows nothing of it


def breach_and_calls() -> tuple[Breach, list[Call]]:
    """A hand-made breach as the warm server showed it: two lockers claimed, the second freed, and the
    listing no longer shows the first."""
    calls = [Call("locker_claim", {"code": "ka7", "contents": "hm0f0c5000-contents"}),
             Call("locker_claim", {"code": "jb3", "contents": "hm0f0c5001-contents"}),
             Call("locker_free", {"code": "jb3"}), Call("lockers_shown", {})]
    breach = missing("probe-delete-took-other", "locker_free", "lockers_shown", 3, ("hm0f0c5000-contents",), (),
                     "locker_free removed another record")
    breach.pinned, breach.history = (0, 2), 9
    return breach, calls


def test_a_copy_that_takes_the_records_code_confirms_nothing() -> None:
    count = iter(range(16, 100))
    breach, calls = breach_and_calls()
    found = confirmed(breach, calls, set(), fresh(store("lockers", False)),
                      marker=lambda: f"hm0f0c5{next(count):03x}")
    assert found is None, found and [(c.tool, c.arguments) for c in found.calls]


def test_a_free_that_empties_another_locker_is_confirmed() -> None:
    count = iter(range(16, 100))
    breach, calls = breach_and_calls()
    found = confirmed(breach, calls, set(), fresh(store("lockers", True)),
                      marker=lambda: f"hm0f0c5{next(count):03x}")
    assert found is not None and found.fresh and found.rule == "probe-delete-took-other"
    assert "writes_before" not in found.details
