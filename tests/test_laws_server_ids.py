"""The laws machine on records that only a server-made id tells apart (stateful/laws/machine.py
`own_id`): tests/servers/bin_registry.py registers bins of a small capacity, a material and a flag,
none of which a marker or its number fits, under references `bin-N` the registry hands out. The
machine judges each bin by the reference its write answered: a removal the listing misses is found
on the removing tool and confirmed on a fresh server, where the reference is the fresh one; the twin,
whose references `bin-1` ... `bin-12` hold one another as prefixes, draws no finding of the machine.
"""

from __future__ import annotations

from helpers import LawsAlone, machine_finding, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.strategies.markers import MARKER

STORE = LawsAlone("tests/servers/bin_registry.py", deletes=True)
bins, run = STORE.command, STORE.run


def test_the_twin_draws_no_finding_of_the_machine() -> None:
    assert not machine_findings(run(None)), [(r.tool, r.rule, r.message) for r in machine_findings(run(None))]


def test_a_removal_the_listing_misses_is_found_by_the_server_made_reference() -> None:
    result = machine_finding(run("listed-after-retire"), "retire_bin", "probe-delete-kept")
    assert result.reproduction is not None and result.reproduction.fresh_server
    written = result.reproduction.calls[0]
    assert written.tool == "add_bin" and not MARKER.search(str(written.arguments))  # no marker to look for
    assert replay(result, parse_target(bins("listed-after-retire"))).still_fails
    assert not replay(result, parse_target(bins(None))).still_fails


def test_an_evicted_bin_is_found_by_its_reference_and_replays_through_the_cli() -> None:
    """A bin the registry dropped is judged by the reference its write answered; `hypothesis-mcp
    replay` swaps that reference for the one the fresh server answered, in the expectation too, so the
    write still shows what the read must show and the reproduction fails on the bug alone."""
    result = machine_finding(run("evicts-oldest"), "add_bin", "probe-data-lost")
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert not MARKER.search(str(result.details.get("expect")))  # the reference is all it looks for
    bug = replay(result, parse_target(bins("evicts-oldest")))
    assert bug.still_fails, bug.verdict
    assert not replay(result, parse_target(bins(None))).still_fails
