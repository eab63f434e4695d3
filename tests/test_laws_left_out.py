"""Law 3 on a field a store accepts and never keeps (stateful/laws/machine.py `unshown`):
tests/servers/kiln_log.py logs firings under tickets it makes and answers a write with the ticket
alone; its bug accepts `glazed` and drops it, so no reader ever shows the field. A keyed read of the
record shows every other value written and leaves `glazed` out: `probe-value-changed` on the write,
low (that the argument is a field of the record is the schema's word), replayed from a fresh
server on the buggy store and not on its twin, which draws no finding of the machine."""

from __future__ import annotations

from helpers import LawsAlone, machine_finding, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay

BUG = "glaze-forgotten"
STORE = LawsAlone("tests/servers/kiln_log.py")
kiln, run = STORE.command, STORE.run


def test_the_field_never_kept_is_found_on_the_write_and_replays_only_on_the_buggy_store() -> None:
    result = machine_finding(run(BUG), "fire", "probe-value-changed")
    assert result.details["field"] == "glazed" and result.details["written"] is True
    assert result.confidence == "low"
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert [c.tool for c in result.reproduction.calls] == ["fire", "firing"]
    assert replay(result, parse_target(kiln(BUG))).still_fails
    assert not replay(result, parse_target(kiln(None))).still_fails


def test_the_twin_draws_no_finding_of_the_machine() -> None:
    found = machine_findings(run(None))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
