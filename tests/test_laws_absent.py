"""The laws machine updates records that are not there (stateful/laws/absent.py): one it removed, or
an identity no call wrote (tests/servers/absent_updates.py). A store that answers such an update as a
success and stores nothing is found, on the update, at high confidence on facts experiments showed;
its reproduction replays from a fresh start on the buggy store and not on its twin, also where no
marker fits the record (meter). Twins that refuse the update, or that book the removed record again (a
reader then shows it), draw no finding."""

from __future__ import annotations

import pytest

from helpers import LawsStores, machine_finding, machine_findings
from hypothesis_mcp.connection import Outcome, parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.stateful.laws.overwrites import answered_alike

FOUND = [("kennel", "amend_stay", ["check_in", "check_out", "amend_stay", "stay"]),
         ("roster", "setDuty", ["setDuty", "getMember"]),
         ("meter", "meter.adjust", ["meter.log", "meter.drop", "meter.adjust", "meter.get"])]
"""Each buggy store, its update, and the tools of the smallest reproduction: a stay booked, checked
out, amended and read; a callsign nobody enlisted set and read; a reading with no value a marker fits,
filed, dropped, adjusted and read (told by its id alone)."""
STORES = LawsStores("tests/servers/absent_updates.py")
store, run = STORES.command, STORES.run


@pytest.mark.parametrize(("name", "tool", "tools"), FOUND)
def test_an_update_of_an_absent_record_answered_as_a_success_is_found(name: str, tool: str, tools: list[str]) -> None:
    result = machine_finding(run(name, True), tool, "probe-silent-noop")
    assert result.confidence == "high" and result.status == "fail", result.message
    assert all(f["evidence"] == "shown" for f in result.details["rests_on"]), result.details["rests_on"]
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert [c.tool for c in result.reproduction.calls] == tools
    assert replay(result, parse_target(store(name, True))).still_fails
    assert not replay(result, parse_target(store(name, False))).still_fails


@pytest.mark.parametrize("name", ["kennel", "lodge", "roster", "meter"])
def test_twins_that_refuse_or_book_again_draw_no_finding_of_the_machine(name: str) -> None:
    found = machine_findings(run(name, False))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]


def answered(value: object) -> Outcome:
    return Outcome(kind="result", structured=value, has_structured=True)


def test_an_echoed_nested_object_is_alike_whatever_members_each_call_sent() -> None:
    """Storegen seed 160's patch of a missing id echoes `origin` as sent: the earlier success had sent
    `city` alone, the absent update `h` and `city`. Only members the calls sent inside an object are
    left out: a member no call sent, or one at the top, still tells a refusal from a success."""
    earlier = {"id": "p1", "year": 0, "origin": {"city": "hm-a"}, "status": "red"}
    sent_earlier = {"id": "p1", "origin": {"city": "hm-a"}}
    absent = {"id": "p2", "year": 3, "origin": {"h": 2.5, "city": "hm-b"}, "status": "red"}
    sent_absent = {"id": "p2", "origin": {"h": 2.5, "city": "hm-b"}}
    assert answered_alike(answered(absent), answered(earlier), sent_earlier, sent_absent)
    assert not answered_alike(answered(absent), answered(earlier))
    refusal = {**absent, "origin": {"city": "hm-b", "error": "no project p2"}}
    assert not answered_alike(answered(refusal), answered(earlier), sent_earlier, sent_absent)
    top = {**absent, "h": 2.5}
    assert not answered_alike(answered(top), answered(earlier), sent_earlier, sent_absent)
