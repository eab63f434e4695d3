"""A refusal shape calibration learns is read as a refusal by every check, not only the probes
(tests/servers/refusal_fields.py).

The desk store refuses with {"state": "denied", ...} and isError false, a shape no fixed rule knows.
With --allow-writes, calibration runs before the searches, so the searches read those answers as
refusals (error-as-success, resting on the calibration's fact), the probes draw no sure finding,
and a replay reads the answers as the run did. Without --allow-writes nothing is learned and the
answers stay successes. The requests store's answers carry `"state": "denied"` as data and its
refusals set isError: nothing is learned there, and nothing is misread.
"""

from __future__ import annotations

from helpers import ROOT, SERVE, engine, grading, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Result

LEARNED = "as in the refusals calibration saw"
_reports: dict[tuple[str, bool], Report] = {}


def run(store: str, writes: bool) -> Report:
    if (store, writes) not in _reports:
        _reports[store, writes] = engine(
            [*SERVE, str(ROOT / "tests/servers/refusal_fields.py"), "--store", store], grading(),
            probes=True, allow_writes=writes, smoke=True)
    return _reports[store, writes]


def read_as_refusals(report: Report) -> list[Result]:
    return [r for r in results(report, rule="error-as-success") if LEARNED in r.message]


def test_the_searches_read_the_learned_shape_as_a_refusal() -> None:
    found = {r.tool: r for r in read_as_refusals(run("desk", True))}
    assert set(found) == {"PutSecret", "ReadSecret"}, [(r.tool, r.rule, r.message) for r in run("desk", True).results]
    for result in found.values():
        facts = result.details["rests_on"]
        assert [f["evidence"] for f in facts] == ["shown"], facts
        assert "'state' is \"denied\"" in facts[0]["what"]
        assert result.reproduction is not None and result.reproduction.refusals == [("state", "denied")]


def test_a_correct_store_with_json_refusals_draws_no_sure_probe_finding() -> None:
    sure = [r for r in results(run("desk", True), kind="probe") if r.status in ("fail", "warn")
            and r.confidence in ("high", "medium")]
    assert not sure, [(r.tool, r.rule, r.confidence, r.message) for r in sure]


def test_a_replay_reads_the_answers_by_the_learned_shape() -> None:
    result = next(r for r in read_as_refusals(run("desk", True)) if r.tool == "ReadSecret")
    done = replay(result, parse_target([*SERVE, str(ROOT / "tests/servers/refusal_fields.py"), "--store", "desk"]))
    answer = done.steps[-1][1]
    assert answer.error_shaped and answer.failure is not None and LEARNED in answer.failure, answer.summary()
    assert done.still_fails, done.verdict


def test_without_writes_nothing_is_learned() -> None:
    assert not read_as_refusals(run("desk", False))


def test_data_that_looks_like_the_shape_is_not_misread() -> None:
    report = run("requests", True)
    assert not results(report, rule="error-as-success"), [r.message for r in results(report, rule="error-as-success")]
    assert not any(r.reproduction.refusals for r in report.results if r.reproduction is not None)
    sure = [r for r in results(report, kind="probe") if r.status in ("fail", "warn")
            and r.confidence in ("high", "medium")]
    assert not sure, [(r.tool, r.rule, r.confidence, r.message) for r in sure]
