"""The laws machine on updates whose creator requires only the key (stateful/laws/patching.py): the
update's schema leaves out the creator's defaults, so it is taken for a patch by guess, and a field
its call left out that changes is data lost, as sure as what showed it. tests/servers/trail_amends.py:
an amend that lands on a blank trail is a low warning (nothing tells it from a replace but the
schemas); one that loses only the tags while the record keeps the ranger it was not given is high
(the kept ranger shows the patch); a correct full replace whose schema says nothing draws at most
that low warning, and the correct patch draws nothing.
"""

from __future__ import annotations

from helpers import ROOT, SERVE, engine, fresh, grading, machine_finding, machine_findings, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Call, Report, Result
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.laws.confirm import confirmed
from hypothesis_mcp.stateful.laws.laws import field_breach

_reports: dict[tuple[str, bool], Report] = {}


def trails(store: str, bug: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/trail_amends.py"), "--store", store, *(["--bug"] if bug else [])]


def run(store: str, bug: bool) -> Report:
    """One grading run per server, the laws machine alone (its budget is per server)."""
    if (store, bug) not in _reports:
        _reports[store, bug] = engine(trails(store, bug), grading(max_examples=5), probes=True, allow_writes=True,
                                      allow_deletes=True, probe_config=ProbeConfig(laws="only"))
    return _reports[store, bug]


def evidence(result: Result) -> list[str]:
    return [f["evidence"] for f in (result.details or {}).get("rests_on", [])]


def serious(report: Report) -> list[tuple[str | None, str, str]]:
    return [(r.tool, r.rule, r.confidence) for r in results(report) if r.status in ("fail", "warn")
            and r.kind != "lint" and r.confidence in ("high", "medium")]


def replays_only_on_the_bug(result: Result, store: str) -> None:
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert replay(result, parse_target(trails(store, True))).still_fails
    assert not replay(result, parse_target(trails(store, False))).still_fails


def test_an_amend_that_resets_what_it_leaves_out_is_a_low_loss_resting_on_the_guess() -> None:
    result = machine_finding(run("amend", True), "amendTrail", "probe-data-lost")
    assert result.confidence == "low"
    assert "guessed" in evidence(result)
    replays_only_on_the_bug(result, "amend")


def test_an_amend_that_keeps_one_left_out_field_and_loses_another_is_a_high_loss() -> None:
    result = machine_finding(run("retag", True), "amendTrail", "probe-data-lost")
    assert result.confidence == "high"
    assert "guessed" not in evidence(result)
    assert any("keeps the fields its call leaves out" in f["what"] for f in result.details["rests_on"])
    assert result.details["field"] == "tags"
    replays_only_on_the_bug(result, "retag")


def test_the_correct_patch_draws_no_finding_of_the_machine() -> None:
    found = machine_findings(run("amend", False))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
    assert serious(run("amend", False)) == []


def test_a_correct_replace_that_does_not_say_so_draws_at_most_a_low_warning() -> None:
    report = run("recast", False)
    assert serious(report) == []
    assert all(r.confidence == "low" for r in machine_findings(report))


SLUG = "hm0feed001-trail"
CHART = Call("chartTrail", {"slug": SLUG, "ranger": "hm0feed001-ranger", "miles": 3.0})
AMENDS = (Call("amendTrail", {"slug": SLUG, "miles": 7.0}),
          Call("amendTrail", {"slug": SLUG, "ranger": "hm0feed002-ranger"}))
"""The trail charted at 3 miles, amended to 7, then amended naming only the ranger."""


def confirmed_loss(calls: list[Call]) -> list[Call]:
    """A hand-made breach on the blank-landing amend, after which the trail reads 0 miles where 7 was
    last written, confirmed on a fresh buggy server: its reproduction, which passes on the twin."""
    at = len(calls) - 1
    breach = field_breach("probe-data-lost", "amendTrail", "lookTrail", at, "hm0feed002-ranger",
                          ("miles", 7.0, 0.0, "high"), (), "amendTrail changed a field its call did not name",
                          (SLUG, "hm0feed002-ranger"))
    breach.pinned = (0, at - 1)
    found = confirmed(breach, calls, set(), fresh(trails("amend", True)))
    assert found is not None and found.fresh
    assert not fresh(trails("amend", False))(found)
    return found.calls


def test_a_shrunk_reproduction_keeps_the_update_that_wrote_the_value_it_expects() -> None:
    """Without the first amend the buggy store still reads 0, not 7, yet then no call wrote the 7 the
    read is held to, and the twin fails it too (it keeps the charted 3): the shrinking keeps it, and
    the reproduction fails on the bug alone (storegen seed 180's update-lost-fields, whose replays
    failed on the twin as well)."""
    calls = [CHART, *AMENDS, Call("lookTrail", {"slug": SLUG})]
    assert confirmed_loss(calls) == calls


def test_another_records_write_of_the_same_value_is_not_the_write_a_reproduction_keeps() -> None:
    """As above, with another trail charted at 7 miles after the amend: its chart sent the value too,
    but it carries none of this trail's marked values, so it is no write of this trail's miles. The
    amend that wrote them stays, the other chart goes, and the reproduction fails on the bug alone
    (storegen seed 85's update-lost-fields, whose replay kept another record's write instead and
    failed on the twin)."""
    other = Call("chartTrail", {"slug": "hm0feed003-trail", "ranger": "hm0feed003-ranger", "miles": 7.0})
    look = Call("lookTrail", {"slug": SLUG})
    assert confirmed_loss([CHART, AMENDS[0], other, AMENDS[1], look]) == [CHART, *AMENDS, look]
