"""`learn` on generated store servers (../shared/storegen), named and name-blind: what it shows is
true, the same whatever the tools are called, and as right as the bench measured
(bench/bench_learn_storegen.py runs seeds 0-199; this is a sample that fits the suite's budget)."""

from __future__ import annotations

from typing import Any

import pytest

from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.learn import learn, learned_json
from storegen_truth import SKIP_REASON, Graded, command, describe, grade, shown_model, storegen_dir

pytestmark = pytest.mark.skipif(storegen_dir() is None, reason=SKIP_REASON)

SEEDS = (0, 1, 2, 3, 165)
"""The first seeds: user keys that replace and that refuse, server-made ids in prose, search, rename,
counts, offset and cursor paging; and 165, whose listing answers two records a page as a table (a
remover was taken for an update while only the first page was looked at)."""


def learned(seed: int, blind: bool) -> dict[str, Any]:
    found = learn(parse_target(command(seed, blind=blind)), allow_writes=True, allow_deletes=True)
    return learned_json(found)


@pytest.fixture(scope="module")
def runs() -> dict[int, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    return {seed: (describe(seed), learned(seed, False), learned(seed, True)) for seed in SEEDS}


def test_no_belief_marked_shown_is_false_named_or_blind(runs: dict[int, Any]) -> None:
    for truth, named, blind in runs.values():
        real = [t["name"] for t in named["tools"]]
        assert grade(named, truth).false_shown == []
        assert grade(blind, truth, real).false_shown == []


def test_blind_and_named_show_the_same_facts(runs: dict[int, Any]) -> None:
    for seed, (_, named, blind) in runs.items():
        assert shown_model(named) == shown_model(blind), seed


def test_roles_identities_and_bindings_are_right_on_the_sample(runs: dict[int, Any]) -> None:
    named, blind = Graded(), Graded()
    for truth, by_name, by_place in runs.values():
        named.add(grade(by_name, truth))
        blind.add(grade(by_place, truth, [t["name"] for t in by_name["tools"]]))
    # Measured: every tool has role, identity and bindings right.
    assert (named.tools_right, named.tools) == (blind.tools_right, blind.tools) == (30, 30), named.wrong
