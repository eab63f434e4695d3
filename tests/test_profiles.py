"""Profiles: what each one promises about randomness, the example database and example counts.

The end-to-end consequences (identical grading JSON, a printed and stored seed) are asserted in
test_scorecard.py and test_cli.py; these pin the settings that make them hold.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import strategies as st

from helpers import blind, probe_bugs
from hypothesis_mcp import connect
from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.profiles import GRADING_SEED, make_profile
from hypothesis_mcp.search.driver import Finding, hunt
from hypothesis_mcp.search.saved import digest
from hypothesis_mcp.search.seeding import own_draws, scope_salt, scope_seed, tool_scope
from hypothesis_mcp.stateful.probes import round_trip_profile


def test_grading_has_a_fixed_seed_and_no_database() -> None:
    profile = make_profile("grading")
    assert (profile.seed, profile.database_dir) == (GRADING_SEED, None)
    made = profile.settings()
    assert not made.derandomize and made.database is None, "draws come from explicit seeds alone"
    assert (made.max_examples, made.stateful_step_count) == (25, 20), "the counts docs/scoring.md gives"


def test_a_scope_seed_depends_on_the_run_seed_and_the_scope_alone() -> None:
    assert scope_seed(0, "search", "valid:a") == scope_seed(0, "search", "valid:a")
    assert len({scope_seed(0, "search", "valid:a"), scope_seed(1, "search", "valid:a"),
                scope_seed(0, "search", "valid:b"), scope_seed(0, "effect", "valid:a")}) == 4
    assert scope_seed(0, "ab", "c") != scope_seed(0, "a", "bc"), "scope parts are kept apart"


def test_a_tool_seeds_by_what_a_blind_catalogue_keeps() -> None:
    """Served with opaque names and no descriptions or titles (tests/blind.py), every tool of a
    server enters its seeds and marker salts the same: its place and its schema, never its words."""
    with connect(probe_bugs()) as named, connect(blind(probe_bugs())) as hidden:
        tools, opaque = named.tools, hidden.tools
    assert [t.name for t in opaque] != [t.name for t in tools] and any(t.description for t in tools)
    assert [tool_scope(t) for t in opaque] == [tool_scope(t) for t in tools]
    assert len({tool_scope(t) for t in tools}) == len(tools), "each tool draws its own"
    assert [scope_seed(0, "effect", t) for t in opaque] == [scope_seed(0, "effect", t) for t in tools]
    assert [scope_salt(0, "reads", t) for t in opaque] == [scope_salt(0, "reads", t) for t in tools]
    moved = replace(tools[0], place=len(tools))
    assert scope_seed(0, "effect", moved) != scope_seed(0, "effect", tools[0]), "its place is part of it"


def test_own_draws_leaves_out_mined_literals_and_restores_them() -> None:
    """Inside our runs Hypothesis draws no literal mined from loaded modules; outside, a user's
    own tests keep Hypothesis's usual behaviour."""
    from hypothesis.internal.conjecture import providers

    usual = providers._get_local_constants
    with own_draws(), own_draws():
        assert len(providers._get_local_constants()) == 0
    assert providers._get_local_constants is usual


def test_default_draws_a_seed_and_keeps_failures(tmp_path: Path) -> None:
    """A random seed (stored in the report) and an example database, so saved failures replay first."""
    seeds = {make_profile("default", database_dir=str(tmp_path)).seed for _ in range(5)}
    assert None not in seeds and len(seeds) > 1
    made = make_profile("default", database_dir=str(tmp_path)).settings()
    assert not made.derandomize and made.database is None, "@seed would switch Hypothesis's database off"


def test_saved_failures_replay_first_in_their_own_search_only(tmp_path: Path) -> None:
    """The default profile seeds every search (its printed seed repeats the run), so the failure a
    search shrank to is kept per check and tool and tried first next time, in that search only. It is
    filed under the tool's name: a tool listed at another place next run still finds it."""
    profile = replace(make_profile("default", database_dir=str(tmp_path)), seed=1234)
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}

    def search(name: str, at_least: int, place: int = 0) -> list[int]:
        seen: list[int] = []

        def prop(n: int) -> Finding | None:
            seen.append(n)
            return Finding("test-rule", "too big") if n >= at_least else None

        hunt(st.integers(0, 1000), prop, profile, scope=("valid", Tool(name, schema, place=place)))
        return seen

    assert search("a", 10)[0] != 10
    assert search("a", 10)[0] == 10, "a saved failure is tried first in its own search"
    assert search("a", 10, place=3)[0] == 10, "wherever the tool is listed"
    assert search("b", 500)[0] != 10, "and not in another tool's search"
    assert search("a", 2000)[0] == 10 and search("a", 2000)[0] != 10, "a passing search forgets it"


def test_thorough_runs_many_more_examples() -> None:
    default, thorough = make_profile("default"), make_profile("thorough")
    assert thorough.examples >= 4 * default.examples
    assert thorough.probe_examples > default.probe_examples and thorough.probe_steps > default.probe_steps
    assert thorough.database_dir is not None and thorough.seed is not None


@pytest.mark.parametrize("name", ["grading", "default", "thorough"])
def test_a_given_seed_repeats_exactly(name: str) -> None:
    """--seed: the seed is used as given and no saved failure can change what runs."""
    profile = make_profile(name, seed=7)
    assert (profile.seed, profile.database_dir) == (7, None)
    assert profile.settings().database is None
    assert make_profile(name, seed=7) == profile


def test_max_examples_overrides_and_is_checked() -> None:
    profile = make_profile("thorough", max_examples=9)
    assert (profile.examples, profile.invalid_examples, profile.probe_examples) == (9, 9, 3)
    with pytest.raises(UsageError):
        make_profile("grading", max_examples=0)
    with pytest.raises(UsageError, match="fastest"):
        make_profile("fastest")


def test_kept_failures_are_filed_by_schema_and_given_values() -> None:
    """A failure kept for one schema (or one set of --arg values) is filed apart from another's; the
    name does not depend on key order."""
    number = {"type": "object", "properties": {"n": {"type": "integer"}}}
    text = {"type": "object", "properties": {"n": {"type": "string"}}}
    assert digest([number, {"n": 1, "m": 2}]) == digest([dict(reversed(number.items())), {"m": 2, "n": 1}])
    assert digest([number, {}]) != digest([text, {}])
    assert digest([number, {}]) != digest([number, {"n": 1}])


def test_a_servers_round_trips_share_one_budget_past_four_write_tools() -> None:
    """Up to four write tools each explore with the full probe examples; more share four tools'
    worth, never below the model machines' quarter, so cost grows slowly with write tools."""
    grading, thorough = make_profile("grading"), make_profile("thorough", seed=1)
    assert all(round_trip_profile(grading, writes) is grading for writes in (0, 1, 4))
    shared = {writes: round_trip_profile(grading, writes).probe_examples for writes in (5, 8, 16, 100)}
    assert shared == {5: 6, 8: 4, 16: 2, 100: 2}
    assert round_trip_profile(thorough, 16).probe_examples == 10
    assert replace(round_trip_profile(grading, 16), probe_examples=8) == grading, "only the examples change"
