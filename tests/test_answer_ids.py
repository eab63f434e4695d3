"""Where calibration looks for a new record's id in a write's answer: any member named like an id a
server makes, in the answer or one object down, that the write did not send itself."""

from __future__ import annotations

import json
from typing import Any

from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.rules.bindings import find_id, text_id
from hypothesis_mcp.stateful.calibrate import answer_ids


def answered(value: Any) -> Outcome:
    return Outcome.from_result({"content": [{"type": "text", "text": json.dumps(value)}]}, 0.0)


def test_any_member_named_like_a_server_made_id() -> None:
    assert answer_ids(answered({"ticketUuid": "t-1", "title": "x"}), {"title": "x"}) == ("ticket_uuid",)
    assert answer_ids(answered({"saved": {"orderId": 7}}), {}) == ("order_id",)
    assert answer_ids(answered([{"guid": "g"}]), {}) == ("guid",)
    assert find_id(answered({"saved": {"orderId": 7}}), ("order_id",)) == ("orderId", 7)


def test_an_id_the_write_sent_is_not_the_servers() -> None:
    assert answer_ids(answered({"sku_id": "A-1", "state": "ok"}), {"sku_id": "A-1"}) == ()
    assert answer_ids(answered({"key": "k", "name": "n"}), {}) == (), "a key is the caller's, not a made id"
    assert answer_ids(answered("stored"), {}) == ()


def said(text: str) -> Outcome:
    return Outcome.from_result({"content": [{"type": "text", "text": text}]}, 0.0)


def test_an_id_given_in_name_value_lines_is_found_for_a_replay() -> None:
    """A write that answers `asset_id: main.assets.10` names its id as a JSON answer would."""
    assert text_id(said("asset_id: main.assets.10\nrank: 3"), ("asset_id",)) == ("asset_id", "main.assets.10")
    assert text_id(said("id: 12\nname: x"), ("id",)) == ("id", 12)
    assert text_id(said("stored, thanks"), ("id",)) is None
    assert text_id(answered({"id": 12}), ("id",)) is None, "a JSON answer is find_id's"
    assert find_id(said("asset_id: main.assets.10"), ("asset_id",)) is None, "other callers read JSON only"
