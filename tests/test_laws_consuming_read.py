"""A read that takes its record away (tests/servers/read_effects.py `--store crate --bug`: crate.read
pops the note, and nothing but its verb says it reads), by the laws machine alone.

The experiments show crate.read removing records; the machine judges its calls as reads by that
verb. The count, which counts right, then stands one below the example's number after a read. A
fresh replay without the read keeps the count, so the breach is the read's (law 1), low: only a
verb says the tool reads. Before, the count was blamed at high confidence. The twin, whose read
leaves the note, draws no finding."""

from __future__ import annotations

from helpers import StoreAlone, machine_findings, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay

CRATE = StoreAlone("tests/servers/read_effects.py", "crate")
crate, run = CRATE.command, CRATE.run


def test_the_read_is_blamed_low_and_the_count_is_not() -> None:
    found = machine_findings(run(True))
    assert not [r for r in found if r.rule == "probe-count-wrong"], [(r.tool, r.rule, r.confidence) for r in found]
    reads = [r for r in found if (r.tool, r.rule) == ("crate.read", "probe-read-changed-state")]
    assert reads, [(r.tool, r.rule, r.confidence, r.message) for r in found]
    for finding in reads:
        assert finding.confidence == "low"
        assert any(f["evidence"] == "guessed" and "crate.read changes nothing" in f["what"]
                   for f in finding.details["rests_on"]), finding.details["rests_on"]
        assert finding.reproduction is not None and finding.reproduction.fresh_server
        assert replay(finding, parse_target(crate(True))).still_fails
        assert not replay(finding, parse_target(crate(False))).still_fails


def test_the_twin_draws_no_probe_finding() -> None:
    found = [r for r in results(run(False), kind="probe") if r.status in ("fail", "warn")]
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
