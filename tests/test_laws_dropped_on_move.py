"""Law 11 (a rename changes only the key) on a field the record loses outright, not one reset to a
value: tests/servers/dock_slots.py's `recode_berth` leaves the crane behind, so the berth under its
new code shows no crane member at all, where the same reader showed it before the move. The laws
machine finds it on the renaming tool, confirmed on a fresh server; the twin draws no finding of the
machine.
"""

from __future__ import annotations

from helpers import LawsAlone, machine_finding, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay

STORE = LawsAlone("tests/servers/dock_slots.py", deletes=True)
dock, run = STORE.command, STORE.run


def test_the_twin_draws_no_finding_of_the_machine() -> None:
    assert not machine_findings(run(None)), [(r.tool, r.rule, r.message) for r in machine_findings(run(None))]


def test_a_field_left_out_after_a_move_is_a_rename_that_lost_it() -> None:
    result = machine_finding(run("recode-drops-crane"), "recode_berth", "probe-rename-lost-fields")
    assert result.details.get("field") == "crane", result.details
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert any(c.tool == "recode_berth" for c in result.reproduction.calls)
    assert replay(result, parse_target(dock("recode-drops-crane"))).still_fails
    assert not replay(result, parse_target(dock(None))).still_fails
