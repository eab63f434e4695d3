"""A failing effect machine's steps print as short calls, not as whole Tool objects."""

from __future__ import annotations

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.vendor.pretty import pretty

from hypothesis_mcp.catalog import Bound, Tool
from hypothesis_mcp.stateful.readers import Reader
from hypothesis_mcp.stateful.steps import ShownCall, ShownChoice, shown_calls
from hypothesis_mcp.strategies import marked_arguments

NOTE = Tool("create_note", {"type": "object", "required": ["title", "body"],
                            "properties": {"title": {"type": "string", "minLength": 1, "maxLength": 200},
                                           "body": {"type": "string"}}})
LIST = Tool("list_notes", {"type": "object", "properties": {"limit": {"type": "integer", "minimum": 1}}})


def test_a_write_prints_as_its_call() -> None:
    shown = ShownCall("create_note", {"title": "hm00000000-title", "body": ""})
    assert pretty(shown) == "create_note(title='hm00000000-title', body='')"
    assert pretty([shown]) == "[create_note(title='hm00000000-title', body='')]"
    assert shown == {"title": "hm00000000-title", "body": ""}, "it is still the arguments dict"


def test_a_bounded_choice_prints_as_the_bounded_parameter() -> None:
    limit = Bound("limit", "limit", required=False, minimum=1)
    assert pretty(ShownChoice((LIST, limit))) == "list_notes(limit=…)"
    assert pretty(ShownChoice((Reader(LIST, "medium", "listing"), limit))) == "list_notes(limit=…)"
    tool, bound = ShownChoice((LIST, limit))
    assert (tool, bound) == (LIST, limit)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_shown_calls_draw_the_same_valid_arguments(data: st.DataObject) -> None:
    drawn = data.draw(shown_calls(NOTE.name, marked_arguments(NOTE, "hm00000000")))
    assert isinstance(drawn, ShownCall)
    jsonschema.validate(dict(drawn), NOTE.input_schema)
    assert repr(drawn).startswith("create_note(") and "Tool(" not in repr(drawn)
