"""A listing paged by a number under a name no word list knows (tests/servers/leaf_shelf.py): the
experiments learn the paging by its effect, named and through the name-blind proxy, so the records
a run writes past the first page are seen and the writer is shown."""

from __future__ import annotations

from typing import Any

import pytest

from helpers import ROOT, SERVE, blind
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.learn import learn, learned_json
from storegen_truth import shown_model

SHELF = [*SERVE, str(ROOT / "tests/servers/leaf_shelf.py")]


@pytest.fixture(scope="module")
def shelf() -> tuple[dict[str, Any], dict[str, Any]]:
    named, opaque = (learned_json(learn(parse_target(command), allow_writes=True))
                     for command in (SHELF, blind(SHELF)))
    return named, opaque


def test_page_numbers_are_learned_by_their_effect_and_the_writer_is_shown(
        shelf: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """The shelf comes with a full first page: the writer is shown only through its later pages.
    `span` (the page size, tried first) answers records the first page shows too, so it is no page
    number; `leaf` is."""
    named, opaque = shelf
    assert [t["name"] for t in named["tools"]] == ["stow", "shelf"]
    for learned in shelf:
        stow, listing = learned["tools"]
        assert (stow["role"], stow["evidence"]) == ("create", "shown"), stow
        assert [r["evidence"] for r in stow["readers"]] == ["shown"]
        assert (listing["role"], listing["evidence"]) == ("list", "shown"), listing
        paging = listing["paging"]
        assert (paging["param"], paging["first"], paging["evidence"]) == ("leaf", 1, "shown"), paging
        assert "leaf 2 records that page does not show" in paging["experiment"]
    assert shown_model(named) == shown_model(opaque)
