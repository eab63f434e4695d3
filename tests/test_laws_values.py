"""The laws machine draws values at a store's edges and judges every field of a text answer's records:
a generated store (../shared/storegen, seed 2) that answers in `name: value` lines and trims the
surrounding whitespace of one text field is found by the law it breaks (a value read back otherwise
than written) on its create tool, the reproduction replays from a fresh server on the buggy store and
not on its twin, and the twin, which keeps every value as written, draws no finding of the machine."""

from __future__ import annotations

import pytest

from helpers import engine, grading, machine_finding, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report
from hypothesis_mcp.stateful.config import ProbeConfig
from storegen_truth import SKIP_REASON, command, describe, storegen_dir

pytestmark = pytest.mark.skipif(storegen_dir() is None, reason=SKIP_REASON)

SEED, BUG = 2, ("--bug", "value-mangled")
_reports: dict[bool, Report] = {}


def run(twin: bool) -> Report:
    if twin not in _reports:
        _reports[twin] = engine(command(SEED, flags=(*BUG, *(("--correct",) if twin else ()))), grading(),
                                probes=True, allow_writes=True, allow_deletes=True,
                                probe_config=ProbeConfig(laws=True))
    return _reports[twin]


def test_the_trimmed_field_is_found_on_the_create_and_replays_only_on_the_buggy_store() -> None:
    bug = describe(SEED, BUG)["bug"]
    assert bug["variant"] == "trim"
    creator = bug["tools"][0]
    result = machine_finding(run(False), creator, "probe-value-changed")
    assert result.details["field"] == bug["field"]
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert replay(result, parse_target(command(SEED, flags=BUG))).still_fails
    assert not replay(result, parse_target(command(SEED, flags=(*BUG, "--correct")))).still_fails


def test_the_twin_draws_no_finding_of_the_machine() -> None:
    found = machine_findings(run(True))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
