"""The effect-probe heuristics, unit by unit, as the effect-probe text defines them: which tools
write or read, key fields, bound parameters, which readers a write gets and how sure each is, how
a reader's arguments are filled, what counts as "skipped", and how items are counted.

No server runs here: tools come from recorded catalogs (tests/data/catalogs) or small literals.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hypothesis_mcp.catalog import Tool, load_catalog
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.rules.answers import count_items
from hypothesis_mcp.rules.expectations import from_dict
from hypothesis_mcp.stateful.bounds import builtin_relations
from hypothesis_mcp.stateful.config import Pair, parse_config
from hypothesis_mcp.stateful.readers import (
    MAX_READERS,
    Reader,
    choose_readers,
    fill_reader_args,
    first_marker,
    says_skipped,
)

CATALOGS = Path(__file__).parent / "data" / "catalogs"


def catalog(name: str) -> dict[str, Tool]:
    return {t.name: t for t in load_catalog(json.loads((CATALOGS / f"{name}.json").read_text()))}


def tool(name: str, properties: dict[str, Any] | None = None, required: list[str] | None = None,
         **annotations: bool) -> Tool:
    schema = {"type": "object", "properties": properties or {}, "required": required or []}
    return Tool.from_dict({"name": name, "inputSchema": schema, "annotations": annotations})


def text(body: str, structured: Any = None) -> Outcome:
    return Outcome(kind="result", content=[{"type": "text", "text": body}], structured=structured,
                   has_structured=structured is not None)


# --- roles -------------------------------------------------------------------------------------

def test_roles_of_the_memory_server() -> None:
    roles = {name: t.role for name, t in catalog("server-memory-2026.8.31").items()}
    assert roles == {
        "create_entities": "write", "create_relations": "write", "add_observations": "write",
        "delete_entities": "destructive", "delete_observations": "destructive", "delete_relations": "destructive",
        "read_graph": "read", "search_nodes": "read", "open_nodes": "read",
    }


@pytest.mark.parametrize(("name", "annotations", "write"), [
    ("save_note", {}, True),                                              # a storing verb
    ("record_event", {}, True),
    ("update_note", {"readOnlyHint": True}, False),                       # annotated read-only
    ("write_file", {"destructiveHint": True}, False),                     # annotated destructive
    ("sync", {"readOnlyHint": False, "destructiveHint": False}, True),    # declared a plain write
    ("sync", {"readOnlyHint": False}, False),                             # destructiveHint defaults to true
    ("send_and_save", {}, False),                                         # sends: never probed unless named
    ("publish_post", {"readOnlyHint": False, "destructiveHint": False}, False),
    ("deploy_app", {}, False),
])
def test_write_tools_follow_the_storing_verb_rule(name: str, annotations: dict[str, bool], write: bool) -> None:
    assert tool(name, **annotations).is_write is write


@pytest.mark.parametrize("name", ["delete_note", "send_email", "publish_post", "deploy_app"])
def test_deleting_and_sending_tools_are_never_called_unless_named(name: str) -> None:
    assert tool(name).is_destructive and not tool(name).is_write and not tool(name).is_read


@pytest.mark.parametrize(("name", "annotations", "read"), [
    ("get_note", {}, True), ("list_notes", {}, True), ("search_notes", {}, True), ("read_file", {}, True),
    ("graph", {"readOnlyHint": True}, True),
    ("get_or_create_note", {}, False),       # a read verb first, but it also stores
    ("list_notes", {"readOnlyHint": False}, False),
    ("kv_get", {}, True), ("note_list", {}, True), ("memory_bank_read", {}, True), ("x_read", {}, True),
    ("note_get_or_update", {}, False),      # a read verb anywhere, but it also stores
    ("kv_get", {"destructiveHint": True}, False),
])
def test_read_tools_are_annotated_or_named_with_a_read_verb(name: str, annotations: dict[str, bool],
                                                            read: bool) -> None:
    assert tool(name, **annotations).is_read is read


# --- keys and bounds -----------------------------------------------------------------------------

@pytest.mark.parametrize(("properties", "keys"), [
    ({"title": {"type": "string"}, "body": {"type": "string"}}, ["title"]),
    ({"noteId": {"type": "integer"}}, ["noteId"]),
    ({"file_name": {"type": "string"}}, ["file_name"]),           # last word "name"
    ({"name_prefix": {"type": "string"}}, []),                     # last word "prefix"
    ({"user_email": {"type": "string"}}, ["user_email"]),
    ({"entities": {"type": "array", "items": {"type": "object", "properties": {
        "name": {"type": "string"}, "entityType": {"type": "string"}}}}}, ["entities[].name"]),
    ({"body": {"type": "string"}}, []),
])
def test_key_fields_by_their_last_word(properties: dict[str, Any], keys: list[str]) -> None:
    assert list(profile(tool("create_x", properties)).key_fields) == keys


def test_bound_parameters_and_names_that_are_not_bounds() -> None:
    props = {name: {"type": "integer"} for name in (
        "head", "tail", "limit", "max_results", "top_k", "top_n", "max_items", "page_size", "per_page",
        "n_results", "num_results", "first", "last", "max", "count", "max_length")}
    props["limit"] = {"type": "integer", "minimum": 1, "maximum": 30}
    found = {b.param: b for b in profile(tool("list_x", props, required=["top_k"])).bounds}
    assert set(found) == set(props) - {"max", "count", "max_length"}
    assert found["head"].kind == "head" and found["tail"].kind == "tail" and found["top_k"].kind == "limit"
    assert found["top_k"].required and not found["limit"].required
    assert (found["limit"].minimum, found["limit"].maximum) == (1, 30)
    assert list(profile(tool("list_x", {"limit": {"type": "string"}})).bounds) == [], "only numbers bound"


def test_builtin_relations_use_the_texts_values() -> None:
    fs = catalog("server-filesystem-2026.8.31")["read_text_file"]
    rels = {c.relation.param: c for c in builtin_relations(fs, {"path": "/tmp/x"})}
    assert (rels["head"].relation.values, rels["head"].relation.expect) == ([0, 1, 2], "prefix")
    assert (rels["tail"].relation.values, rels["tail"].relation.expect) == ([0, 1, 2], "suffix")
    assert all(c.confidence == "medium" and c.basis.startswith("built-in") for c in rels.values())
    limits = tool("list_x", {"limit": {"type": "integer"}, "top_k": {"type": "integer"}}, required=["top_k"])
    rels = {c.relation.param: c.relation for c in builtin_relations(limits, {})}
    assert (rels["limit"].values, rels["limit"].expect) == ([1, 2], "exact"), "optional: exactly min(N, all)"
    assert (rels["top_k"].values, rels["top_k"].expect) == ([1, 2], "at_most"), "required: at most N"
    assert 0 not in rels["limit"].values, "limit: 0 is never tried"


# --- readers and their confidence --------------------------------------------------------------

def test_readers_sharing_a_noun_come_first_with_medium_confidence() -> None:
    tools = catalog("sample-server")
    readers = choose_readers(tools["create_note"], list(tools.values()), None, set())
    assert [(r.tool.name, r.confidence) for r in readers] == [
        ("get_note", "medium"), ("list_notes", "medium"), ("search_notes", "medium"), ("list_tags", "low")]
    assert "shares the noun 'note'" in readers[0].basis
    assert "another read tool" in readers[-1].basis


def test_a_declared_reader_is_first_and_high() -> None:
    tools = catalog("sample-server")
    pair = Pair("create_note", "list_tags", read_args={"x": "{key}"})
    readers = choose_readers(tools["create_note"], list(tools.values()), pair, {"get_note"})
    assert [(r.tool.name, r.confidence) for r in readers] == [
        ("list_tags", "high"), ("list_notes", "medium"), ("search_notes", "medium")]
    assert readers[0].basis == "declared pair create_note -> list_tags"


def test_at_most_six_readers() -> None:
    tools = catalog("server-filesystem-2026.8.31")
    readers = choose_readers(tools["create_directory"], list(tools.values()), None, set())
    assert len(readers) == MAX_READERS == 6
    assert [r.confidence for r in readers][:4] == ["medium"] * 4


def test_memory_readers_share_no_noun_so_they_are_low() -> None:
    tools = catalog("server-memory-2026.8.31")
    readers = choose_readers(tools["create_entities"], list(tools.values()), None, set())
    assert [(r.tool.name, r.confidence) for r in readers] == [
        ("read_graph", "low"), ("search_nodes", "low"), ("open_nodes", "low")]


def test_a_word_in_every_tool_name_is_a_prefix_not_a_shared_noun() -> None:
    """git_create_branch shares "git" with every git_* tool: only git_branch shares a noun with it."""
    tools = catalog("mcp-server-git-2026.10.19")
    readers = choose_readers(tools["git_create_branch"], list(tools.values()), None, set())
    assert (readers[0].tool.name, readers[0].confidence) == ("git_branch", "medium")
    assert {r.confidence for r in readers[1:]} == {"low"}


def test_a_noun_every_tool_shares_is_still_a_noun() -> None:
    """A server about one thing (every tool names a note) keeps its readers at medium confidence."""
    tools = [tool("create_note", {"title": {"type": "string"}}), tool("get_note", {"title": {"type": "string"}}),
             tool("list_notes")]
    readers = choose_readers(tools[0], tools, None, set())
    assert [(r.tool.name, r.confidence) for r in readers] == [("get_note", "medium"), ("list_notes", "medium")]


def test_memory_bank_catalog_roles_and_keys() -> None:
    """memory_bank_read has its read verb last: a reader, as a person reads the name."""
    tools = catalog("memory-bank-mcp-0.2.2")
    assert {n: t.role for n, t in tools.items()} == {
        "list_projects": "read", "list_project_files": "read", "memory_bank_read": "read",
        "memory_bank_write": "write", "memory_bank_update": "write"}
    assert list(profile(tools["memory_bank_write"]).key_fields) == ["projectName", "fileName"]


# --- filling a reader's arguments ----------------------------------------------------------------

WRITTEN = {"title": "hm0000abcd-title one", "body": "hm0000abcd-body two", "tags": ["hm0000abcd-tags"]}


def test_reader_arguments_from_the_write() -> None:
    reader = Reader(tool("search_notes", {
        "title": {"type": "string"}, "query": {"type": "string"}, "limit": {"type": "integer", "maximum": 50},
        "folder": {"type": "string"}, "tags": {"type": "array"}}, required=["folder"]), "medium", "")
    args = fill_reader_args(reader, WRITTEN, "hm0000abcd-title one", {"folder": "inbox"})
    assert args == {"title": "hm0000abcd-title one", "query": "hm0000abcd-title one", "limit": 50,
                    "folder": "inbox"}, "same-named field, key for a query, limit capped by its maximum, base"


def test_a_reader_the_experiments_showed_gets_only_the_arguments_they_showed_selecting() -> None:
    """A listing shown asked for nothing is asked for nothing: a filter by a written field it was never
    tried with would miss a record whose value the server stores changed, and that miss is no loss."""
    listing = tool("search_notes", {"title": {"type": "string"}, "query": {"type": "string"},
                                    "limit": {"type": "integer"}})
    assert fill_reader_args(Reader(listing, "high", "", selects={}), WRITTEN, "k", {}) == {"limit": 100}
    bound = Reader(listing, "high", "", selects={"query": "title"})
    assert fill_reader_args(bound, WRITTEN, "k", {}) == {"query": WRITTEN["title"], "limit": 100}


def test_plural_array_parameter_gets_the_written_name() -> None:
    reader = Reader(catalog("server-memory-2026.8.31")["open_nodes"], "low", "")
    args = fill_reader_args(reader, {"entities": [{"name": "hm0000abcd-name"}]}, "hm0000abcd-name", {})
    assert args == {"names": ["hm0000abcd-name"]}


def test_limit_like_parameter_gets_100() -> None:
    reader = Reader(tool("list_notes", {"page_size": {"type": "integer"}}), "medium", "")
    assert fill_reader_args(reader, WRITTEN, "k", {}) == {"page_size": 100}


def test_declared_read_args_substitute_key_and_marker() -> None:
    reader = Reader(tool("search_notes", {"query": {"type": "string"}}), "high", "declared",
                    {"query": "{marker}", "id": "{key}", "both": ["{key}/{marker}"], "n": 3})
    args = fill_reader_args(reader, {"id": 7, **WRITTEN}, 7, {})
    assert args == {"query": "hm0000abcd-title", "id": 7, "both": ["7/hm0000abcd-title"], "n": 3}


def test_first_marker_is_the_first_marked_field() -> None:
    assert first_marker({"n": 1, "body": "hm0000abcd-body x", "title": "hm0000abcd-title"}) == "hm0000abcd-body"
    assert first_marker({"entities": [{"name": "hm00001234-name"}]}) == "hm00001234-name"
    assert first_marker({"title": "plain"}) is None


# --- what a write's answer says, and counting items ----------------------------------------------

@pytest.mark.parametrize(("answer", "skipped"), [
    ("Skipped 1 entity that already exists", True),
    ("Note 'x' already exists", True),
    ("unchanged", True),
    ("duplicate title, nothing stored", True),
    ('{"created": [], "skipped": ["x"]}', True),
    ('{"created": ["x"], "skipped": []}', False),     # an empty skipped list does not count
    ("Created note 'x'", False),
    ("Updated record 'x'.", False),
])
def test_an_answer_that_says_it_skipped(answer: str, skipped: bool) -> None:
    assert says_skipped(text(answer)) is skipped


def test_items_counted_from_structured_then_json_then_lines() -> None:
    assert count_items(text("a\nb\nc", structured={"notes": [1, 2]})) == (2, "items")
    assert count_items(text("a\nb\nc", structured=[1])) == (1, "items")
    assert count_items(text(json.dumps({"records": [1, 2, 3, 4]}))) == (4, "items")
    assert count_items(text(json.dumps([1, 2, 3, 4, 5]))) == (5, "items")
    assert count_items(text("a\nb\nc")) == (3, "lines")
    two_lists = text("a\nb", structured={"left": [1], "right": [2]})
    assert count_items(two_lists) == (2, "lines"), "an object with two lists is no list of items"
    assert count_items(text("a\nb", structured={"notes": [1, 2, 3]}), "lines") == (2, "lines")


# --- probe configs -------------------------------------------------------------------------------

@pytest.mark.parametrize(("data", "place"), [
    ({"allow_writes": True}, "allow_writes"),
    ({"colour": 1}, "unknown key"),
    ({"pairs": [{"write": "create_note"}]}, "pairs[0].read"),
    ({"pairs": [{"write": "a", "read": "b", "key": 3}]}, "pairs[0].key"),
    ({"relations": [{"tool": "t", "param": "limit", "values": [1], "expect": "most"}]}, "relations[0].expect"),
    ({"relations": [{"tool": "t", "param": "limit", "values": [1], "unit": "pages"}]}, "relations[0].unit"),
    ({"agreements": [{"left": {"tool": "a"}, "right": {"args": {}}}]}, "agreements[0].right"),
    ({"idempotent": [{"tool": "a", "argz": {}}]}, "idempotent[0]"),
    ({"builtins": "no"}, "builtins"),
    ({"laws": "yes"}, "laws"),
    ({"writes": "create_note"}, "writes"),
])
def test_a_bad_config_names_the_place(data: dict[str, Any], place: str) -> None:
    with pytest.raises(UsageError, match=place.replace("[", r"\[").replace("]", r"\]")):
        parse_config(data)


def test_every_config_key_parses() -> None:
    config = parse_config({
        "args": {"*": {"path": "/x"}}, "builtins": False, "laws": True, "writes": ["sync"], "exclude": ["delete_note"],
        "pairs": [{"write": "create_note", "read": "search_notes", "read_args": {"query": "{key}"},
                   "write_args": {"tags": []}, "key": "title"}],
        "relations": [{"tool": "list_notes", "param": "limit", "values": [1, 3], "expect": "exact"}],
        "agreements": [{"left": {"tool": "search_notes", "args": {"query": ""}, "field": "title"},
                        "right": {"tool": "list_notes"}, "expect": "equal"}],
        "idempotent": [{"tool": "list_notes", "args": {"limit": 5}}],
    })
    assert config.args == {"*": {"path": "/x"}} and config.builtins is False and config.laws is True
    assert parse_config({}).laws is False
    assert (config.writes, config.exclude) == (["sync"], ["delete_note"])
    assert config.pairs[0].key == ["title"] and config.pairs[0].write_args == {"tags": []}
    assert config.relations[0].id == "list_notes-limit"
    assert config.agreements[0].expect == "equal" and config.agreements[0].left.field == "title"
    assert config.idempotent[0].args == {"limit": 5}


def test_declared_agreement_and_idempotent_expectations_replay() -> None:
    """What a replay judges for probe-paths-disagree (left call, then right) and
    probe-not-idempotent (the same call twice)."""
    three = text("", structured={"notes": [{"title": "a"}, {"title": "b"}, {"title": "c"}]})
    one_note = text("", structured={"notes": [{"title": "a"}]})
    subset = {"agree": "subset", "left_field": "title", "right_field": "title"}
    assert from_dict(subset).holds(three, one_note) and not from_dict(subset).holds(one_note, three)
    assert not from_dict({**subset, "agree": "equal"}).holds(three, one_note)
    assert from_dict({"same_as_previous": True}).holds(three, three)
    assert not from_dict({"same_as_previous": True}).holds(one_note, three)


# --- readers found as a person would find them, fidelity of a read -------------------------------

def test_a_description_that_says_it_reads_makes_a_reader() -> None:
    def described(name: str, text: str) -> Tool:
        return Tool.from_dict({"name": name, "inputSchema": {"type": "object"}, "description": text})

    assert described("recent_notes", "Lists the newest notes.").is_read
    assert described("profile_lookup", "Fetches one profile by username.").is_read
    assert not described("note_save", "Lists nothing; keeps a note.").is_read   # a storing verb wins
    assert not described("notes", "Deletes old notes.").is_read


def test_readers_share_nouns_in_any_place_and_by_stem() -> None:
    tools = [tool("doc_put"), tool("doc_get"), tool("notebook_read"), tool("x_read")]
    readers = {r.tool.name: r.confidence for r in choose_readers(tools[0], tools, None, set())}
    assert readers == {"doc_get": "medium", "notebook_read": "low", "x_read": "low"}
    note = tool("note_save")
    by_stem = {r.tool.name: r.confidence for r in choose_readers(note, [note, *tools], None, set())}
    assert by_stem["notebook_read"] == "medium"


def test_a_pair_without_read_args_is_filled_like_any_reader() -> None:
    config = parse_config({"pairs": [{"write": "kv_set", "read": "kv_get"}]})
    assert config.pairs[0].read_args is None
    reader = Reader(tool("kv_get", properties={"slug": {"type": "string"}}), "high", "declared", None)
    assert fill_reader_args(reader, {"slug": "hm00000001-slug"}, "hm00000001-slug", {}) == {"slug": "hm00000001-slug"}


def _json_read(payload: Any) -> Outcome:
    return Outcome(kind="result", content=[{"type": "text", "text": json.dumps(payload)}])


def test_value_changes_are_losses_or_normalisations() -> None:
    from hypothesis_mcp.stateful.fidelity import changes

    written = {"slug": "hm00000001-slug", "bio": "hm00000001-bio" + "x" * 300, "points": 5000,
               "tags": ["hm00000001-tags", "hm00000001-tagsA"]}
    tokens = {"hm00000001-bio", "hm00000001-tags"}
    shown = {**written, "bio": written["bio"][:120], "points": 1000, "tags": [], "id": 7}
    found = {c.field: c for c in changes(written, _json_read({"items": [shown]}), tokens)}
    assert set(found) == {"bio", "points", "tags"} and all(c.loss for c in found.values())
    assert found["bio"].message.endswith("cut from 314 to 120 characters")
    assert not changes(written, _json_read([written | {"id": 7, "created": "now"}]), tokens)
    cased = changes(written, _json_read([{**written, "bio": written["bio"].upper() + " "}]), tokens)
    assert [(c.field, c.loss) for c in cased] == [("bio", False)]
    folded = changes(written, _json_read([{**written, "bio": written["bio"].replace("bio", "bio\n\n") + "\n"}]), tokens)
    assert [(c.field, c.loss) for c in folded] == [("bio", False)]
    one_line = {"slug": "hm00000001-slug", "bio": "hm00000001-bio\n\nsecond line\n"}
    folded = changes(one_line, _json_read([{**one_line, "bio": "hm00000001-bio  second line"}]), tokens)
    assert [(c.field, c.loss) for c in folded] == [("bio", False)]
    cut = changes(one_line, _json_read([{**one_line, "bio": "hm00000001-bio"}]), tokens)
    assert [(c.field, c.loss) for c in cut] == [("bio", True)]


def test_labels_read_back_as_a_set_hold_every_value() -> None:
    """Regression: a list of labels with a duplicate or a blank item, read back with the duplicate
    merged and the blank dropped, was reported as items lost (three stores keep tags as a set)."""
    from hypothesis_mcp.stateful.fidelity import changes

    written = {"title": "hm00000001-title", "labels": ["b", "", "a", "a", "\u00a0"]}
    tokens = {"hm00000001-title"}
    assert not changes(written, _json_read([{**written, "labels": ["a", "b"]}]), tokens)
    dropped = changes(written, _json_read([{**written, "labels": ["a"]}]), tokens)
    assert [(c.field, c.loss) for c in dropped] == [("labels", True)]
    defaulted = {"title": "hm00000001-title", "scope": "", "labels": []}
    assert not changes(defaulted, _json_read([{**defaulted, "scope": "main", "labels": ["new"]}]), tokens)
    numbers = {"title": "hm00000001-title", "scores": [1, 1]}
    assert [c.field for c in changes(numbers, _json_read([{**numbers, "scores": [1]}]), tokens)] == ["scores"]


def test_a_boolean_read_back_as_written_is_no_loss() -> None:
    """Regression: the laws machine took every boolean read back as written for a loss, so each of
    its examples on a store with a boolean field broke at its first write on the warm server."""
    from hypothesis_mcp.stateful.fidelity import lost

    assert not lost(False, False) and not lost(True, True) and not lost(True, "true")
    assert lost(True, False) and lost(False, True)


def test_items_of_one_write_are_compared_with_their_own_record() -> None:
    """Regression: the relations of one write share a marker; one was compared with its neighbour
    and reported as cut (server-memory create_relations)."""
    from hypothesis_mcp.stateful.fidelity import changes

    written = {"relations": [{"from": "hm00000001-fromA", "to": "hm00000001-toLonger"},
                             {"from": "hm00000001-fromB", "to": "hm00000001-to"}]}
    tokens = {"hm00000001-from", "hm00000001-to"}
    assert not changes(written, _json_read({"relations": written["relations"]}), tokens)


def test_a_shown_record_answering_an_error_later_is_lost() -> None:
    expect = from_dict({"contains_any": ["hm00000001-body"], "answered": True})
    missing = Outcome(kind="result", content=[{"type": "text", "text": "not found"}], is_error=True)
    assert not expect.holds(missing)
    assert expect.holds(Outcome(kind="timeout"))
    assert from_dict({"contains_any": ["hm00000001-body"]}).holds(missing)


def test_an_integer_past_double_precision_read_back_as_the_same_double_is_unchanged() -> None:
    """A reader that holds a JSON number as a double (most do) shows 2**59 - 1 as 5.764607523034235e+17:
    the same number to it, no normalisation; a value that moves as a double still does."""
    from hypothesis_mcp.stateful.fidelity import change

    assert change("miles", 2**59 - 1, float(2**59 - 1)) is None
    moved = change("price", 12.125, 12.13)
    assert moved is not None and moved.loss


def test_an_integer_past_the_largest_double_is_compared_not_crashed_on() -> None:
    """float() of an integer past 1.8e308 raises: a store that reads such a number back otherwise has
    lost it, and one that reads it back whole has not."""
    from hypothesis_mcp.stateful.fidelity import change

    moved = change("count", 10**400, 10**400 + 1)
    assert moved is not None and moved.loss
    assert change("count", 10**400, 10**400) is None
