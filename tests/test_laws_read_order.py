"""Law 1 on a listing's window (stateful/laws/read_order.py): tests/servers/visitor_book.py's
first_signatures shows the earliest three signatures only, oldest first, so once the experiments have
signed more than three, no signature an example of the laws machine writes ever shows there, and the
machine's own order check (a listing's order of the example's records) never sees a read move one.
With `--bug read-moves`, visitor moves the signature it reads to the end of the book: read between
two listings, the earliest signature leaves the window. The machine reports `probe-read-changed-state`
on visitor, medium, replayed on a fresh server from the two signatures' writes, the read and the
listing (their order before the read), which replays on the bug and not on the twin. The twin, whose
reads change nothing, draws no finding of the machine and none at medium or high confidence.
"""

from __future__ import annotations

from helpers import LawsAlone, machine_finding
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay

BOOK = LawsAlone("tests/servers/visitor_book.py")
book, run = BOOK.command, BOOK.run


def test_the_twin_draws_no_medium_or_high_finding() -> None:
    BOOK.assert_twin_clean()


def test_a_read_that_moves_a_signature_out_of_the_window_is_found() -> None:
    result = machine_finding(run("read-moves"), "visitor", "probe-read-changed-state")
    assert result.confidence == "medium"
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert [c.tool for c in result.reproduction.calls] == ["sign", "sign", "visitor", "first_signatures"]
    assert replay(result, parse_target(book("read-moves"))).still_fails
    assert not replay(result, parse_target(book(None))).still_fails
