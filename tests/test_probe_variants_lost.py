"""The variants probe says a store folds two identities only when the variant's write did it: on a
store that drops its oldest record past three (tests/servers/probe_bugs.py `evict-after-3`), the
first record vanishes when its variant is written as the fourth, and an unrelated write then makes
another held record vanish too, so no fold is claimed (the loss is the round trip's
`probe-data-lost`). A store that folds case (tests/servers/identity_variants.py `fold-case`) keeps
every other record through the unrelated write: its fold stands. Both judged through the listing,
with the same three records before the variant, so nothing depends on a draw."""

from __future__ import annotations

from typing import Any

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from helpers import ROOT, SERVE, probe_bugs
from hypothesis_mcp import connect
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.model.facts import fact_shown
from hypothesis_mcp.search.pool import ServerPool
from hypothesis_mcp.stateful.context import ProbeContext
from hypothesis_mcp.stateful.readers import Reader
from hypothesis_mcp.stateful.variants import FOLDED, VariantsExample
from hypothesis_mcp.strategies import PLACEHOLDER


def folds_after_three(command: list[str], write: str, listing: str, key: str, text: str) -> tuple[dict[str, Any], bool]:
    """Three records written and shown by the listing, then the oldest one's case-swapped variant:
    the folds the example kept, and whether the oldest record is still in its model."""
    with connect(command) as server:
        tools = {t.name: t for t in server.tools}
    pool = ServerPool(parse_target(command), timeout=30, spares=0)
    ctx = ProbeContext(pool=pool, write=tools[write], readers=[Reader(tools[listing], "high", "lists")],
                       key_path=key, base_args={listing: {}}, salt=7, warm_shrink=False, open_many=False)
    example = VariantsExample(ctx, key, fact_shown(f"{key} tells records apart"))
    drawn = {key: f"{PLACEHOLDER}-{key}", text: f"{PLACEHOLDER}-{text}"}
    try:
        made = [example.put(drawn) for _ in range(3)]
        assert all(r is not None and example.witness(r) for r in made)
        oldest = made[0]
        assert oldest is not None

        @settings(max_examples=1, database=None, deadline=None, phases=[Phase.generate])
        @given(st.none())
        def vary(_: None) -> None:  # the probe marks events: it runs inside a Hypothesis test
            example.judge_variant(oldest, "case", drawn)

        vary()
        return dict(example.folds), oldest.marker in example.model
    finally:
        example.close()
        pool.close()


def test_a_record_evicted_by_the_variants_write_is_no_fold() -> None:
    folds, kept = folds_after_three(probe_bugs("evict-after-3"), "create_record", "list_records", "name", "value")
    assert folds == {} and not kept


def test_a_store_that_folds_case_still_folds() -> None:
    notes = [*SERVE, str(ROOT / "tests/servers/identity_variants.py"), "--store", "notes", "--bug", "fold-case"]
    folds, _ = folds_after_three(notes, "save_note", "list_notes", "path", "body")
    assert [f.rule for f in folds.values()] == [FOLDED]
    assert "its case swapped" in folds["case"].message
