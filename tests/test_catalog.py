"""Roles, key fields and bound parameters, on the catalogs of real servers and on the edge cases of
the effect-probe rules (read verbs, storing verbs, sending verbs, readOnlyHint/destructiveHint).

The recorded catalogs (tests/data/catalogs, written by `hypothesis-mcp tools --json`) pin what the
heuristics derive for servers people use, so a change to a verb list or a key word shows up here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hypothesis_mcp.catalog import Bound, Tool, load_catalog
from hypothesis_mcp.model.profile import profile

CATALOGS = Path(__file__).resolve().parent / "data" / "catalogs"


def recorded(name: str) -> dict[str, Tool]:
    return {t.name: t for t in load_catalog(json.loads((CATALOGS / f"{name}.json").read_text(encoding="utf-8")))}


def test_memory_server() -> None:
    tools = recorded("server-memory-2026.8.31")
    assert {n: t.role for n, t in tools.items()} == {
        "create_entities": "write", "create_relations": "write", "add_observations": "write",
        "delete_entities": "destructive", "delete_observations": "destructive", "delete_relations": "destructive",
        "read_graph": "read", "search_nodes": "read", "open_nodes": "read",
    }
    assert list(profile(tools["create_entities"]).key_fields) == ["entities[].name"]
    assert list(profile(tools["add_observations"]).key_fields) == ["observations[].entityName"]
    assert list(profile(tools["create_relations"]).key_fields) == []  # from/to/relationType: no key word
    assert all(not profile(t).bounds for t in tools.values())


def test_filesystem_server() -> None:
    tools = recorded("server-filesystem-2026.8.31")
    roles = {n: t.role for n, t in tools.items()}
    # destructiveHint: true wins over the storing verb in write_file and edit_file.
    assert {n for n, r in roles.items() if r == "destructive"} == {"write_file", "edit_file", "move_file"}
    assert {n for n, r in roles.items() if r == "write"} == {"create_directory"}
    assert all(roles[n] == "read" for n in roles if n.startswith(("read_", "list_", "search_", "get_")))
    assert list(profile(tools["read_text_file"]).bounds) == [Bound("tail", "tail", False), Bound("head", "head", False)]
    assert list(profile(tools["read_media_file"]).bounds) == []
    assert list(profile(tools["read_text_file"]).key_fields) == ["path"]
    assert list(profile(tools["read_multiple_files"]).key_fields) == []  # `paths` is not a key word


def test_git_server() -> None:
    tools = recorded("mcp-server-git-2026.10.19")
    roles = {n: t.role for n, t in tools.items()}
    assert roles["git_reset"] == "destructive"
    # No storing verb, but readOnlyHint: false and destructiveHint: false.
    assert roles["git_checkout"] == "write" and roles["git_commit"] == "write"
    assert roles["git_log"] == "read" and roles["git_status"] == "read"
    assert list(profile(tools["git_create_branch"]).key_fields) == ["repo_path", "branch_name"]


def test_sample_server() -> None:
    tools = recorded("sample-server")
    assert {n: t.role for n, t in tools.items()} == {
        "create_note": "write", "get_note": "read", "list_notes": "read", "list_tags": "read",
        "search_notes": "read", "delete_note": "destructive", "export_notes": "other",
    }
    assert list(profile(tools["create_note"]).key_fields) == ["title"]
    assert [(b.param, b.kind) for b in profile(tools["list_notes"]).bounds] == [("limit", "limit")]


def tool(name: str, properties: dict[str, Any] | None = None, **annotations: bool) -> Tool:
    return Tool.from_dict({"name": name, "annotations": annotations,
                           "inputSchema": {"type": "object", "properties": properties or {}}})


@pytest.mark.parametrize(("name", "annotations", "role"), [
    ("get_user", {}, "read"),
    ("listItems", {}, "read"),                               # camelCase is split into words
    ("get_or_create_user", {}, "write"),                     # a read verb first, but it also stores
    ("create_note", {"readOnlyHint": True}, "read"),         # readOnlyHint: true wins over the verb
    ("search_notes", {"readOnlyHint": False}, "other"),      # and readOnlyHint: false over a read verb
    ("save_note", {"destructiveHint": True}, "destructive"), # a storing verb that overwrites is never probed
    ("delete_note", {}, "destructive"),
    ("send_email", {}, "destructive"),
    ("publish-post", {}, "destructive"),
    ("sync", {"readOnlyHint": False, "destructiveHint": False}, "write"),
    ("sync", {}, "other"),
    ("sync", {"destructiveHint": True}, "destructive"),
])
def test_role_rules(name: str, annotations: dict[str, bool], role: str) -> None:
    assert tool(name, **annotations).role == role


def test_key_fields_follow_arrays_and_objects() -> None:
    props = {
        "title": {"type": "string"}, "user_id": {"type": "integer"}, "entityName": {"type": "string"},
        "names": {"type": "array", "items": {"type": "string"}},
        "items": {"type": "array", "items": {"type": "object", "properties": {"slug": {"type": "string"}}}},
        "meta": {"type": "object", "properties": {"url": {"type": "string"}, "note": {"type": "string"}}},
        "body": {"type": "string"},
    }
    assert list(profile(tool("create_thing", props)).key_fields) == ["title", "user_id", "entityName", "items[].slug",
                                                                     "meta.url"]


def test_bound_parameters() -> None:
    props = {
        "head": {"type": "integer", "minimum": 0}, "tail": {"type": "number"},
        "maxResults": {"type": "integer", "maximum": 50}, "top_k": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "limit": {"type": "string"},  # not a count
        "max": {"type": "integer"}, "count": {"type": "integer"}, "max_length": {"type": "integer"},
    }
    found = list(profile(Tool.from_dict({"name": "read_log", "inputSchema": {"type": "object", "properties": props,
                                                                              "required": ["head"]}})).bounds)
    assert found == [Bound("head", "head", True, minimum=0), Bound("tail", "tail", False),
                     Bound("maxResults", "limit", False, maximum=50), Bound("top_k", "limit", False)]


def test_key_fields_and_bounds_behind_ref_and_allof() -> None:
    """What the profile reads of the schema it reads after the normaliser: a key field reached through
    `$ref` (and an array whose items are a `$ref`), a bound that an `allOf` part holds with its range."""
    entry = {"type": "object", "properties": {"entry_key": {"$ref": "#/$defs/Slug"}}}
    paging = {"type": "object", "properties": {"limit": {"type": "integer", "minimum": 1, "maximum": 20}}}
    own = {"properties": {"slug": {"$ref": "#/$defs/Slug"},
                          "entries": {"type": "array", "items": {"$ref": "#/$defs/Entry"}}},
           "required": ["slug"]}
    schema = {"type": "object", "$defs": {"Slug": {"type": "string"}, "Entry": entry, "Paging": paging},
              "allOf": [{"$ref": "#/$defs/Paging"}, own]}
    found = profile(Tool.from_dict({"name": "saveThing", "inputSchema": schema}))
    assert list(found.key_fields) == ["slug", "entries[].entry_key"]
    assert list(found.bounds) == [Bound("limit", "limit", False, minimum=1, maximum=20)]
    assert found.required == ("slug",)
    raw = Tool.from_dict({"name": "saveThing", "inputSchema": schema})
    assert raw.properties == {}, "the raw schema holds no properties of its own: only the normalised one shows them"
