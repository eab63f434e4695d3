"""Pages cover (tests/servers/ledger_pages.py by offset, bookmark_cursor.py by an opaque cursor): a
paged reader walked to the end over records the run wrote shows each exactly once. Each bug (a
skipped or a repeated record) is found with a reproduction that replays on a fresh server and passes
on the correct twin; the twins draw no finding; without --allow-writes no page is judged. With the
laws machine on (`laws: true`), law 7 walks these listings and the pages machine leaves them to it:
each bug is drawn all the same, by the same rule at the same confidence, and the twins stay clean.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from helpers import bookmark_cursor, grading, ledger_pages, one, problems, shared_run, summary
from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome, parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Result
from hypothesis_mcp.rules.expectations import PagesCover, PagesDisjoint, from_dict
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.laws.confirm import LAWS_BASIS
from hypothesis_mcp.stateful.pages import paging_of


def probes(target: list[str], **options: Any) -> Any:
    return shared_run(target, grading(), probes=True, **{"allow_writes": True, **options})


def reader(properties: dict[str, Any], required: list[str] | None = None, **annotations: bool) -> Tool:
    return Tool.from_dict({"name": "items_list", "annotations": annotations or {"readOnlyHint": True},
                           "inputSchema": {"type": "object", "properties": properties, "required": required or []}})


def page(text: str) -> Outcome:
    return Outcome.from_result({"content": [{"type": "text", "text": text}], "isError": False}, 0.0)


def test_paging_is_read_from_the_parameters() -> None:
    integer = {"type": "integer"}
    offset = paging_of(reader({"offset": integer, "limit": {"type": "integer", "minimum": 1, "maximum": 20}}))
    assert offset is not None and (offset.style, offset.move, offset.size) == ("offset", "offset", "limit")
    assert (offset.smallest, offset.largest) == (1, 20)
    numbered = paging_of(reader({"page": {"type": "integer", "minimum": 1}, "per_page": integer}))
    assert numbered is not None and (numbered.style, numbered.first, numbered.size) == ("page", 1, "per_page")
    unsaid = paging_of(reader({"page": integer}))
    assert unsaid is not None and unsaid.first is None and unsaid.size is None  # the first walk asks
    cursor = paging_of(reader({"cursor": {"type": "string"}, "page_size": integer}))
    assert cursor is not None and (cursor.style, cursor.size) == ("cursor", "page_size")
    assert paging_of(reader({"limit": integer})) is None  # a bound, no page to move
    assert paging_of(reader({"offset": integer, "project": {"type": "string"}}, ["project"])) is None
    assert paging_of(reader({"offset": integer}, readOnlyHint=False, destructiveHint=False)) is None


def test_the_page_expectations_judge_two_pages() -> None:
    disjoint = PagesDisjoint(("hm00000001", "hm00000002"))
    assert disjoint.holds(page('["hm00000002"]'), page('["hm00000001"]'))
    assert not disjoint.holds(page('["hm00000001", "hm00000002"]'), page('["hm00000001"]'))
    cover = PagesCover(("hm00000001", "hm00000002"))
    assert cover.holds(page("[]"), page('["hm00000001", "hm00000002"]'))
    assert not cover.holds(page("[]"), page('["hm00000001"]'))
    # A page that leads on ends no walk: a fixed server's next page may show the rest.
    following = PagesCover(("hm00000001", "hm00000002"), ("next_cursor",))
    assert following.holds(page('{"items": ["hm00000001"], "next_cursor": "c2"}'))
    assert not following.holds(page('{"items": ["hm00000001"], "next_cursor": null}'))
    assert cover.holds(page('["hm00000001"]'))  # by offset, a page with items is no end either
    assert from_dict(disjoint.to_dict()) == disjoint and from_dict(cover.to_dict()) == cover
    assert from_dict(following.to_dict()) == following


def test_a_walk_of_text_tables_is_judged_by_their_rows() -> None:
    """A walked page in `key: value` text whose items are a markdown table's rows (storegen seed 45):
    the rows are its items, and a total after them is none, so an empty last page ends the walk."""
    head = "| sku | label |\n|---|---|\n"
    first = page(head + "| 1 | hm00000001-label |\n| 2 | hm00000002-label |\n\ntotal: 3")
    walked = PagesCover(("hm00000001", "hm00000002", "hm00000003"), walked=True)
    assert not walked.holds(page(head + "\ntotal: 3"), first)  # the third record was never shown
    assert walked.holds(page(head + "| 3 | hm00000003-label |\n\ntotal: 3"), first)  # a row: no end yet
    assert walked.holds(page(head + "\ntotal: 3"), page(head + "\ntotal: 3"))  # no page before: not judged


BUGS = pytest.mark.parametrize(("server", "bug", "paged", "rule"), [
    (ledger_pages, "offset-skips", "entry_list", "probe-pages-skip"),
    (ledger_pages, "offset-overlaps", "entry_list", "probe-pages-repeat"),
    (bookmark_cursor, "last-page-lost", "bookmarks_browse", "probe-pages-skip"),
    (bookmark_cursor, "cursor-repeats", "bookmarks_browse", "probe-pages-repeat"),
])
TWINS = pytest.mark.parametrize(("server", "paged"), [(ledger_pages, "entry_list"),
                                                    (bookmark_cursor, "bookmarks_browse")])
LAWS = ProbeConfig(laws=True)


@BUGS
def test_a_page_bug_is_found_and_replays(server: Any, bug: str, paged: str, rule: str) -> None:
    report = probes(server(bug))
    found = [r for r in problems(report) if r.kind == "probe"]
    assert [(r.tool, r.rule, r.confidence) for r in found] == [(paged, rule, "high")], summary(report)
    [result] = found
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert all(f["evidence"] == "shown" for f in result.details["rests_on"])
    # No call can go: every write is a record a page must show once, every page is judged or leads there.
    calls = result.reproduction.calls
    assert calls[-1].tool == paged and any(c.tool != paged for c in calls)
    again = Result.from_dict(json.loads(json.dumps(result.to_dict())))
    assert replay(again, parse_target(server(bug))).still_fails
    assert not replay(again, parse_target(server())).still_fails


@TWINS
def test_the_correct_twins_pages_cover(server: Any, paged: str) -> None:
    report = probes(server())
    assert [r for r in problems(report) if r.kind == "probe"] == [], summary(report)
    walked = one(report, kind="probe", tool=paged, check="pages")
    assert walked.status == "pass" and walked.confidence == "high", walked.message


@BUGS
def test_under_the_laws_machine_law_7_draws_each_page_bug(server: Any, bug: str, paged: str, rule: str) -> None:
    """`laws: true`: law 7 walked the listing, so the pages machine did not; the law's finding is the
    pages machine's, as sure (every fact shown: an offset's reading by two steps of the listing's own),
    and replays from a fresh server, not on the twin."""
    report = probes(server(bug), probe_config=LAWS)
    found = [r for r in problems(report) if r.kind == "probe"]
    assert [(r.tool, r.rule, r.confidence) for r in found] == [(paged, rule, "high")], summary(report)
    [result] = found
    assert result.basis.startswith(LAWS_BASIS), result.basis
    assert [r for r in report.results if r.check == "pages"] == [], "the pages machine ran"
    assert any(n.startswith(f"pages machine not run on {paged}: law 7") for n in report.notes), report.notes
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert all(f["evidence"] == "shown" for f in result.details["rests_on"])
    again = Result.from_dict(json.loads(json.dumps(result.to_dict())))
    assert replay(again, parse_target(server(bug))).still_fails
    assert not replay(again, parse_target(server())).still_fails


@pytest.mark.parametrize(("server", "bug", "paged"), [(ledger_pages, "offset-overlaps", "entry_list"),
                                                     (bookmark_cursor, "cursor-repeats", "bookmarks_browse")])
def test_under_the_laws_machine_a_repeat_keeps_no_write_it_repeats_without(server: Any, bug: str, paged: str) -> None:
    """A page of a correct listing repeats no record however few it holds, so the writes of law 7's
    repeat are not pinned: each write its reproduction keeps is one the repeat needs (without it, a
    fresh replay shows none)."""
    [result] = [r for r in problems(probes(server(bug), probe_config=LAWS)) if r.rule == "probe-pages-repeat"]
    assert result.reproduction is not None
    calls = result.reproduction.calls
    writes = [i for i, c in enumerate(calls) if c.tool != paged]
    assert writes, calls
    for index in writes:
        fewer = result.to_dict()
        fewer["reproduction"]["calls"] = [c for i, c in enumerate(fewer["reproduction"]["calls"]) if i != index]
        assert not replay(Result.from_dict(fewer), parse_target(server(bug))).still_fails, (index, calls)


@TWINS
def test_under_the_laws_machine_the_twins_stay_clean(server: Any, paged: str) -> None:
    report = probes(server(), probe_config=LAWS)
    assert [r for r in problems(report) if r.kind == "probe"] == [], summary(report)
    assert any(n.startswith(f"pages machine not run on {paged}: law 7") for n in report.notes), report.notes


def test_without_writes_no_page_is_judged() -> None:
    report = probes(ledger_pages("offset-skips"), allow_writes=False)
    assert [r for r in report.results if r.check == "pages"] == []
