"""A listing whose default page (three) is smaller than the writes a reproduction makes
(tests/servers/cellar_book.py), with the laws machine on: issue #43's storegen seed 152, whose correct
twin drew a high `probe-delete-took-other`. The warm check read the listing's first page and its tail,
yet a row whose cell held \\x1c was cut in two there (`str.splitlines` breaks at it), so the tail walk
ended a page early; the fresh replay of five writes and a removal then read the first page alone,
where the fifth record is not, and "confirmed" it taken. Now a table's rows end at line feeds only, a
fresh replay looks for a record said missing on the listing's later pages too (the paging the checks
learned on the warm server), the correct book draws nothing, and the book whose removal also takes
the newest bottle still draws the law on the removal."""

from __future__ import annotations

from helpers import ROOT, SERVE, engine, fresh, grading, summary
from hypothesis_mcp.connection import Connection, parse_target
from hypothesis_mcp.results import Call, Report, Result
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.judge import Rest
from hypothesis_mcp.stateful.laws.confirm import confirmed
from hypothesis_mcp.stateful.laws.laws import Breach, missing
from hypothesis_mcp.stateful.laws.machine import Run
from hypothesis_mcp.stateful.laws.observe import Learned
from hypothesis_mcp.stateful.laws.tails import Stepper
from hypothesis_mcp.stateful.looking import items
from hypothesis_mcp.stateful.watch import rows

_reports: dict[bool, Report] = {}


def book(bug: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/cellar_book.py"), *(["--bug", "takes-newest"] if bug else [])]


def graded(bug: bool) -> Report:
    if bug not in _reports:
        _reports[bug] = engine(book(bug), grading(), probes=True, allow_writes=True, allow_deletes=True,
                               probe_config=ProbeConfig(laws=True))
    return _reports[bug]


def serious(report: Report) -> list[Result]:
    return [r for r in report.results if r.kind == "probe" and r.status in ("fail", "warn")
            and r.confidence in ("high", "medium")]


def test_the_correct_book_draws_no_finding() -> None:
    assert serious(graded(False)) == [], summary(graded(False))


def test_a_removal_that_takes_the_newest_bottle_is_found_taking_it() -> None:
    report = graded(True)
    found = [r for r in serious(report) if (r.tool, r.rule) == ("bottle_remove", "probe-delete-took-other")]
    assert found, summary(report)
    assert found[0].reproduction is not None and found[0].reproduction.fresh_server


def test_a_row_whose_cell_holds_a_unicode_line_separator_stays_one_row() -> None:
    with Connection(parse_target(book(False))) as conn:
        for label, tasting in (("aa", "oak"), ("bb", "plum\x1cfig\u2028tar"), ("cc", "cedar")):
            assert conn.call("bottle_add", {"label": label, "tasting": tasting}).ok
        assert len(items(conn.call("bottles_list", {}))) == 3


def test_a_key_value_reading_whose_value_holds_a_unicode_line_separator_reads_it_whole() -> None:
    tasting = "plum\x1cfig\x85nut\u2028tar"
    with Connection(parse_target(book(False))) as conn:
        assert conn.call("bottle_add", {"label": "bb", "tasting": tasting}).ok
        read = conn.call("bottle_get", {"label": "bb"})
    assert rows(read)[f"tasting: {tasting}"] == 1, rows(read)


def rest(argv: list[str]) -> Rest:
    """As the laws machine reads a listing on in a fresh replay, the book's paging as its checks
    learned it on the warm server: `skip` an offset, three bottles a page."""
    run = Run(Connection(parse_target(argv)), Learned(), 0)
    run.pagings["bottles_list"] = Stepper("skip", "offset", "n", 3)
    return run.rest


def breach_and_calls() -> tuple[Breach, list[Call]]:
    """As the warm check showed it: five bottles shelved, the first removed, and the listing no longer
    shows the fifth."""
    calls = [Call("bottle_add", {"label": f"b{i}", "tasting": f"hm0c11a{i:03x}-tasting"}) for i in range(5)]
    calls += [Call("bottle_remove", {"label": "b0"}), Call("bottles_list", {})]
    breach = missing("probe-delete-took-other", "bottle_remove", "bottles_list", 6, ("hm0c11a004-tasting",), (),
                     "bottle_remove removed another record")
    breach.pinned = (4, 5)
    return breach, calls


def test_a_record_past_the_replays_first_page_is_not_taken() -> None:
    breach, calls = breach_and_calls()
    correct = book(False)
    assert confirmed(breach, calls, set(), fresh(correct, None)) is not None, "the first page leaves it out"
    assert confirmed(breach, calls, set(), fresh(correct, rest(correct))) is None


def test_a_record_the_removal_took_is_taken_on_every_page() -> None:
    breach, calls = breach_and_calls()
    calls[3:4] = []  # four shelved: the removal of the first takes the newest, which no page shows
    breach = missing("probe-delete-took-other", "bottle_remove", "bottles_list", 5, ("hm0c11a004-tasting",), (),
                     "bottle_remove removed another record")
    breach.pinned = (3, 4)
    faulty = book(True)
    found = confirmed(breach, calls, set(), fresh(faulty, rest(faulty)))
    assert found is not None and found.rule == "probe-delete-took-other"
    assert [c.arguments.get("label") for c in found.calls] == ["b0", "b4", "b0", None]
