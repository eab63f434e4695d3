"""A count's reproduction expects what its own calls made (tests/servers/berth_roster.py).

The laws machine judges a count on a warm server, whose store may be full: there its writes are
refused, and a bug that stores a refused write moves the count with no write it counted. Replayed on
a fresh server, the same writes are accepted. A number fixed on the warm run (the fresh count plus the
warm run's accepted writes) then failed on the correct twin as on the bug, and a reproduction that
shrinking made shorter still expected every write it dropped. The expectation now names the tools
whose accepted calls make or remove a counted record: the replay's own answers move it, a refused
call counts none, a second write under a name already written makes no new record."""

from __future__ import annotations

from typing import Any

from helpers import ROOT, SERVE
from hypothesis_mcp.connection import Connection, Outcome, parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Call, Result
from hypothesis_mcp.rules.expectations import NumberAt
from hypothesis_mcp.stateful.judge import ProbeFinding, replayed, reproduces
from hypothesis_mcp.stateful.laws.confirm import counted_fresh

EXPECT = {"number_at": "taken", "value": 0, "adds": ["moor"], "keys": ["hull"], "takes": ["cast_off"]}
"""The count as the machine records it: no berth taken on a fresh marina, one per accepted mooring of
a new hull, one fewer per accepted cast-off."""


def marina(bug: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/berth_roster.py"), *(["--bug", "stowed"] if bug else [])]


def moor(hull: str, skipper: str = "Ines") -> Call:
    return Call("moor", {"hull": hull, "skipper": skipper})


def counted(*calls: Call) -> Result:
    data: dict[str, Any] = {
        "kind": "probe", "check": "round-trip", "tool": "berths", "status": "fail", "rule": "probe-count-wrong",
        "message": "berths's taken moved otherwise than the moorings", "details": {"expect": EXPECT},
        "reproduction": {"calls": [c.to_dict() for c in (*calls, Call("berths", {}))], "fresh_server": True}}
    return Result.from_dict(data)


FULL = (moor("KTR101"), moor("KTR102"), moor("KTR103"), moor("KTR104"), moor("KTR101", "Odile"))
"""Three berths taken, a fourth mooring refused (the marina is full), the first boat moored again."""


def test_a_refused_write_stored_breaks_the_count_on_the_bug_only() -> None:
    result = counted(*FULL)
    assert replay(result, parse_target(marina(True))).still_fails
    twin = replay(result, parse_target(marina(False)))
    assert not twin.still_fails, twin.verdict


def test_a_shorter_reproduction_expects_only_the_writes_it_keeps() -> None:
    """What shrinking leaves (one mooring, or a cast-off that frees the berth a later mooring takes)
    holds on the correct twin: the number follows the calls replayed, not the run's."""
    for calls in ((moor("KTR101"),), (*FULL[:3], Call("cast_off", {"hull": "KTR102"}), moor("KTR104"))):
        twin = replay(counted(*calls), parse_target(marina(False)))
        assert not twin.still_fails, (calls, twin.verdict)


def test_the_runs_confirmation_judges_the_count_as_the_replay_does() -> None:
    """judge.reproduces, the fresh replay a laws finding must pass before it is reported."""
    finding = ProbeFinding("probe-count-wrong", "berths", "taken moved", "high", "laws machine: a count",
                           calls=[*FULL, Call("berths", {})], expect=dict(EXPECT))
    for bug in (True, False):
        with Connection(parse_target(marina(bug))) as conn:
            assert reproduces(finding, conn) is bug


def test_a_confirmed_count_is_told_in_its_own_replays_numbers() -> None:
    """The warm example's numbers (moved by 6 on a store of other examples' records) are replaced by
    what the fresh replay of the reproduction showed: three berths its moorings take, four shown."""
    finding = ProbeFinding("probe-count-wrong", "berths", "berths's taken moved by 6 while the example added "
                           "and removed +0 record(s) net", "high", "laws machine: a count",
                           calls=[*FULL, Call("berths", {})], expect=dict(EXPECT), details={"shown": 9})
    with Connection(parse_target(marina(True))) as conn:
        told = counted_fresh(finding, replayed(finding, conn))
    assert told.message == ("berths's taken shows 4 on a fresh server after the calls below, where the records "
                            "they made and removed make it 3 (0 before them, +3 net)")
    assert told.details == {"shown": 4, "expected": 3, "expected_change": 3}
    with Connection(parse_target(marina(False))) as conn:
        assert counted_fresh(finding, replayed(finding, conn)) is finding


def test_a_second_removal_of_the_same_record_takes_none() -> None:
    """A correct store may answer a removal of a record already gone as a success: the expected count
    moves once for it. A removal by a name no write sent (an id the server made) still takes one."""
    done = Outcome(kind="result", content=[{"type": "text", "text": "ok"}])
    expect = NumberAt("taken", 0, ("moor",), ("hull",), ("cast_off",))
    twice = [(moor("KTR101"), done), (moor("KTR102"), done), (Call("cast_off", {"hull": "KTR101"}), done),
             (Call("cast_off", {"hull": "KTR101"}), done), (Call("berths", {}), done)]
    assert expect.settled(twice) == NumberAt("taken", 1)
    by_id = [(moor("KTR101"), done), (Call("cast_off", {"id": 7}), done), (Call("berths", {}), done)]
    assert expect.settled(by_id) == NumberAt("taken", 0)
    again = [*twice[:3], (moor("KTR101"), done), (Call("cast_off", {"hull": "KTR101"}), done), twice[-1]]
    assert expect.settled(again) == NumberAt("taken", 1)
