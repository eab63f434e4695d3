"""What `learn` shows of stores whose shapes once kept its experiments from a fact they could show
(tests/servers/fact_stores.py), named and through the name-blind proxy: the same facts either way,
each one true of the store."""

from __future__ import annotations

from typing import Any

import pytest

from helpers import ROOT, SERVE, blind
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.learn import learn, learned_json
from storegen_truth import shown_model


def store(name: str) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/fact_stores.py"), "--store", name]


def named_and_blind(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    named, opaque = (learned_json(learn(parse_target(command), allow_writes=True, allow_deletes=True))
                     for command in (store(name), blind(store(name))))
    return named, opaque


@pytest.fixture(scope="module")
def tins() -> tuple[dict[str, Any], dict[str, Any]]:
    return named_and_blind("tins")


@pytest.fixture(scope="module")
def crates() -> tuple[dict[str, Any], dict[str, Any]]:
    return named_and_blind("crates")


def tool(learned: dict[str, Any], place: int) -> dict[str, Any]:
    found: dict[str, Any] = learned["tools"][place]
    return found


def test_a_search_by_a_field_no_marker_fits_is_shown_by_that_fields_values(
        tins: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """Neither of the tin's texts can carry a marker (both have patterns): the search is tried with
    the values the run wrote, found by the shade and not by the code."""
    named, opaque = tins
    assert [t["name"] for t in named["tools"]] == ["TinStock", "TinAll", "TinOne", "ShadeMatch"]
    for learned in tins:
        search = tool(learned, 3)
        assert (search["role"], search["evidence"]) == ("search", "shown"), search
        assert [(b["argument"], b["field"], b["evidence"]) for b in search["bindings"]] == [("text", "shade", "shown")]
        assert "not their code" in search["bindings"][0]["experiment"]
        assert tool(learned, 0)["identity"] == {"field": "code", "evidence": "shown"}
        assert [(b["argument"], b["field"]) for b in tool(learned, 2)["bindings"]] == [("code", "code")]
    assert shown_model(named) == shown_model(opaque)


def test_a_search_whose_argument_is_named_like_a_field_is_still_tried_by_text(
        crates: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """CrateFind(note) is named like CratePack's note, which is no identity (tag is): it is tried
    with the record's texts like any search, and shown finding by the note."""
    named, opaque = crates
    assert [t["name"] for t in named["tools"]] == ["CratePack", "CrateAll", "CrateFind"]
    for learned in crates:
        assert tool(learned, 0)["identity"] == {"field": "tag", "evidence": "shown"}
        search = tool(learned, 2)
        assert (search["role"], search["evidence"]) == ("search", "shown"), search
        assert "finds records by text" in search["experiment"]
        assert [(b["argument"], b["field"], b["evidence"]) for b in search["bindings"]] == [("note", "note", "shown")]
    assert shown_model(named) == shown_model(opaque)
