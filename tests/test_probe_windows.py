"""A listing that shows a page of the oldest records (tests/servers/oldest_first.py): past its first
page the newest record is out of sight, which says nothing about the write. The correct store
draws no finding; a store that drops one record is still found, judged on its largest page. A
listing that names its next page under a name of its own (tests/servers/resume_cursor.py) is
followed page by page: the records past page one are shown there, not lost; the page probe,
which cannot follow it, judges nothing."""

from __future__ import annotations

from helpers import ROOT, SERVE, grading, problems, shared_run, summary


def journal(bug: str | None = None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/oldest_first.py"), *(["--bug", bug] if bug else [])]


def test_a_record_past_a_full_page_is_no_lost_write() -> None:
    report = shared_run(journal(), grading(), probes=True, allow_writes=True)
    assert [r for r in problems(report) if r.kind == "probe"] == [], summary(report)


def test_a_dropped_record_is_found_on_the_largest_page() -> None:
    report = shared_run(journal("drops-fourth"), grading(), probes=True, allow_writes=True)
    [found] = [r for r in problems(report) if r.kind == "probe"]
    assert (found.tool, found.rule, found.status, found.confidence) == (
        "write_entry", "probe-write-not-observable", "fail", "high"), summary(report)
    assert found.reproduction is not None
    calls = found.reproduction.calls
    assert [c.tool for c in calls] == ["write_entry"] * 4 + ["read_entries"]
    assert calls[-1].arguments == {"max_items": 4}


def test_a_listing_continued_under_its_own_member_name_is_followed() -> None:
    report = shared_run([*SERVE, str(ROOT / "tests/servers/resume_cursor.py")], grading(), probes=True,
                        allow_writes=True)
    assert [r for r in problems(report) if r.kind == "probe"] == [], summary(report)
    trip = next(r for r in report.results if r.kind == "probe" and r.tool == "jot_add" and r.check == "round-trip")
    assert (trip.status, trip.confidence) == ("pass", "high"), trip.message
    walked = next(r for r in report.results if r.check == "pages" and r.tool == "jots_browse")
    assert walked.status == "inconclusive" and "followed to its end" in walked.message, walked.message
