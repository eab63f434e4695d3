"""Effect probes on stores shaped like the public ones that once misled them (tests/servers/task_ledger.py):
an upsert whose optional id is null on create, a one-letter field described only in prose, a write
that only a resource shows, an update-only tool and names behind a shared prefix. The correct twin
gets no finding; each bug twin gets the one it has. The heuristics behind it are checked unit by unit.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import find, settings

from helpers import engine, grading, one, problems, summary, task_ledger
from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.results import Call
from hypothesis_mcp.stateful.claims import claims_hold
from hypothesis_mcp.stateful.judge import ProbeFinding
from hypothesis_mcp.stateful.keys import choose_key
from hypothesis_mcp.stateful.readers import Reader
from hypothesis_mcp.stateful.roles import updated_id
from hypothesis_mcp.stateful.shrink import smaller
from hypothesis_mcp.strategies import marked_arguments
from hypothesis_mcp.strategies.freetext import free_text

PROFILE = grading(max_examples=6)


def tool(name: str, properties: dict[str, Any], required: list[str] | None = None,
         description: str | None = None) -> Tool:
    return Tool.from_dict({"name": name, "description": description, "inputSchema": {
        "type": "object", "properties": properties, "required": required or []}})


@pytest.fixture(scope="module")
def correct() -> Any:
    return engine(task_ledger(), PROFILE, probes=True, allow_writes=True)


def test_the_correct_ledger_gets_no_probe_finding(correct: Any) -> None:
    assert [r for r in problems(correct) if r.kind == "probe"] == [], summary(correct)
    put = one(correct, kind="probe", tool="ledger_put_task", check="round-trip")
    assert put.status == "pass"
    jot = one(correct, kind="probe", tool="ledger_jot", check="round-trip")
    assert jot.status == "pass" and "shown by resource ledger://jottings" in jot.message
    close = one(correct, kind="probe", tool="ledger_close_task")
    assert close.status == "inconclusive" and "it takes no free text" in close.message


@pytest.mark.parametrize(("bug", "write"), [("loses-jottings", "ledger_jot"), ("loses-summaries", "ledger_put_task")])
def test_each_bug_twin_is_found(bug: str, write: str) -> None:
    report = engine(task_ledger(bug), PROFILE, probes=True, allow_writes=True)
    found = [r for r in problems(report) if r.kind == "probe"]
    assert [(r.tool, r.rule) for r in found] == [(write, "probe-write-not-observable")], summary(report)
    calls = found[0].reproduction.calls if found[0].reproduction else []
    assert calls and calls[0].tool == write and "grade" not in calls[0].arguments


def test_free_text_is_told_from_codes_ids_and_letters() -> None:
    assert free_text("summary", {"type": "string", "description": "What the task is about."})
    assert free_text("title", {"type": "string", "maxLength": 40})
    assert not free_text("grade", {"type": "string", "description": "Importance: one capital letter, A to E."})
    assert not free_text("priority", {"type": "string"})
    assert not free_text("statement", {"type": "string", "description": "The SQL statement to run."})
    assert not free_text("note_id", {"type": "string"})
    assert not free_text("tag", {"type": "string", "maxLength": 8})


def test_optional_constrained_fields_stay_out_and_required_ids_get_a_bare_marker() -> None:
    write = tool("stash_card", {
        "card_id": {"type": "string"}, "body": {"type": "string"},
        "colour": {"type": "string", "description": "One of red, green, blue."},
        "query": {"type": "string"}}, required=["card_id", "body", "query"])
    args = find(marked_arguments(write, "hm0123abcd"), lambda _: True, settings=settings(database=None))
    assert args["card_id"] == "hm0123abcd-card_id"
    assert args["body"] == "hm0123abcd-body"
    assert "colour" not in args
    assert "hm0123abcd" not in args["query"]


def test_the_key_is_a_field_every_write_fills_and_readers_ask_for() -> None:
    upsert = tool("put_card", {"card_id": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
                               "title": {"type": "string"}, "deck_name": {"type": "string"}},
                  required=["deck_name"])
    by_title = Reader(tool("card_by_title", {"title": {"type": "string"}}, ["title"]), "medium", "")
    assert choose_key(upsert, [], {}, []) in ("title", "deck_name")
    assert choose_key(upsert, [by_title], {}, []) == "title"
    assert choose_key(upsert, [by_title], {}, ["deck_name"]) == "deck_name"
    only_id = tool("put_thing", {"thing_id": {"type": ["string", "null"]}, "n": {"type": "integer"}})
    assert choose_key(only_id, [], {}, []) is None


def test_update_only_writes_are_told_by_their_verb_and_a_required_id() -> None:
    assert updated_id(tool("todo_complete", {"id": {"type": "string"}}, ["id"]), set()) == "id"
    assert updated_id(tool("edit_card", {"card_uuid": {"type": "string"}}, ["card_uuid"]), set()) == "card_uuid"
    assert updated_id(tool("edit_card", {"card_uuid": {"type": "string"}}, ["card_uuid"]), {"card_uuid"}) is None
    assert updated_id(tool("card_put", {"card_id": {"type": "string"}}, ["card_id"]), set()) is None


def test_roles_from_descriptions_and_shared_prefixes() -> None:
    assert tool("ledger_task", {}, description="Shows one task.").role == "read"
    assert tool("ledger_jot", {}, description="Keeps a jotting.").role == "write"
    assert tool("vault_filter_by_tag", {}).role == "read"
    assert tool("memory_bank_read_documents", {}).role == "read"
    assert tool("card_replace", {}).role == "write"


def test_a_shrunk_second_write_keeps_both_writes() -> None:
    first = Call("put_card", {"title": "hm00000001-title", "body": "hm00000001-body"})
    second = Call("put_card", {"title": "hm00000001-title", "body": "hm00000002-body"})
    read = Call("card_by_title", {"title": "hm00000001-title"})
    finding = ProbeFinding("probe-silent-noop", "put_card", "a second write to key 'hm00000001-title' reported "
                           "success; state unchanged", "high", "", calls=[first, read, second, read],
                           expect={"contains_any": ["hm00000002-body"]})
    shrunk = smaller(finding, "put_card", lambda candidate: True)
    assert claims_hold(shrunk, "put_card")
    assert [c.tool for c in shrunk.calls].count("put_card") == 2
    assert not claims_hold(ProbeFinding("probe-silent-noop", "put_card", "", "high", "", calls=[second, read]),
                           "put_card")


def test_a_shrunk_lost_record_keeps_a_write_before_the_read_that_showed_it() -> None:
    """"Shown earlier by a reader, gone after a later write": the read that showed the record is kept,
    and so is a write before it; without one the read would show nothing."""
    first = Call("put_card", {"slug": "hm00000001-slug", "body": "hm00000001-body"})
    read = Call("card_by_slug", {"slug": "hm00000001-slug"})
    second = Call("put_card", {"slug": "hm00000001-slug", "body": "hm00000002-body"})
    third = Call("put_card", {"slug": "hm00000001-slug", "body": "hm00000003-body"})
    finding = ProbeFinding("probe-data-lost", "put_card", "record with key 'hm00000001-slug', shown earlier by "
                           "card_by_slug, is gone after a later write", "high", "",
                           calls=[first, read, second, third, read], expect={"contains_any": ["hm00000003-body"]})
    shrunk = smaller(finding, "put_card", lambda candidate: True)
    calls = shrunk.calls
    assert calls[-1] == read and read in calls[:-1]
    assert any(c.tool == "put_card" for c in calls[:calls.index(read)]), calls
