"""`--workers N` runs tools' checks on separate server processes and changes no result."""

from __future__ import annotations

import json

from helpers import engine, grading, sample
from hypothesis_mcp.results import Report


def _outcome(report: Report) -> str:
    data = report.to_dict()
    return json.dumps({k: data[k] for k in ("results", "smoke", "score", "grade", "subscores", "grade_cap")},
                      sort_keys=True)


def test_two_workers_give_the_results_of_one() -> None:
    """The grading profile on a server with an effect bug: findings, shrinking and fresh replays
    included, two lanes produce the same results in the same order, and the same score."""
    runs = {w: engine(sample("silent-skip"), grading(6), smoke=True, call_all=True, probes=True,
                      allow_writes=True, workers=w) for w in (1, 2)}
    assert any(r.rule == "probe-silent-noop" for r in runs[1].results)
    assert _outcome(runs[2]) == _outcome(runs[1])
    assert runs[2].stats.calls == runs[1].stats.calls
