"""A round of the laws machine that Hypothesis ends early does not end the machine.

The machine's draws follow what the warm server answered, so Hypothesis may find a start it knows
drawing otherwise and stop the round with `FlakyStrategyDefinition`. Here the first round is made to
stop so before any step, on tests/servers/read_effects.py `--store crate --bug` (a read that takes its
note away): the next round still runs, finds the read, and the report says the round ended early.
Before, a round that ended so with nothing seen ended the machine: no finding at all."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis.errors import FlakyStrategyDefinition

from helpers import StoreAlone, engine, grading, machine_findings
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.laws import probe

CRATE = StoreAlone("tests/servers/read_effects.py", "crate")


def test_the_next_round_runs_after_one_hypothesis_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    rounds: list[int] = []
    real = probe.run_state_machine_as_test

    def first_cut(machine: Any, settings: Any) -> None:
        rounds.append(len(rounds))
        if len(rounds) == 1:
            raise FlakyStrategyDefinition("inconsistent data generation")
        real(machine, settings=settings)

    monkeypatch.setattr(probe, "run_state_machine_as_test", first_cut)
    report = engine(CRATE.command(True), grading(), probes=True, allow_writes=True,
                    probe_config=ProbeConfig(laws="only"))
    assert len(rounds) > 1
    found = [(r.tool, r.rule) for r in machine_findings(report)]
    assert ("crate.read", "probe-read-changed-state") in found, found
    assert any(re.match(r"laws machine: round 1(,| of) .*ended early", note) for note in report.notes), report.notes
