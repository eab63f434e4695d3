"""Law 8's prefix variant by the laws machine alone (`laws: only`): notes keyed by a path, where a save
whose path only starts with a stored one overwrites that note (tests/servers/identity_variants.py
`--bug prefix`). The machine writes the held path with one character more; the held note, asked for
by its own path, then shows the later write: `probe-identity-prefix` on the save, which replays from
a fresh server on the buggy store and not on its twin, with no call to spare. The twin, which keeps
the two paths apart, draws no finding of the machine."""

from __future__ import annotations

from dataclasses import replace

from helpers import ROOT, SERVE, engine, grading, machine_finding, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Reproduction
from hypothesis_mcp.stateful.config import ProbeConfig

_reports: dict[bool, Report] = {}


def notes(twin: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/identity_variants.py"), "--store", "notes",
            *(() if twin else ("--bug", "prefix"))]


def run(twin: bool) -> Report:
    if twin not in _reports:
        _reports[twin] = engine(notes(twin), grading(), probes=True, allow_writes=True,
                                probe_config=ProbeConfig(laws="only"))
    return _reports[twin]


def test_the_prefix_match_is_found_replays_and_no_call_can_go() -> None:
    result = machine_finding(run(False), "save_note", "probe-identity-prefix")
    assert result.confidence == "high" and result.status == "fail"
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert replay(result, parse_target(notes(False))).still_fails
    assert not replay(result, parse_target(notes(True))).still_fails
    calls = result.reproduction.calls
    for index in range(len(calls) - 1):
        shorter = Reproduction(calls[:index] + calls[index + 1:], fresh_server=True)
        assert not replay(replace(result, reproduction=shorter), parse_target(notes(False))).still_fails, (
            index, calls)


def test_the_twin_draws_no_finding_of_the_machine() -> None:
    found = machine_findings(run(True))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
