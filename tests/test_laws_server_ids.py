"""The laws machine on records that only a server-made id tells apart (stateful/laws/machine.py
`own_id`): tests/servers/bin_registry.py registers bins of a small capacity, a material and a flag,
none of which a marker or its number fits, under references `bin-N` the registry hands out. The
machine judges each bin by the reference its write answered: a removal the listing misses is found
on the removing tool and confirmed on a fresh server, where the reference is the fresh one; the twin,
whose references `bin-1` ... `bin-12` hold one another as prefixes, draws no finding of the machine.
"""

from __future__ import annotations

from helpers import ROOT, SERVE, engine, grading, machine_finding, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.strategies.markers import MARKER

_reports: dict[str | None, Report] = {}


def bins(bug: str | None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/bin_registry.py"), *(["--bug", bug] if bug else [])]


def run(bug: str | None) -> Report:
    """One grading run per server, the laws machine alone (its budget is per server)."""
    if bug not in _reports:
        _reports[bug] = engine(bins(bug), grading(max_examples=5), probes=True, allow_writes=True,
                               allow_deletes=True, probe_config=ProbeConfig(laws="only"))
    return _reports[bug]


def test_the_twin_draws_no_finding_of_the_machine() -> None:
    assert not machine_findings(run(None)), [(r.tool, r.rule, r.message) for r in machine_findings(run(None))]


def test_a_removal_the_listing_misses_is_found_by_the_server_made_reference() -> None:
    result = machine_finding(run("listed-after-retire"), "retire_bin", "probe-delete-kept")
    assert result.reproduction is not None and result.reproduction.fresh_server
    written = result.reproduction.calls[0]
    assert written.tool == "add_bin" and not MARKER.search(str(written.arguments))  # no marker to look for
    assert replay(result, parse_target(bins("listed-after-retire"))).still_fails
    assert not replay(result, parse_target(bins(None))).still_fails
