"""A record in the shape a keyed reader showed for stored records (rules.answers.shaped_record): what
the laws machine takes for a record made up under an id nobody holds, and what it takes for an answer
about that id."""

from __future__ import annotations

from hypothesis_mcp.rules.answers import shaped_record

MEMBERS = ("id", "title", "found")


def test_a_record_inside_an_envelope_of_success_flags_is_read() -> None:
    assert shaped_record({"ok": True, "value": {"id": "X", "title": ""}}, ["X"], MEMBERS) == {"id": "X", "title": ""}


def test_an_object_beside_other_members_may_be_the_question_not_a_record() -> None:
    assert shaped_record({"status": "not_found", "query": {"id": "X"}}, ["X"], MEMBERS) is None
    assert shaped_record({"ok": False, "error": {"id": "X"}}, ["X"], MEMBERS) is None


def test_a_flag_every_stored_record_held_true_says_no_record_when_false() -> None:
    assert shaped_record({"id": "X", "found": False}, ["X"], MEMBERS, ("found",)) is None
    assert shaped_record({"id": "X", "found": True}, ["X"], MEMBERS, ("found",)) == {"id": "X", "found": True}
    assert shaped_record({"id": "X", "found": False}, ["X"], MEMBERS) == {"id": "X", "found": False}, \
        "with no flag learned, the shape alone decides"
