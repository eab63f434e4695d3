"""Law 7 (pages cover) by the laws machine alone (`laws: only`): a ledger paged by an offset that
starts each later page one entry late (tests/servers/ledger_pages.py; at 2 a page that offset reads as
a page number from 0, so the law walks at 3 a page over four records) and bookmarks browsed by a
cursor whose last, short page is never named (tests/servers/bookmark_cursor.py: a text answer its SDK
wraps as `{"result": text}`, a cursor parameter declared as text or null). Each is found on its
listing, replays from a fresh server on the buggy store and not on its twin, and no call of the
reproduction can go; the twins draw no finding of the machine.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from helpers import bookmark_cursor, engine, grading, ledger_pages, machine_finding, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Reproduction
from hypothesis_mcp.stateful.config import ProbeConfig

SERVERS = {"ledger": (ledger_pages, "offset-skips", "entry_list"),
           "bookmarks": (bookmark_cursor, "last-page-lost", "bookmarks_browse")}
_reports: dict[tuple[str, bool], Report] = {}


def target(name: str, twin: bool) -> list[str]:
    server, bug, _ = SERVERS[name]
    return server() if twin else server(bug)


def run(name: str, twin: bool) -> Report:
    if (name, twin) not in _reports:
        _reports[(name, twin)] = engine(target(name, twin), grading(), probes=True, allow_writes=True,
                                        probe_config=ProbeConfig(laws="only"))
    return _reports[(name, twin)]


@pytest.mark.parametrize("name", sorted(SERVERS))
def test_the_skipped_record_is_found_replays_and_no_call_can_go(name: str) -> None:
    listing = SERVERS[name][2]
    result = machine_finding(run(name, False), listing, "probe-pages-skip")
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert replay(result, parse_target(target(name, False))).still_fails
    assert not replay(result, parse_target(target(name, True))).still_fails
    calls = result.reproduction.calls
    for index in range(len(calls) - 1):
        shorter = Reproduction(calls[:index] + calls[index + 1:], fresh_server=True)
        assert not replay(replace(result, reproduction=shorter), parse_target(target(name, False))).still_fails, (
            index, calls)


@pytest.mark.parametrize("name", sorted(SERVERS))
def test_the_twin_draws_no_finding_of_the_machine(name: str) -> None:
    found = machine_findings(run(name, True))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
