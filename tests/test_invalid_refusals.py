"""Refusal shapes learned from the answers to invalid arguments, by contrast with the answers to
valid ones (checks/invalid_answers.py, model.refusals.tool_shapes; tests/servers/locker_desk.py).

The locker desk has no keyed reader, so no read of an id nobody wrote shows its refusal shape, and
its plainest valid top-up is refused in that shape too. Its bugs refuse with isError false, in a
JSON flag (`{"accepted": false, ...}`) or a sentence (`Request declined: ...`): learned from the
invalid answers, the duplicate rental the probes send is read as refused (not as a stored write no
reader shows) and the invalid calls as refused (not as accepted), so each bug draws exactly one
low-confidence `error-as-success`, and the twin that sets isError nothing. One grading run each.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from helpers import ROOT, SERVE, engine, grading, problems, summary
from hypothesis_mcp.connection import LearnedRefusal, Outcome, parse_target
from hypothesis_mcp.connection.failure import TEXT, WILDCARD
from hypothesis_mcp.model.refusals import learned_shape, tool_shapes
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report

Run = Callable[[str | None], Report]
SHAPES = {"flag": ("'accepted' member is \"false\"", LearnedRefusal("accepted", False)),
          "sentence": ("text reads \"Request declined:\u2026\"", LearnedRefusal(TEXT, "Request declined:" + WILDCARD))}


def desk(bug: str | None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/locker_desk.py"), *(["--bug", bug] if bug else [])]


@pytest.fixture(scope="module")
def run() -> Run:
    made: dict[str | None, Report] = {}

    def get(bug: str | None) -> Report:
        if bug not in made:
            made[bug] = engine(desk(bug), grading(), probes=True, allow_writes=True, smoke=True)
        return made[bug]

    return get


@pytest.mark.parametrize("bug", sorted(SHAPES))
def test_a_shape_only_invalid_arguments_show_is_learned_and_read_everywhere(run: Run, bug: str) -> None:
    report = run(bug)
    [found] = problems(report)
    assert (found.rule, found.tool, found.status, found.confidence) == ("error-as-success", None, "warn", "low"), \
        summary(report)
    said, shape = SHAPES[bug]
    assert said in found.message
    assert {w["tool"] for w in found.details["where"]} >= {"rentLocker", "topUp"}, found.details["where"]
    [fact] = found.details["rests_on"]
    assert "schema-invalid arguments" in fact["what"] and fact["evidence"] == "shown", fact
    assert found.reproduction is not None and found.reproduction.refusals == [(shape.member, shape.value)]
    # The invalid calls were refused, the refused duplicate rental was no lost write: only the style costs.
    assert report.subscores["edge"] == 100.0 and report.subscores["effect"] == 100.0, summary(report)
    assert replay(found, parse_target(desk(bug))).still_fails
    assert not replay(found, parse_target(desk(None))).still_fails


def test_the_twin_that_sets_iserror_draws_nothing(run: Run) -> None:
    report = run(None)
    assert problems(report) == [], summary(report)
    assert report.grade == "A"


def answer(text: str, structured: object = None) -> Outcome:
    raw: dict[str, object] = {"content": [{"type": "text", "text": text}]}
    if structured is not None:
        raw["structuredContent"] = structured
    return Outcome.from_result(raw, 0.0)


def test_what_the_contrast_learns_and_what_it_does_not() -> None:
    listing = ("list", answer('{"items": [{"id": 1}], "has_more": true}'))
    # Two lax searches answer every invalid call with the same empty last page: no refusal said what was wrong.
    pages = [(tool, answer('{"items": [], "has_more": false}')) for tool in ("find", "search") for _ in (1, 2)]
    assert tool_shapes(pages, [listing]) == []
    # One tool's boolean is no flag; two tools that each name what was wrong agree on one.
    refused = [(tool, answer(f'{{"accepted": false, "note": "{why}"}}')) for tool in ("rent", "roster")
               for why in ("bad locker", "bad row")]
    assert tool_shapes(refused[:2], [listing]) == []
    assert tool_shapes(refused, [listing]) == [LearnedRefusal("accepted", False)]
    # A valid call refused alike does not hide the shape, while another valid call answers otherwise.
    assert tool_shapes(refused, [("rent", refused[0][1]), ("roster", answer('{"lockers": []}'))]) \
        == [LearnedRefusal("accepted", False)]
    assert tool_shapes(refused, [("rent", refused[0][1])]) == []
    # Of two members both tools carry, the verdict, not the envelope's version number.
    versioned = [(tool, answer(f'{{"v": 2, "verdict": "refused", "why": "{why}"}}')) for tool, _ in refused
                 for why in ("x",)] + [("rent", answer('{"v": 2, "verdict": "refused", "why": "y"}'))]
    assert tool_shapes(versioned, [listing]) == [LearnedRefusal("verdict", "refused")]
    # A tool that accepts invalid input answers as for valid calls: it hides nothing the others show.
    lax = [("ping", answer('{"accepted": true, "pong": 1}'))] * 2
    assert tool_shapes([*refused, *lax], [listing]) == [LearnedRefusal("accepted", False)]
    # Sentences: two tools, an opening no success has, the rest naming what was wrong.
    said = [(tool, answer(f"Request declined: {why}")) for tool in ("rent", "roster") for why in ("a", "b")]
    assert tool_shapes(said, [("rent", answer("Locker A01 rented."))]) == [LearnedRefusal(TEXT, "Request declined:"
                                                                                          + WILDCARD)]
    assert tool_shapes(said[:2], [listing]) == []  # one tool: a lax search's "No results." reads alike
    assert tool_shapes([(t, answer("No results.")) for t, _ in said], [listing]) == []


def test_a_text_of_name_value_lines_is_read_as_the_object_it_spells() -> None:
    # The fixed rules read such a text as the JSON object it spells: framing alone is a refusal, a record is data.
    duplicate = answer('success: false\nreason: an entry with slug "00" already exists')
    assert not duplicate.ok and not answer("ok: false\nerror: public photos cannot have a summary").ok
    assert answer("ref: BB-1\nstatus: failed").ok and answer("total: 0").ok
    assert answer("slug: 00\ntext: success: false").ok
    # A member of the server's own is learned from such texts as from JSON, and read in them.
    missing = [("readSecret", answer(f'state: denied\ndetail: no secret "{s}"')) for s in ("a", "b")]
    shape = learned_shape(missing, [answer("state: stored\nlabel: x")])
    assert shape == LearnedRefusal("state", "denied")
    assert shape.claim(answer("state: denied\ndetail: label taken").content, None, False) is not None
    assert shape.claim(answer("label: x\nnote: state: denied").content, None, False) is None
