"""Marked write arguments: markers in free-text fields, lengths respected, everything valid."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import Phase, find, given, settings

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.strategies import find_markers, marked_arguments, new_marker
from strategies_oracle import oracle

CREATE = Tool(
    name="create_entities",
    input_schema={
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "entities": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "entityType": {"type": "string"},
                        "observations": {"type": "array", "items": {"type": "string"}},
                        "rank": {"type": "integer"},
                    },
                    "required": ["name", "entityType", "observations"],
                },
            },
            "title": {"anyOf": [{"type": "string", "maxLength": 12}, {"type": "null"}]},
            "code": {"type": "string", "maxLength": 4},
            "slug": {"type": "string", "pattern": "^[a-z]+$"},
            "when": {"type": "string", "format": "date"},
            "kind": {"enum": ["note", "task"]},
            "count": {"type": "integer", "minimum": 3},
        },
        "required": ["entities", "slug", "kind", "count"],
        "additionalProperties": False,
    },
)
MINIMAL = settings(database=None, phases=[Phase.generate, Phase.shrink], max_examples=50, deadline=None)


def test_new_marker_is_hm_and_eight_hex_digits_and_reproducible() -> None:
    marker = new_marker(7)
    assert len(marker) == 10 and marker.startswith("hm") and int(marker[2:], 16) >= 0
    assert marker == new_marker(7) == new_marker(random.Random(7))
    assert new_marker(8) != marker


def test_simplest_marked_arguments() -> None:
    marker = "hm0123abcd"
    args = find(marked_arguments(CREATE, marker), lambda _: True, settings=MINIMAL)
    assert args["entities"] == [
        {
            "name": "hm0123abcd-name",
            "entityType": "hm0123abcd-entityType",
            "observations": ["hm0123abcd-observations"],
        }
    ]
    assert args["title"] == "hm0123abcd-t"  # cut to maxLength 12: the field name goes first
    assert "code" not in args  # optional and too short for a marker: a code, left out of probe writes
    assert args["kind"] in ("note", "task") and args["count"] >= 3 and args["slug"].isalpha()
    assert "when" not in args


def test_every_marked_value_validates_and_carries_the_marker() -> None:
    check = oracle(CREATE.input_schema)
    marker = new_marker(1)

    @settings(max_examples=80, deadline=None, database=None)
    @given(marked_arguments(CREATE, marker))
    def run(args: dict[str, Any]) -> None:
        assert check.is_valid(args), list(check.iter_errors(args))
        entity = args["entities"][0]
        assert 1 <= len(args["entities"]) <= 4
        assert entity["name"].startswith(f"{marker}-name")
        assert entity["observations"][0].startswith(f"{marker}-observations")
        assert len(find_markers(args, marker)) >= 4

    run()


def test_overrides_replace_marked_values() -> None:
    @settings(max_examples=20, deadline=None, database=None)
    @given(marked_arguments(CREATE, "hm00000000", {"slug": "fixed"}))
    def run(args: dict[str, Any]) -> None:
        assert args["slug"] == "fixed"

    run()


def test_find_markers_in_text_and_json() -> None:
    text = 'Created hm0123abcd-name and {"x": "hmdeadbeef-title"}; not ahm0123abcd nor hm0123abcdef'
    assert find_markers(text) == ["hm0123abcd", "hmdeadbeef"]
    assert find_markers(text, "hm0123abcd") == ["hm0123abcd"]
    assert find_markers({"items": [{"name": "hm0123abcd-name"}, "hm0123abcd"]}, "hm0123abcd") == [
        "hm0123abcd",
        "hm0123abcd",
    ]
    assert find_markers({"none": 1}) == []
