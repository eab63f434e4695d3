"""Explore warm, confirm fresh, where the fault follows the server's history (tests/servers/learned_stores.py).

catalog and devices drop every third write while answering as for any other. On the warm server
the machine sees a write no reader shows; on a fresh server the same calls fall at another place in
the count and keep the law. The reproduction is replayed again after copies of the record's write
(new markers), and the fewest copies that show the breach stay in it, each one needed. catalog
answers a bare "saved" and has only a listing: the same write again, answered the same and then
listed, shows the listing was no full window, so the write stored nothing. The twins draw nothing.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from helpers import ROOT, SERVE, engine, fresh, grading, machine_finding, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Call, Report
from hypothesis_mcp.rules.expectations import NumberAt
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.judge import ProbeFinding
from hypothesis_mcp.stateful.laws.confirm import confirmed
from hypothesis_mcp.stateful.laws.laws import missing

WRITES = {"catalog": "upsertProduct", "devices": "device.register"}
_reports: dict[tuple[str, bool], Report] = {}


def store(name: str, bug: bool) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/learned_stores.py"), "--store", name, *(["--bug"] if bug else [])]


def alone(name: str, bug: bool) -> Report:
    if (name, bug) not in _reports:
        _reports[name, bug] = engine(store(name, bug), grading(), probes=True, allow_writes=True,
                                     probe_config=ProbeConfig(laws="only"))
    return _reports[name, bug]


@pytest.mark.parametrize("name", sorted(WRITES))
def test_every_third_write_dropped_is_found_and_replays_from_a_fresh_server(name: str) -> None:
    result = machine_finding(alone(name, True), WRITES[name], "probe-silent-noop")
    assert result.confidence == "high"
    assert result.message.startswith("the same call had another effect at another place in the history")
    assert result.reproduction is not None and result.reproduction.fresh_server
    calls = result.reproduction.calls
    assert [c.tool for c in calls[:3]] == [WRITES[name]] * 3 and len(calls) == 4, calls
    assert replay(result, parse_target(store(name, True))).still_fails
    assert not replay(result, parse_target(store(name, False))).still_fails
    assert alone(name, True).stats.fresh_missed == 0


@pytest.mark.parametrize("name", sorted(WRITES))
def test_the_twin_draws_nothing(name: str) -> None:
    report = alone(name, False)
    assert not machine_findings(report), [(r.tool, r.rule, r.message) for r in machine_findings(report)]


def test_a_replay_with_copies_before_it_keeps_only_the_copies_it_needs() -> None:
    """A hand-made breach: one upsert, then the listing that does not show it. Fresh, the upsert is the
    first write and is kept; after two copies it is the third, dropped. The reproduction holds the
    two copies, the upsert and the listing, and a replay without any one of them keeps the law."""
    write = Call("upsertProduct", {"sku": "hm0badc0de-sku", "name": "hm0badc0de-name", "blurb": "hm0badc0de-blurb"})
    breach = missing("probe-silent-noop", "upsertProduct", "listProducts", 1,
                     ("hm0badc0de-blurb", "hm0badc0de-name", "hm0badc0de-sku"), (),
                     "upsertProduct answered a success, yet stored nothing")
    breach.pinned, breach.history = (0,), 9
    count = iter(range(1, 100))

    def made() -> str:
        return f"hm0badc{next(count):03x}"

    bug = fresh(store("catalog", True))
    found = confirmed(breach, [write, Call("listProducts", {})], set(), bug, marker=made)
    assert found is not None and found.fresh
    assert [c.tool for c in found.calls] == ["upsertProduct"] * 3 + ["listProducts"]
    assert found.calls[2] == write and found.details["writes_before"] == 2
    assert {found.calls[0].arguments["sku"], found.calls[1].arguments["sku"]}.isdisjoint({write.arguments["sku"]})
    for index in range(len(found.calls) - 1):
        fewer = found.calls[:index] + found.calls[index + 1:]
        assert not bug(replace(found, calls=fewer)), index

    twin = fresh(store("catalog", False))
    assert confirmed(breach, [write, Call("listProducts", {})], set(), twin, marker=made) is None


def test_a_number_of_the_whole_store_is_never_tried_with_copies() -> None:
    """A count judges every record the store holds: copies before it move it whether the count is right
    or not, so a count breach a fresh replay does not show stays unconfirmed after two replays (the
    calls without the checks, then with them), where a record's own law goes on to the copies."""
    write = Call("upsertProduct", {"sku": "hm0badd0de-sku", "name": "hm0badd0de-name", "blurb": "hm0badd0de-blurb"})
    calls = [write, Call("listProducts", {})]
    bug = fresh(store("catalog", True))
    tried: list[int] = []

    def counted(finding: ProbeFinding) -> bool:
        tried.append(len(finding.calls))
        return bug(finding)

    count = iter(range(1, 100))

    def made() -> str:
        return f"hm0badd{next(count):03x}"

    own = missing("probe-silent-noop", "upsertProduct", "listProducts", 1, ("hm0badd0de-name",), (), "stored nothing")
    number = replace(own, rule="probe-count-wrong", expect=NumberAt("length", 1))
    for breach in (own, number):
        breach.pinned, breach.history = (0,), 9
    assert confirmed(number, calls, set(), counted, marker=made) is None
    assert tried == [2, 2]
    assert confirmed(own, calls, set(), counted, marker=made) is not None
    assert max(tried[2:]) > 2, tried
