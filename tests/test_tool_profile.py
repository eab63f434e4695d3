"""The tool profile as a table: roles read from names in every naming style (the verb by its
position, never a verb word elsewhere), annotations and descriptions, and the fields a profile
names (identity candidates, free text, bounds, cursors, ids in answers)."""

from __future__ import annotations

from typing import Any

import pytest

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.vocabulary import words

RO = {"readOnlyHint": True}
PLAIN_WRITE = {"readOnlyHint": False, "destructiveHint": False}
DESTRUCTIVE = {"destructiveHint": True}

# (name, annotations, description, profile role, may probes write through it)
TABLE: list[tuple[str, dict[str, bool], str | None, str, bool]] = [
    # the misreads the position rule exists for
    ("get_record", {}, None, "read", False),
    ("read_record", {}, None, "read", False),
    ("get_latest_update", {}, None, "read", False),
    ("show_update", {}, None, "read", False),
    ("get_post", {}, None, "read", False),
    ("fetch_email", {}, None, "read", False),
    ("list_links", {}, None, "list", False),
    ("list_link", {}, None, "list", False),
    ("record_delete", {}, None, "delete", False),
    ("record_event", {}, None, "write", True),
    ("update_record", {}, None, "update", True),
    ("post_message", {}, None, "other", False),
    ("email_send", {}, None, "other", False),
    ("search_updates", {}, None, "search", False),
    ("count_posts", {}, None, "count", False),
    ("view_link", {}, None, "read", False),
    ("check_update", {}, None, "read", False),
    ("show_deleted_items", {}, None, "read", False),
    ("get_store", {}, None, "read", False),
    ("list_saved_searches", {}, None, "list", False),
    # snake_case
    ("create_note", {}, None, "create", True),
    ("add_item", {}, None, "create", True),
    ("insert_row", {}, None, "create", True),
    ("append_entry", {}, None, "create", True),
    ("enqueue_job", {}, None, "create", True),
    ("save_note", {}, None, "write", True),
    ("put_object", {}, None, "write", True),
    ("store_memory", {}, None, "write", True),
    ("upsert_contact", {}, None, "write", True),
    ("edit_note", {}, None, "update", True),
    ("rename_file", {}, None, "update", True),
    ("complete_todo", {}, None, "update", True),
    ("mark_done", {}, None, "update", True),
    ("delete_note", {}, None, "delete", False),
    ("remove_tag", {}, None, "delete", False),
    ("purge_cache", {}, None, "delete", False),
    ("send_email", {}, None, "other", False),
    ("publish_post", {}, None, "other", False),
    ("deploy_app", {}, None, "other", False),
    ("list_notes", {}, None, "list", False),
    ("search_notes", {}, None, "search", False),
    ("find_user", {}, None, "search", False),
    ("query_records", {}, None, "search", False),
    ("count_tasks", {}, None, "count", False),
    ("describe_table", {}, None, "read", False),
    ("fetch_page", {}, None, "read", False),
    ("get_or_create_user", {}, None, "create", True),
    ("send_and_save", {}, None, "other", False),
    # a prefix before the verb, or the verb last
    ("kv_get", {}, None, "read", False),
    ("kv_put", {}, None, "write", True),
    ("note_list", {}, None, "list", False),
    ("memory_bank_read", {}, None, "read", False),
    ("memory_bank_write", {}, None, "write", True),
    ("memory_bank_read_documents", {}, None, "read", False),
    ("git_create_branch", {}, None, "create", True),
    ("todo_set_blockers", {}, None, "update", True),
    ("task_mark_done", {}, None, "update", True),
    ("note_get_or_update", {}, None, "update", True),
    ("job_enqueue", {}, None, "create", True),
    ("task_new", {}, None, "create", True),
    ("profile_lookup", {}, None, "search", False),
    ("vault_filter_by_tag", {}, None, "search", False),
    ("ledger_close_task", {}, None, "update", True),
    ("doc_remove", {}, None, "delete", False),
    # camelCase and PascalCase
    ("getRecord", {}, None, "read", False),
    ("createNote", {}, None, "create", True),
    ("listItems", {}, None, "list", False),
    ("enqueueJob", {}, None, "create", True),
    ("notesSearch", {}, None, "search", False),
    ("updateRecordTitle", {}, None, "update", True),
    ("deleteAllNotes", {}, None, "delete", False),
    ("GetLatestUpdate", {}, None, "read", False),
    ("fetchHTTPHeaders", {}, None, "read", False),
    ("recordDelete", {}, None, "delete", False),
    ("countOpenTickets", {}, None, "count", False),
    ("saveUserPrefs", {}, None, "write", True),
    # kebab-case
    ("create-note", {}, None, "create", True),
    ("get-note", {}, None, "read", False),
    ("list-notes", {}, None, "list", False),
    ("publish-post", {}, None, "other", False),
    ("store-fact", {}, None, "write", True),
    ("search-facts", {}, None, "search", False),
    # dotted
    ("notes.create", {}, None, "create", True),
    ("notes.get", {}, None, "read", False),
    ("notes.list", {}, None, "list", False),
    ("queue.enqueue", {}, None, "create", True),
    ("queue.peek", {}, None, "read", False),
    ("kv.set", {}, None, "update", True),
    ("records.delete", {}, None, "delete", False),
    ("records.count", {}, None, "count", False),
    ("shelf.books.add", {}, None, "create", True),
    # annotations decide over the name
    ("create_note", RO, None, "read", False),
    ("search_notes", {"readOnlyHint": False}, None, "search", False),
    ("save_note", DESTRUCTIVE, None, "delete", False),
    ("sync", PLAIN_WRITE, None, "write", True),
    ("sync", {}, None, "other", False),
    ("sync", DESTRUCTIVE, None, "delete", False),
    ("graph", RO, None, "read", False),
    ("kv_get", DESTRUCTIVE, None, "delete", False),
    ("git_status", RO, None, "read", False),
    ("git_checkout", PLAIN_WRITE, None, "write", True),
    # no verb in the name: the description's first verb
    ("recent_notes", {}, "Lists the newest notes.", "list", False),
    ("ledger_task", {}, "Shows one task.", "read", False),
    ("ledger_jot", {}, "Keeps a jotting.", "write", True),
    ("notes", {}, "Deletes old notes.", "other", False),
    ("profile_by_name", {}, "Fetches one profile by username.", "read", False),
    ("jotter", {}, "Stores a jotting for later.", "write", True),
    ("archive", {}, "Creates an archive entry.", "create", True),
    ("tally", {}, None, "count", False),
    ("note_save", {}, "Lists nothing; keeps a note.", "write", True),
    ("widgets", {}, "The widgets of the shop.", "other", False),
    ("export_notes", {}, None, "other", False),
]


