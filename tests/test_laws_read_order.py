"""A read that moves its record to the end of the listing (tests/servers/read_effects.py `--store deck
--bug`: card(card) moves the card last in cards()), by the laws machine alone.

Law 1 on a listing's order: after the read, the records the listing showed stand in another order.
Any two records stand in order after a read of a correct store, so the reproduction holds the record
read, one other, the read and the listing: no call of it can go. The twin draws no finding."""

from __future__ import annotations

from helpers import StoreAlone, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay

DECK = StoreAlone("tests/servers/read_effects.py", "deck")
deck, run = DECK.command, DECK.run


def test_the_read_that_reorders_is_found_with_two_records() -> None:
    found = [r for r in machine_findings(run(True)) if r.details.get("expect", {}).get("in_order")]
    assert found, [(r.tool, r.rule, r.message) for r in machine_findings(run(True))]
    for finding in found:
        assert (finding.tool, finding.rule) == ("card", "probe-read-changed-state"), finding.message
        assert finding.reproduction is not None
        assert [c.tool for c in finding.reproduction.calls] == ["add-card", "add-card", "card", "cards"]
        assert replay(finding, parse_target(deck(True))).still_fails
        assert not replay(finding, parse_target(deck(False))).still_fails


def test_the_twin_draws_no_finding_of_the_machine() -> None:
    found = machine_findings(run(False))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
