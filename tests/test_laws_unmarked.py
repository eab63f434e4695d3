"""The laws machine on records with no text to carry a marker (stateful/laws/model.py `numbered`):
tests/servers/meter_log.py files readings of numbers, a flag and a phase letter under a patterned
meter code. The machine spells each write's marker as a number in one of its number fields, so a
reader still tells the record apart: a field the store never keeps and a removal the listing
misses are each found on the tool whose law broke, confirmed on a fresh server; the twin draws no
finding of the machine, and none at medium or high confidence at all.
"""

from __future__ import annotations

import pytest

from helpers import LawsAlone, machine_finding
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.stateful.watch import NUMBERED

FOUND = [("peak-dropped", "log_reading", "probe-value-changed"),
         ("forget-listed", "forget_reading", "probe-delete-kept")]
STORE = LawsAlone("tests/servers/meter_log.py", deletes=True)
meters, run = STORE.command, STORE.run


def test_the_twin_draws_no_medium_or_high_finding() -> None:
    STORE.assert_twin_clean()


@pytest.mark.parametrize(("bug", "tool", "rule"), FOUND)
def test_a_record_of_numbers_is_found_by_its_marker_number(bug: str, tool: str, rule: str) -> None:
    result = machine_finding(run(bug), tool, rule)
    assert result.reproduction is not None and result.reproduction.fresh_server
    written = result.reproduction.calls[0].arguments
    numbers = [v for v in written.values() if isinstance(v, int | float) and not isinstance(v, bool)
               and NUMBERED <= v < 10 * NUMBERED]
    assert numbers, written  # the record's only mark is its marker's number
    assert replay(result, parse_target(meters(bug))).still_fails
    assert not replay(result, parse_target(meters(None))).still_fails