def tool(name: str, annotations: dict[str, bool] | None = None, description: str | None = None,
         properties: dict[str, Any] | None = None, required: list[str] | None = None,
         output: dict[str, Any] | None = None, **schema: Any) -> Tool:
    data: dict[str, Any] = {"name": name, "annotations": annotations or {},
                            "inputSchema": {"type": "object", "properties": properties or {},
                                            "required": required or [], **schema}}
    if description is not None:
        data["description"] = description
    if output is not None:
        data["outputSchema"] = output
    return Tool.from_dict(data)


def test_the_table_is_large_and_varied() -> None:
    assert len(TABLE) >= 100
    styles = {"camel": any(c.isupper() for n, *_ in TABLE for c in n), "kebab": any("-" in n for n, *_ in TABLE),
              "dotted": any("." in n for n, *_ in TABLE)}
    assert all(styles.values())


@pytest.mark.parametrize(("name", "annotations", "description", "role", "writes"), TABLE)
def test_roles_by_position(name: str, annotations: dict[str, bool], description: str | None, role: str,
                           writes: bool) -> None:
    found = tool(name, annotations, description)
    assert profile(found).role == role, profile(found).roles
    assert found.is_write is writes
    assert profile(found).roles[0].evidence  # every guess says what it was read from


def test_destructive_and_sending_tools_are_never_written_through() -> None:
    for name in ("get_post", "fetch_email", "get_latest_update", "show_update", "read_record"):
        assert not tool(name).is_destructive, name
    for name in ("delete_note", "post_message", "record_delete", "notes.delete", "sendEmail"):
        assert tool(name).is_destructive and not tool(name).is_write, name


def test_evidence_names_the_word_and_its_place() -> None:
    assert profile(tool("kv_get")).evidence() == "the verb 'get' (last word of 'kv_get')"
    assert profile(tool("get_latest_update")).evidence() == "the verb 'get' (first word of 'get_latest_update')"
    assert "annotated readOnlyHint: true" in profile(tool("create_note", RO)).evidence()
    assert "description" in profile(tool("ledger_task", {}, "Shows one task.")).evidence()


@pytest.mark.parametrize(("name", "split"), [
    ("getRecord", ["get", "record"]), ("fetchHTTPHeaders", ["fetch", "http", "headers"]),
    ("notes.create", ["notes", "create"]), ("publish-post", ["publish", "post"]),
    ("memory_bank_read", ["memory", "bank", "read"]), ("GetLatestUpdate", ["get", "latest", "update"]),
])
def test_names_split_in_every_style(name: str, split: list[str]) -> None:
    assert words(name) == split


def test_identity_candidates_are_filled_fields_whatever_their_name() -> None:
    """Required scalar fields are candidates however they are named; identity words rank first."""
    found = profile(tool("enqueue_job", properties={"payload": {"type": "string"}, "queue": {"type": "string"},
                                                    "priority": {"type": "integer"}},
                         required=["queue", "payload"]))
    assert set(found.identity) == {"queue", "payload"}
    keyed = profile(tool("put_book", properties={"isbn13": {"type": "string"}, "title": {"type": "string"},
                                                 "blurb": {"type": "string"}}, required=["isbn13", "blurb"]))
    assert keyed.identity[0] == "title" and "isbn13" in keyed.identity and "blurb" in keyed.identity


def test_the_profile_follows_refs_and_all_of() -> None:
    found = profile(tool("create_note", properties={"title": {"$ref": "#/$defs/Title"},
                                                    "body": {"allOf": [{"type": "string"}, {"minLength": 1}]}},
                         required=["title"], **{"$defs": {"Title": {"type": "string", "maxLength": 80}}}))
    assert found.identity == ("title",)
    assert set(found.free_text) == {"title", "body"}


def test_free_text_bounds_cursors_and_answer_ids() -> None:
    found = profile(tool(
        "list_notes",
        properties={"query": {"type": "string"}, "limit": {"type": "integer", "maximum": 50},
                    "cursor": {"type": "string"}, "pageToken": {"type": "string"}, "head": {"type": "integer"},
                    "status": {"type": "string", "enum": ["open", "done"]}, "comment": {"type": "string"}},
        output={"type": "object", "properties": {"noteId": {"type": "string"}, "items": {"type": "array"}}}))
    assert [(b.param, b.kind) for b in found.bounds] == [("limit", "limit"), ("head", "head")]
    assert set(found.cursors) == {"cursor", "pageToken"}
    assert found.free_text == ("comment",)
    assert found.answer_ids == ("noteId",)
