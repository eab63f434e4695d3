"""Finding a record by its marker's number (stateful/laws/model.py `numbered`): a record with no text
to mark holds the number as one field's whole value, in JSON or in a text answer's records."""

from __future__ import annotations

import json
from typing import Any

from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.rules.expectations import FieldEquals
from hypothesis_mcp.rules.text_records import records_for


def answered(value: Any) -> Outcome:
    return Outcome.from_result({"content": [{"type": "text", "text": json.dumps(value)}]}, 0.0)


def said(text: str) -> Outcome:
    return Outcome.from_result({"content": [{"type": "text", "text": text}]}, 0.0)


ROWS = [{"id": 1, "kwh": 724700931, "peak": 0}, {"id": 2, "kwh": 1724700931.5, "peak": 9}]


def test_the_number_finds_the_record_holding_it_whole() -> None:
    assert records_for(answered({"rows": ROWS}), "724700931") == [ROWS[0]]
    assert records_for(answered({"rows": [{"kwh": 724700931.0}]}), "724700931") == [{"kwh": 724700931.0}]
    assert records_for(answered({"rows": ROWS}), "72470093") == [], "a part of a number is not the number"


def test_a_table_row_holds_it_as_a_cell() -> None:
    table = "| id | kwh | peak |\n|---|---|---|\n| a.1 | 724700931 | 0 |\n| a.2 | 5 | 9 |"
    assert [r["id"] for r in records_for(said(table), "724700931")] == ["a.1"]


def test_a_field_judged_on_replay_is_read_from_that_record() -> None:
    expect = FieldEquals("peak", 7, "724700931")
    assert not expect.holds(answered({"rows": ROWS}))
    assert expect.holds(answered({"rows": [{**ROWS[0], "peak": 7}]}))


def test_a_number_written_with_a_fraction_is_found_by_its_whole_part() -> None:
    """A number field holds the marker's number with a fraction (model.FRACTION): a store that cuts it
    to two decimals still shows the record, whose value then reads back changed."""
    cut = [{"id": 1, "progress": 724700931.12}, {"id": 2, "progress": 724700932.12}]
    assert records_for(answered({"rows": cut}), "724700931") == [cut[0]]
    lines = "| id | progress |\n|---|---|\n| a.1 | 724700931.125 |\n| a.2 | 724700931x |"
    assert [r["id"] for r in records_for(said(lines), "724700931")] == ["a.1"]
    assert not FieldEquals("progress", 724700931.125, "724700931").holds(answered({"rows": cut}))


def test_numbers_that_are_no_number_are_passed_by() -> None:
    """JSON from a Python server may hold NaN or Infinity; they hold no marker and stop no search."""
    rows = [{"avg": float("nan"), "kwh": float("inf")}, ROWS[0]]
    assert records_for(said(json.dumps({"rows": rows})), "724700931") == [ROWS[0]]
    assert records_for(said("avg: NaN\nkwh: Infinity"), "724700931") == []
