"""Renames, moves and updates addressed by an identity the user chose keep the record
(tests/servers/rename_stores.py): a rename that leaves the note under its old title too, or drops
its tags; a move that leaves the item in its old slot too, or loses its owner; an update through
the note's title or the item's slot that changes nothing, or loses a field it did not touch. The
updaters carry no id-named field and no update verb: their round trips refuse every generated
value, and an update of a record created first shows which text addresses it. The stores differ
in tool names (snake and dotted), identity fields (`title`, `slot` whose mover calls it `source`),
readers (a keyed get answering structured content, a text listing only) and refusals (isError, an
"error: ..." text answered as success).

Three runs with no probe config: the correct twin under the grading profile, and two runs that
each switch on one bug of each store's mover and one of its updater, with two examples per effect
machine (helpers.hunting). Every bug is found, high on facts its reproduction shows (an update
that changes nothing rests on a guess of its role: medium), replays on its buggy server and not on
the twin, and loses its failure without any one of its calls. The twin draws no finding, and a
tool that says it copies (clone_draft) is never judged for leaving the old record.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from helpers import ROOT, SERVE, engine, grading, hunting, results
from hypothesis_mcp.connection import Outcome, parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Reproduction, Result
from hypothesis_mcp.rules.expectations import Moved

RUNS = {"twin": (), "a": ("copy", "lose-owner", "amend-noop", "relabel-drops-owner"),
        "b": ("drop-tags", "keep-source", "amend-drops-tags", "relabel-noop")}
FOUND = [("a", "shelf.relocate", "probe-rename-lost-fields"), ("b", "rename_note", "probe-rename-lost-fields"),
         ("a", "shelf.relabel", "probe-data-lost"), ("b", "amend_note", "probe-data-lost")]
ROLE_GUESSED = {("a", "amend_note", "probe-silent-noop"): "amend_note replaces the record's body with the values "
                "it is given",
                ("b", "shelf.relabel", "probe-silent-noop"): "shelf.relabel replaces the record's label with the "
                "values it is given"}
"""amend-noop and relabel-noop change nothing: no call of the run sees the updater change a record, so
that it changes records and that its body (label) parameter replaces the record's body (label) are
guesses from its schema's shape (the same named and blind: amend_note's description "Replaces the
body…" is words), and a silent no-op resting on them is a medium warning. amend-drops-tags and
relabel-drops-owner show their new values: high losses."""
GUESSED = {("a", "rename_note", "probe-rename-left-old"): "rename_note moves the record rather than copying it",
           ("b", "shelf.relocate", "probe-rename-left-old"): "shelf.relocate moves the record rather than copying it"}
"""Findings that rest on a guess of words, each a low warning that says which: that a rename moves the
record rather than copying it (so the old one must go) is only its words."""
MOVERS = ("rename_note", "shelf.relocate", "clone_draft")
_reports: dict[str, Report] = {}


def server(name: str) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/rename_stores.py"), *(a for b in RUNS[name] for a in ("--bug", b))]


def run(name: str) -> Report:
    if name not in _reports:
        _reports[name] = engine(server(name), grading() if name == "twin" else hunting(), probes=True,
                                allow_writes=True)
    return _reports[name]


def finding(name: str, tool: str, rule: str) -> Result:
    report = run(name)
    found = [r for r in results(report, kind="probe", tool=tool, rule=rule) if r.status in ("fail", "warn")]
    assert found, [(r.tool, r.rule, r.status, r.message) for r in results(report, kind="probe")]
    return found[0]


def test_the_twin_draws_no_finding_and_every_mover_is_judged() -> None:
    report = run("twin")
    found = [r for r in results(report, kind="probe") if r.status in ("fail", "warn")]
    assert not found, [(r.tool, r.rule, r.message) for r in found]
    passed = {r.tool: r for r in results(report, kind="probe", check="renames") if r.status == "pass"}
    assert set(passed) == set(MOVERS), [(r.tool, r.status, r.message) for r in results(report, kind="probe")]
    assert "none under the old" in passed["rename_note"].message
    assert "not judged" in passed["clone_draft"].message
    kept = {r.tool: r for r in results(report, kind="probe", check="round-trip") if r.status == "pass"}
    for updater, creator in (("amend_note", "write_note"), ("shelf.relabel", "shelf.put")):
        assert f"of records {creator} created were shown" in kept[updater].message, kept.get(updater)


@pytest.mark.parametrize(("name", "tool", "rule"), [*FOUND, *ROLE_GUESSED, *GUESSED])
def test_each_bug_is_found_high_and_replays_on_its_server_only(name: str, tool: str, rule: str) -> None:
    """High on shown facts only; one that rests on a guess is a low warning (medium where the guess is
    only the tool's role) that says which."""
    result = finding(name, tool, rule)
    guessed = [f["what"] for f in result.details["rests_on"] if f["evidence"] != "shown"]
    if (name, tool, rule) in GUESSED:
        assert (result.status, result.confidence) == ("warn", "low")
        assert GUESSED[name, tool, rule] in guessed, guessed
    elif (name, tool, rule) in ROLE_GUESSED:
        assert (result.status, result.confidence) == ("warn", "medium")
        assert [what.split(":")[0] for what in guessed] == [f"{tool} changes records", ROLE_GUESSED[name, tool, rule]]
        assert f"no call of this run saw {tool} change anything" in result.message
    else:
        assert (result.status, result.confidence) == ("fail", "high")
        assert not guessed, result.details["rests_on"]
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert replay(result, parse_target(server(name))).still_fails
    assert not replay(result, parse_target(server("twin"))).still_fails


@pytest.mark.parametrize(("name", "tool", "rule"), [*FOUND, *ROLE_GUESSED, *GUESSED])
def test_no_call_of_the_reproduction_can_go(name: str, tool: str, rule: str) -> None:
    """The write, the move or update and the judged read; for fields a move lost also the read that
    showed them under the old identity before the move, the fact the finding rests on. Without any
    other call a replay passes; without the write or the move it cannot fail (nothing was written or
    moved), and an update of a record never written is refused."""
    result = finding(name, tool, rule)
    assert result.reproduction is not None
    calls = result.reproduction.calls
    write, reader = calls[0].tool, calls[-1].tool
    shape = [write, reader, tool, reader] if rule == "probe-rename-lost-fields" else [write, tool, reader]
    assert [c.tool for c in calls] == shape, calls
    target = parse_target(server(name))
    for index in (0, shape.index(tool)):
        shorter = Reproduction(calls[:index] + calls[index + 1:], fresh_server=True)
        assert not replay(replace(result, reproduction=shorter), target).still_fails, (index, calls)


def _text(text: str) -> Outcome:
    return Outcome(kind="result", content=[{"type": "text", "text": text}])


def test_a_moved_record_is_read_in_its_own_item_or_line() -> None:
    listing = _text("hm2-slot | hm1-label | \nhm9-slot | x | hm1-owner")
    carried = Moved("hm1-slot", "hm2-slot", ("hm1-label", "hm1-owner"), carried=True, whole=False)
    assert not carried.holds(listing), "the owner shown on another item's line is not the moved item's"
    assert carried.holds(_text("hm2-slot | hm1-label | hm1-owner"))
    left = Moved("hm1-slot", "hm2-slot", ("hm1-label",), carried=False, whole=False)
    assert not left.holds(_text("hm1-slot | hm1-label | o\nhm2-slot | hm1-label | o"))
    assert left.holds(_text('{"slot": "hm2-slot", "was": "hm1-slot", "label": "hm1-label"}'))
    assert left.holds(Outcome(kind="result", is_error=True, content=[{"type": "text", "text": "no hm1-slot"}]))
    assert not left.written_by([{"slot": "hm1-slot", "label": "hm1-label"}])
    assert left.written_by([{"slot": "hm1-slot", "label": "hm1-label"}, {"a": "hm1-slot", "b": "hm2-slot"}])
