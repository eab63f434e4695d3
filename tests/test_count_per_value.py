"""A number that grew by one with each record is a count of all records only once a record unlike the
others moved it too: while every record the run wrote shared a choice (a lane, a flag), it may count
only those with that choice. tests/servers/tally_board.py counts cards per lane and has no total;
its correct store draws no finding. And a reproduction's plainer form keeps distinct values distinct,
so it is never a write the server refuses for equal items."""

from __future__ import annotations

from helpers import ROOT, SERVE, engine, grading, problems, summary
from hypothesis_mcp.results import Call
from hypothesis_mcp.stateful.shrink import plain_calls


def test_a_per_lane_tally_is_no_total() -> None:
    report = engine([*SERVE, str(ROOT / "tests/servers/tally_board.py")], grading(), probes=True, allow_writes=True)
    found = [(r.tool, r.rule, r.confidence) for r in problems(report) if r.kind == "probe"]
    assert found == [], summary(report)


def test_plain_calls_keep_distinct_texts_distinct() -> None:
    write = Call("add", {"tags": ["hm12ab0001-tagsXY", "hm12ab0001-tagsZW"], "title": "hm12ab0001-titleQQ"})
    read = Call("find", {"q": "hm12ab0001-titleQQ"})
    plain, mapping = plain_calls([write, read])
    assert plain[0].arguments["tags"] == ["hm12ab0001-tagsXY", "hm12ab0001-tagsZW"]
    assert plain[0].arguments["title"] == "hm12ab0001-title" and plain[1].arguments["q"] == "hm12ab0001-title"
    assert mapping == {"hm12ab0001-titleQQ": "hm12ab0001-title"}
