"""Stores whose only readers take a record's key: the experiments find the keyed readers through the
values a write answered (a server-made id, tests/servers/task_patches.py) or sent (the key the caller
chose, tests/servers/cubby_shelf.py), and from then on watch each record through its keyed reads.
The same facts named and through the name-blind proxy; the bug an update makes is found either way
and its correct twin draws no finding."""

from __future__ import annotations

from typing import Any

import pytest

from helpers import ROOT, SERVE, blind, engine, grading, problems, summary, task_patches
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.learn import learn, learned_json
from hypothesis_mcp.results import Report
from storegen_truth import shown_model

PROFILE = grading(max_examples=12)


def cubby_shelf(bug: str | None = None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/cubby_shelf.py"), *(["--bug", bug] if bug else [])]


def learned(command: list[str]) -> dict[str, Any]:
    found: dict[str, Any] = learned_json(learn(parse_target(command), allow_writes=True, allow_deletes=True))
    return found


@pytest.fixture(scope="module")
def patches() -> dict[str, dict[str, Any]]:
    """task_patches' twin and its drops-title bug, each named and blind."""
    return {f"{bug or 'twin'} {how}": learned(command)
            for bug in (None, "drops-title")
            for how, command in (("named", task_patches(bug)), ("blind", blind(task_patches(bug))))}


@pytest.fixture(scope="module")
def shelf() -> dict[str, Report]:
    """cubby_shelf graded with its drops-contents bug and as its twin, each named and blind."""
    return {f"{bug or 'twin'} {how}": engine(command, PROFILE, probes=True, allow_writes=True)
            for bug in (None, "drops-contents")
            for how, command in (("named", cubby_shelf(bug)), ("blind", blind(cubby_shelf(bug))))}


def role(tool: dict[str, Any]) -> tuple[str, str]:
    return tool["role"], tool["evidence"]


def test_a_creator_and_its_keyed_readers_are_shown_through_the_id_it_answers(
        patches: dict[str, dict[str, Any]]) -> None:
    """No tool of task_patches takes no argument: task_new is shown creating, task_brief and task_show
    reading the task whose id task_new answered, and task_patch changing it (as the keyed reads
    show), whatever the tools are called and whether task_patch keeps the title."""
    for name, found in patches.items():
        new, patch, brief, show, _ = found["tools"]
        assert role(new) == ("create", "shown"), name
        assert "after each of two successful calls" in new["experiment"], name
        for reader in (brief, show):
            assert role(reader) == ("read", "shown"), (name, reader)
            assert [(b["argument"], b["field"], b["evidence"]) for b in reader["bindings"]] == [
                ("task_id", "task_id", "shown")], (name, reader)
            assert "asked for a second record it answered that one and not the first" in reader["experiment"]
        assert role(patch) == ("update", "shown"), name
        assert patch["identity"] == {"field": "task_id", "evidence": "shown"}, name
    for bug in ("twin", "drops-title"):
        assert shown_model(patches[f"{bug} named"]) == shown_model(patches[f"{bug} blind"])


def test_a_store_keyed_by_the_callers_own_key_is_watched_through_it() -> None:
    """cubby_shelf has no listing and prints no id: cubby.peek is shown reading by the cubby the
    write was sent, cubby.stow replacing by it, cubby.relabel changing a record and cubby.clear
    removing one (its keyed read answers blank afterwards); the same blind."""
    named, opaque = learned(cubby_shelf()), learned(blind(cubby_shelf()))
    for found in (named, opaque):
        stow, peek, relabel, clear = found["tools"]
        assert role(stow)[1] == "shown" and stow["identity"] == {"field": "cubby", "evidence": "shown"}
        assert role(peek) == ("read", "shown")
        assert [(b["argument"], b["field"]) for b in peek["bindings"]] == [("cubby", "cubby")]
        assert role(relabel) == ("update", "shown")
        assert role(clear) == ("delete", "shown")
    assert shown_model(named) == shown_model(opaque)


def test_an_update_that_drops_a_field_is_found_named_and_blind(shelf: dict[str, Report]) -> None:
    for how, place in (("named", "cubby.relabel"), ("blind", "t3")):
        found = [(r.tool, r.rule, r.confidence) for r in problems(shelf[f"drops-contents {how}"])
                 if r.kind == "probe"]
        assert (place, "probe-data-lost", "high") in found, summary(shelf[f"drops-contents {how}"])


def test_the_correct_twin_draws_no_finding_named_or_blind(shelf: dict[str, Report]) -> None:
    for how in ("named", "blind"):
        report = shelf[f"twin {how}"]
        assert [r for r in problems(report) if r.kind == "probe" and r.confidence in ("medium", "high")] == [], \
            summary(report)
