"""Effect probes on stores named unlike the sample server (tests/servers/effect_variety.py).

Under the grading profile every bug is found with its rule, at high confidence, with a
reproduction that `replay` confirms on the buggy server and that passes on the correct twin; the
twin itself, every write tool probed, draws no probe finding at all. A buggy server has its other
write tools excluded: they are the twin's, and each probed tool costs a fresh server per example.
"""

from __future__ import annotations

import pytest

from helpers import effect_variety, engine, grading, one, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report
from hypothesis_mcp.stateful.config import ProbeConfig

FOUND = {
    "evict-5": ("doc_put", "probe-data-lost"),
    "evict-7": ("doc_put", "probe-data-lost"),
    "evict-9": ("doc_put", "probe-data-lost"),
    "skip-odd-chars": ("profile_upsert", "probe-silent-noop"),
    "clamp-points": ("score_set", "probe-value-changed"),
    "cut-text": ("note_save", "probe-value-changed"),
    "drop-tags": ("entry_add", "probe-value-changed"),
    "drop-fourth": ("item_write", "probe-write-not-observable"),
}
FAST = grading(max_examples=9)
"""The grading profile with three examples per write tool (the full profile, eight, finds the same)."""
_reports: dict[str | None, Report] = {}


WRITERS = ("doc_put", "profile_upsert", "score_set", "note_save", "entry_add", "item_write")


def _run(bug: str | None) -> Report:
    if bug not in _reports:
        others = [w for w in WRITERS if bug is not None and w != FOUND[bug][0]]
        _reports[bug] = engine(effect_variety(bug), FAST, probes=True, allow_writes=True,
                               probe_config=ProbeConfig(exclude=others))
    return _reports[bug]


def test_the_correct_twin_draws_no_probe_finding() -> None:
    report = _run(None)
    found = [r for r in results(report, kind="probe") if r.status in ("fail", "warn")]
    assert not found, [(r.tool, r.rule, r.message) for r in found]
    passed = {r.tool for r in results(report, kind="probe", check="round-trip", status="pass")}
    assert passed == set(WRITERS)


@pytest.mark.parametrize("bug", sorted(FOUND))
def test_each_bug_is_found_and_replayed(bug: str) -> None:
    tool, rule = FOUND[bug]
    finding = one(_run(bug), kind="probe", tool=tool, rule=rule, status="fail")
    assert finding.confidence == "high"
    assert finding.reproduction is not None
    done = replay(finding, parse_target(effect_variety(bug)))
    assert done.still_fails, f"{done.verdict}\n{[(c.tool, c.arguments) for c, _ in done.steps]}"
    twin = replay(finding, parse_target(effect_variety()))
    assert not twin.still_fails, f"{twin.verdict}\n{[(c.tool, c.arguments) for c, _ in twin.steps]}"
    others = [r for r in results(_run(bug), kind="probe") if r.status == "fail" and r.tool != tool]
    assert not others, [(r.tool, r.rule, r.message) for r in others]


def test_a_changed_value_shows_what_was_written_and_read() -> None:
    finding = one(_run("clamp-points"), kind="probe", tool="score_set", rule="probe-value-changed")
    assert finding.details["field"] == "points"
    assert finding.details["written"] > 1000 and finding.details["read"] == 1000
