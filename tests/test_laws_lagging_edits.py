"""First reads that mislead (tests/servers/lagging_edits.py), graded with the laws machine on.

racks: a replacing edit whose listing still shows each rack as added. The keyed read answers the
values the edit sent, so the edit changed the rack in place: it is learned as an update (not as a
removal the listing missed), and the finding names the listing that lags. stamps: a creator whose
every argument is optional is called by the run's first look, before the count is read; the count's
number on a fresh server is the one it showed less that stamp, so a fresh replay of a count finding
keeps the write it counts and passes on the twin. folios: a search shown finding records by their
title or body, never tried on their code; a write the store drops is shown missing by a search asked
for a text it searches, so the reproduction passes on the twin."""

from __future__ import annotations

import pytest

from helpers import LawsStores, experiments, machine_findings, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.stateful.laws.observe import Learned

STORES = LawsStores("tests/servers/lagging_edits.py")
store, run = STORES.command, STORES.run


def view(name: str, bug: bool) -> Learned:
    """What the experiments the machine stands on show of a fresh server."""
    return experiments(store(name, bug))


@pytest.mark.parametrize("bug", [False, True])
def test_an_edit_the_listing_misses_is_learned_as_an_update(bug: bool) -> None:
    model = view("racks", bug)
    assert [a.tool.name for a in model.updaters] == ["rack_set"], [a.tool.name for a in model.removers]
    assert model.removers == []
    assert all(f.shown for a in model.updaters for f in a.facts)


def test_the_lagging_listing_is_found_and_no_removal_is_claimed() -> None:
    found = [r for r in machine_findings(run("racks", True)) if r.confidence in ("medium", "high")]
    assert found, [(r.tool, r.rule, r.message) for r in machine_findings(run("racks", True))]
    assert {r.tool for r in found} == {"racks"}, [(r.tool, r.rule, r.message) for r in found]
    assert not [r for r in results(run("racks", True), kind="probe") if r.rule.startswith("probe-delete")
                and r.status in ("fail", "warn")]
    for result in found:
        assert result.reproduction is not None
        assert replay(result, parse_target(store("racks", True))).still_fails, result.message
        assert not replay(result, parse_target(store("racks", False))).still_fails, result.message


@pytest.mark.parametrize("bug", [False, True])
def test_a_count_read_after_a_creator_in_the_first_look_starts_from_the_fresh_number(bug: bool) -> None:
    counters = view("stamps", bug).counters
    assert [(c.tool.name, c.path, c.fresh) for c in counters] == [("stamp-count", "total", 0.0)]


def test_a_count_finding_keeps_the_write_it_counts() -> None:
    found = [r for r in machine_findings(run("stamps", True)) if r.rule == "probe-count-wrong"]
    assert found, [(r.tool, r.rule, r.message) for r in machine_findings(run("stamps", True))]
    for result in found:
        assert result.reproduction is not None
        assert "stamp-add" in [c.tool for c in result.reproduction.calls], result.reproduction.calls
        assert replay(result, parse_target(store("stamps", True))).still_fails, result.message
        assert not replay(result, parse_target(store("stamps", False))).still_fails, result.message


def test_a_search_by_any_text_is_asked_only_by_a_field_it_was_shown_to_search() -> None:
    found = [r for r in machine_findings(run("folios", True)) if r.rule == "probe-silent-noop"]
    assert found, [(r.tool, r.rule, r.message) for r in machine_findings(run("folios", True))]
    for result in found:
        assert result.reproduction is not None
        asked = [c.arguments["text"] for c in result.reproduction.calls if c.tool == "folio_find"]
        assert all(text.split("-", 1)[1].startswith(("title", "body")) for text in asked), asked
        assert replay(result, parse_target(store("folios", True))).still_fails, result.message
        assert not replay(result, parse_target(store("folios", False))).still_fails, result.message


@pytest.mark.parametrize("name", ["racks", "stamps", "folios"])
def test_twins_draw_no_finding_of_the_machine(name: str) -> None:
    found = machine_findings(run(name, False))
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
