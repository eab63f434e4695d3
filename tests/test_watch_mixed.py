"""Servers that hold a store a listing shows beside stores only keyed reads show: each tool is tried
on a record of each store in turn, so the listed store's tools keep the roles its records show, and a
count is bound to the store whose records it was shown to follow. tests/servers/agreeing_stores.py
`dotted` (doc.* keyed, vault.* listed and counted) and tests/servers/rename_stores.py (notes and
drafts keyed, the shelf listed); named and through the name-blind proxy."""

from __future__ import annotations

from typing import Any

import pytest

from helpers import ROOT, SERVE, blind, grading
from hypothesis_mcp.connection import Connection, parse_target
from hypothesis_mcp.learn import learn, learned_json
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.laws.observe import learned as machine_view
from hypothesis_mcp.stateful.probes import base_arguments
from storegen_truth import shown_model


def dotted() -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/agreeing_stores.py"), "--style", "dotted"]


def renames() -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/rename_stores.py")]


def learned(command: list[str]) -> dict[str, dict[str, Any]]:
    found = learned_json(learn(parse_target(command), allow_writes=True, allow_deletes=True))
    return {"model": shown_model(found), **{f"#{place}": tool for place, tool in enumerate(found["tools"], 1)}}


@pytest.fixture(scope="module")
def runs() -> dict[str, dict[str, dict[str, Any]]]:
    return {f"{name} {how}": learned(command if how == "named" else blind(command))
            for name, command in (("dotted", dotted()), ("renames", renames())) for how in ("named", "blind")}


def test_the_listed_store_beside_a_keyed_one_keeps_its_reader_and_its_count(
        runs: dict[str, dict[str, dict[str, Any]]]) -> None:
    """vault.open (#5) reads a label's record and vault.stats (#7) counts vault.keep's (#4) records,
    not doc.put's (#1): both shown, whatever the tools are called."""
    for how in ("named", "blind"):
        found = runs[f"dotted {how}"]
        opened, stats = found["#5"], found["#7"]
        assert (opened["role"], opened["evidence"]) == ("read", "shown"), (how, opened)
        assert [(b["argument"], b["field"], b["evidence"]) for b in opened["bindings"]] == [
            ("label", "label", "shown")], (how, opened)
        assert (stats["role"], stats["evidence"]) == ("count", "shown"), (how, stats)
        keep, put = found["#4"]["name"], found["#1"]["name"]
        assert f"each record of {keep} made or removed, and not with those of {put}" in stats["experiment"], stats
        assert (found["#2"]["role"], found["#3"]["role"]) == ("read", "search"), how
    assert runs["dotted named"]["model"] == runs["dotted blind"]["model"]


def test_an_update_of_the_listed_store_and_a_rename_of_a_keyed_one_are_shown(
        runs: dict[str, dict[str, dict[str, Any]]]) -> None:
    """shelf.annotate (#7) changes the shelf's records by slot; rename_note (#3), after which note_get
    no longer answers the old title but answers the note under the new one, changes records (moved,
    not removed); clone_draft (#12), whose copy leaves the draft, is shown doing nothing."""
    for how in ("named", "blind"):
        found = runs[f"renames {how}"]
        annotate, rename, clone = found["#7"], found["#3"], found["#12"]
        assert (annotate["role"], annotate["evidence"]) == ("update", "shown"), (how, annotate)
        assert annotate["identity"] == {"field": "slot", "evidence": "shown"}, (how, annotate)
        assert (rename["role"], rename["evidence"]) == ("update", "shown"), (how, rename)
        assert "moved, not removed" in rename["experiment"], rename
        assert clone["evidence"] == "guessed", (how, clone)
    assert runs["renames named"]["model"] == runs["renames blind"]["model"]


def test_the_laws_machine_counts_only_the_store_the_count_was_shown_to_follow() -> None:
    """What the laws machine reads of the experiments: vault.stats counts vault.keep's records and
    stands still with doc.put's, so a doc.put write moves no expectation of it."""
    profile = grading()
    with Connection(parse_target(dotted())) as conn:
        tools = conn.list_tools()
        model = machine_view(conn, tools, lambda tool: base_arguments(tool, None, ProbeConfig()), profile.seed,
                             profile.settings(1), False)
    assert [(c.tool.name, set(c.counts), set(c.apart)) for c in model.counters] == [
        ("vault.stats", {"vault.keep"}, {"doc.put"})]
