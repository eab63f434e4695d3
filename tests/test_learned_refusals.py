"""A refusal shape calibration learns is read as a refusal by every check, not only the probes
(tests/servers/refusal_fields.py).

The desk store refuses with {"state": "denied", ...} and isError false, a shape no fixed rule knows.
With --allow-writes, calibration runs before the searches, so the searches read those answers as
refusals (error-as-success, resting on the calibration's fact), the probes draw no sure finding,
and a replay reads the answers as the run did. Without --allow-writes the reads of labels nobody
wrote learn the same shape (checks/missing_reads.py). The requests store's answers carry
`"state": "denied"` as data and its refusals set isError: nothing is learned there, and nothing is
misread.
"""

from __future__ import annotations

from helpers import ROOT, SERVE, engine, grading, results, summary
from hypothesis_mcp.connection import LearnedRefusal, Outcome, parse_target
from hypothesis_mcp.model.refusals import learned_shape, text_template
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Result
from hypothesis_mcp.rules.answers import claimed_record

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


def where(result: Result) -> set[str]:
    return {w["tool"] for w in result.details["where"]}


def test_the_searches_read_the_learned_shape_as_a_refusal() -> None:
    [result] = read_as_refusals(run("desk", True))
    assert where(result) == {"PutSecret", "ReadSecret"}, summary(run("desk", True))
    facts = result.details["rests_on"]
    assert [f["evidence"] for f in facts] == ["shown"], facts
    assert "'state' is \"denied\"" in facts[0]["what"]
    assert result.reproduction is not None and result.reproduction.refusals == [("state", "denied")]


def test_a_correct_store_with_json_refusals_draws_no_sure_probe_finding() -> None:
    sure = [r for r in results(run("desk", True), kind="probe") if r.status in ("fail", "warn")
            and r.confidence in ("high", "medium")]
    assert not sure, [(r.tool, r.rule, r.confidence, r.message) for r in sure]


def test_a_replay_reads_the_answers_by_the_learned_shape() -> None:
    [result] = read_as_refusals(run("desk", True))
    done = replay(result, parse_target([*SERVE, str(ROOT / "tests/servers/refusal_fields.py"), "--store", "desk"]))
    answer = done.steps[-1][1]
    assert answer.error_shaped and answer.failure is not None and LEARNED in answer.failure, answer.summary()
    assert done.still_fails, done.verdict


def test_without_writes_the_reads_learn_it() -> None:
    """Two reads of labels nobody wrote answer {"state": "denied"} and the listing {"state": "listed"}:
    the shape is learned read-only, from the reads, and both tools' refusals read by it."""
    [found] = read_as_refusals(run("desk", False))
    assert where(found) == {"PutSecret", "ReadSecret"}, summary(run("desk", False))
    [fact] = found.details["rests_on"]
    assert fact["evidence"] == "shown" and "reads of ids nobody wrote" in fact["what"], fact
    assert [c["tool"] for c in fact["calls"]] == ["ReadSecret", "ReadSecret", "ListSecrets"], fact


def test_data_that_looks_like_the_shape_is_not_misread() -> None:
    report = run("requests", True)
    assert not results(report, rule="error-as-success"), [r.message for r in results(report, rule="error-as-success")]
    assert not any(r.reproduction.refusals for r in report.results if r.reproduction is not None)
    sure = [r for r in results(report, kind="probe") if r.status in ("fail", "warn")
            and r.confidence in ("high", "medium")]
    assert not sure, [(r.tool, r.rule, r.confidence, r.message) for r in sure]


def answer(text: str, refusals: tuple[LearnedRefusal, ...] = ()) -> Outcome:
    return Outcome.from_result({"content": [{"type": "text", "text": text}]}, 0.0, refusals=refusals)


def test_a_not_found_sentence_is_learned_only_when_it_names_the_id() -> None:
    asked = [(v, answer(f"No book with ISBN '{v}' is on the shelf.")) for v in ("hm1-missing", "hm2-missing")]
    shape = text_template(asked)
    assert shape is not None
    assert not answer("No book with ISBN 'any\nid' is on the shelf.", (shape,)).ok
    assert answer('{"isbn": "1", "title": "error log"}', (shape,)).ok
    assert answer("No book with ISBN '1' is on the shelf. Try another.", (shape,)).ok
    assert text_template([(v, answer("No results.")) for v in ("hm1", "hm2")]) is None  # any empty answer's text
    assert text_template([(v, answer(v)) for v in ("hm1", "hm2")]) is None  # an echo
    assert text_template([(v, answer(f'{{"id": "{v}"}}')) for v in ("hm1", "hm2")]) is None  # JSON
    assert text_template([("hm1", answer("Book hm1 not here")), ("hm2", answer("Nothing for hm2"))]) is None
    # The sample server's get_note: "No note titled '…'." beside {"found": false, "note": null}, an empty answer.
    lookups = [(v, Outcome.from_result({"content": [{"type": "text", "text": f"No note titled '{v}'."}],
                                        "structuredContent": {"found": False, "note": None}}, 0.0)) for v in ("a", "b")]
    assert text_template(lookups) is None


def test_a_flag_is_learned_from_one_reader_only_when_shown_both_ways_or_a_known_word() -> None:
    failed = [("getItem", answer('{"ok": false, "error": "item_not_found", "meta": {"api": 2}}'))] * 2
    assert failed[0][1].ok  # the extra member makes it data to the fixed rules
    listed = answer('{"ok": true, "items": [], "meta": {"api": 2}}')
    assert learned_shape(failed, [listed]) == LearnedRefusal("ok", False)
    blank = [("get", answer(f'{{"handle": "hm{n}", "followers": 0, "state": "new"}}')) for n in (1, 2)]
    assert learned_shape(blank, [answer('{"followers": 5, "total": 1}')]) is None  # a number is no flag
    assert learned_shape(blank, [answer('{"profiles": []}')]) is None  # one tool, nothing flips
    assert learned_shape(failed[:1], [answer('{"ok": true}')]) is None  # one answer proves nothing
    # A reader's empty last page beside a listing's full one: a boolean set both ways is no refusal.
    pages = [("find", answer('{"items": [], "has_more": false}'))] * 2
    assert learned_shape(pages, [answer('{"items": [{"id": 1}], "has_more": true}')]) is None


def test_a_made_up_record_is_told_from_an_empty_answer() -> None:
    assert claimed_record({"handle": "hm1", "displayName": "", "bio": "", "followers": 0}, ["hm1"])
    assert claimed_record({"result": {"handle": "hm1", "bio": "", "followers": 0}}, ["hm1"])
    assert claimed_record([{"id": 900000001, "title": "", "done": False}], ["900000001"])
    for empty in (None, [], {}, {"result": None}, {"items": []}, {"id": "hm1", "found": False},
                  {"title": "", "body": "", "done": False}):
        assert claimed_record(empty, ["hm1"]) is None, empty
