"""Making a probe failure smaller: what may and may not be dropped, whatever the replays say.

The replays here are predicates over the calls, so each test can state which candidates "still
fail"; the real replays on fresh servers are exercised by test_probes.py and test_scorecard.py.
"""

from __future__ import annotations

from hypothesis_mcp.results import Call
from hypothesis_mcp.stateful.judge import ProbeFinding
from hypothesis_mcp.stateful.shrink import plain_calls, smaller

WRITE = Call("write_note", {"title": "hm00010001-titleX\nY", "body": "hm00010001-bodyZZ"})
OTHER = Call("write_note", {"title": "hm00010002-title", "body": "hm00010002-body"})
READ = Call("read_note", {"identifier": "hm00010001-titleX\nY"})
LIST = Call("list_notes", {"limit": 5})


def finding(calls: list[Call], rule: str = "probe-write-not-observable",
            expect: tuple[str, ...] = ("hm00010001-title",)) -> ProbeFinding:
    return ProbeFinding(rule=rule, tool="write_note", message="m", confidence="high", basis="b", calls=calls,
                        expect={"contains_any": list(expect)})


def test_a_cut_value_is_cut_wherever_it_is_repeated() -> None:
    calls, mapping = plain_calls([WRITE, READ])
    assert calls[0].arguments == {"title": "hm00010001-title", "body": "hm00010001-body"}
    assert calls[1].arguments == {"identifier": "hm00010001-title"}, "the read names the same note"
    assert mapping == {"hm00010001-titleX\nY": "hm00010001-title", "hm00010001-bodyZZ": "hm00010001-body"}


def test_the_write_that_carries_the_evidence_is_never_dropped() -> None:
    """Replays that "fail" everything would let a careless reduction drop the write, and the read
    would then miss a note that was never written, on any server."""
    done = smaller(finding([WRITE, LIST, OTHER, READ]), "write_note", lambda f: True)
    assert [c.tool for c in done.calls] == ["write_note", "read_note"]
    assert "hm00010001" in done.calls[0].arguments["title"]


def test_candidates_that_pass_are_not_kept() -> None:
    """Only the unaltered values fail (the bug needs the line break): the cut values are refused,
    the unneeded reads and the other write still go."""
    def replays(f: ProbeFinding) -> bool:
        return "\n" in f.calls[0].arguments["title"]

    done = smaller(finding([WRITE, LIST, OTHER, LIST, READ]), "write_note", replays)
    assert done.calls == [WRITE, READ]


def test_a_lost_record_keeps_the_read_that_showed_it() -> None:
    shown = Call("read_note", {"identifier": "hm00010001-title"})
    first = Call("write_note", {"title": "hm00010001-title", "body": "hm00010001-body"})
    calls = [first, shown, OTHER, Call("read_note", {"identifier": "hm00010002-title"}), shown]
    done = smaller(finding(calls, rule="probe-data-lost"), "write_note", lambda f: OTHER in f.calls)
    assert done.calls == [first, shown, OTHER, shown]


def test_the_budget_bounds_the_replays() -> None:
    seen: list[ProbeFinding] = []

    def passes(candidate: ProbeFinding) -> bool:
        seen.append(candidate)
        return False

    smaller(finding([WRITE, *[LIST] * 20, READ]), "write_note", passes, budget=5)
    assert len(seen) == 5


def test_only_the_first_read_that_showed_the_record_is_kept() -> None:
    first = Call("write_note", {"title": "hm00010001-title", "body": "hm00010001-body"})
    again = Call("write_note", {"title": "hm00010001-title", "body": "hm00010003-body"})

    def read() -> Call:
        return Call("read_note", {"identifier": "hm00010001-title"})

    calls = [first, read(), read(), again, read()]
    done = smaller(finding(calls, rule="probe-silent-noop", expect=("hm00010003-body",)), "write_note",
                   lambda f: first in f.calls)
    assert done.calls == [first, read(), again, read()]
