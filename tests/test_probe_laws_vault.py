"""Laws 6 to 9 of the laws machine (stateful/laws/: series.py, covering.py, folding.py,
references.py) on tests/servers/seed_vault.py: a vault that drops its oldest packet past six, one
that folds codes by case and spaces (losing the first packet, or in plain sight), one whose cursor
skips a packet at each page boundary, one whose packet keeps showing a withdrawn parent, and the
correct twin.

Each law is found on the tool it names, confirmed on a fresh server; its reproduction replays on
the buggy vault and not on the twin, and no call of it can go. The twin draws no finding of the
machine, and none at medium or high confidence at all.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from helpers import ROOT, SERVE, engine, grading, machine_finding, machine_findings, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Reproduction, Result
from hypothesis_mcp.stateful.config import ProbeConfig

FOUND = [("evicts", "bank", "probe-data-lost", "high"), ("fold", "bank", "probe-identity-folded", "high"),
         ("merge", "bank", "probe-identity-folded", "medium"), ("pages", "vault", "probe-pages-skip", "high"),
         ("dangle", "withdraw", "probe-reference-dangling", "high")]
"""Each bug, the tool and rule of its law, and how sure: a fold that loses nothing is a warning."""
KEPT = {"pages": "vault", "dangle": "withdraw"}
"""Calls a replay without them may still fail for want of them: a page's cursor comes from the page
before, and a read after no removal shows the named record, as it should (so does the twin's)."""
_reports: dict[str | None, Report] = {}


def vault(bug: str | None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/seed_vault.py"), *(["--bug", bug] if bug else [])]


def run(bug: str | None) -> Report:
    """One grading run per vault for the module (few random examples: the laws machine keeps its own
    budget, per server)."""
    if bug not in _reports:
        _reports[bug] = engine(vault(bug), grading(max_examples=5), probes=True, allow_writes=True,
                               allow_deletes=True, probe_config=ProbeConfig(laws=True))
    return _reports[bug]


def finding(bug: str, tool: str, rule: str) -> Result:
    return machine_finding(run(bug), tool, rule)


def test_the_twin_draws_no_medium_or_high_finding() -> None:
    found = [r for r in results(run(None)) if r.status in ("fail", "warn") and r.kind != "lint"
             and r.confidence in ("high", "medium")]
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
    assert not machine_findings(run(None))


@pytest.mark.parametrize(("bug", "tool", "rule", "confidence"), FOUND)
def test_each_law_is_found_and_replays_from_a_fresh_server(bug: str, tool: str, rule: str, confidence: str) -> None:
    result = finding(bug, tool, rule)
    assert (result.confidence, result.status) == (confidence, "fail" if confidence == "high" else "warn")
    assert all(f["evidence"] == "shown" for f in result.details["rests_on"]), result.details["rests_on"]
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert replay(result, parse_target(vault(bug))).still_fails
    assert not replay(result, parse_target(vault(None))).still_fails


@pytest.mark.parametrize(("bug", "tool", "rule", "confidence"), FOUND)
def test_no_call_of_the_reproduction_can_go(bug: str, tool: str, rule: str, confidence: str) -> None:
    """Without any one call but the judged read (and those of KEPT), a fresh replay passes."""
    result = finding(bug, tool, rule)
    assert result.reproduction is not None
    calls = result.reproduction.calls
    target = parse_target(vault(bug))
    for index in range(len(calls) - 1):
        if calls[index].tool == KEPT.get(bug):
            continue
        shorter = Reproduction(calls[:index] + calls[index + 1:], fresh_server=True)
        assert not replay(replace(result, reproduction=shorter), target).still_fails, (index, calls)


def test_a_law_names_where_it_broke() -> None:
    """Law 6 says how long the series was; law 8 that the first record's data was lost; law 9 that
    the removed record's own read shows it gone (the contradiction that makes it a failure)."""
    assert "writes of bank in a row" in finding("evicts", "bank", "probe-data-lost").message
    assert "data was lost" in finding("fold", "bank", "probe-identity-folded").message
    assert "shows it gone" in finding("dangle", "withdraw", "probe-reference-dangling").message


def test_a_loss_seen_again_ends_its_example_and_the_machine_runs_to_its_end() -> None:
    """The fold loses the first packet in most examples; once confirmed, a loss seen again ends its
    example as an invalid one. Before, the example was left with no rule to run: Hypothesis took that
    for an error of the machine, shrank it on the warm server and the run ended inconclusive."""
    stopped = [r.message for r in results(run("fold"), check="laws", status="inconclusive")]
    assert not stopped, stopped
