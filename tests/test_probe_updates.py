"""Update-only writes probed on a record the probe created (tests/servers/task_patches.py, item_edits.py,
memo_replaces.py): each correct twin passes with no finding; an update that drops a field it did not
touch is found at high confidence (its read showed the update's new values: the tool's role is shown),
one that answers success and keeps the old value at medium (no call of the run saw the tool change
anything, so that it should is a guess), each with a create + update + read reproduction that replays
on a fresh server, whose new id the replay takes from its answer; named and blind (tests/blind.py) the
same. A create that tells no id is inconclusive and says why. The heuristics behind it are checked
unit by unit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import blind, cli, engine, grading, item_edits, memo_replaces, one, problems, summary, task_patches
from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome, parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Binding, Call, Report, Result
from hypothesis_mcp.rules.bindings import Rebinder, find_id
from hypothesis_mcp.stateful.readers import choose_readers, looks_up
from hypothesis_mcp.stateful.updates import creator_for, record_nouns

PROFILE = grading(max_examples=12)


_reports: dict[str, Report] = {}


def probes(target: list[str]) -> Report:
    """One grading run per target for the whole module."""
    key = " ".join(target)
    if key not in _reports:
        _reports[key] = engine(target, PROFILE, probes=True, allow_writes=True)
    return _reports[key]


def tool(name: str, required: list[str] | None = None, **annotations: bool) -> Tool:
    properties = {n: {"type": "string"} for n in required or []}
    return Tool.from_dict({"name": name, "annotations": annotations,
                           "inputSchema": {"type": "object", "properties": properties, "required": required or []}})


def answer(structured: Any = None, text: str = "") -> Outcome:
    raw: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": False}
    if structured is not None:
        raw["structuredContent"] = structured
    return Outcome.from_result(raw, 0.0)


@pytest.mark.parametrize(("server", "updater", "reader"), [(task_patches(), "task_patch", "task_brief"),
                                                          (item_edits(), "item_edit", "items_list")])
def test_the_correct_twins_updates_pass(server: list[str], updater: str, reader: str) -> None:
    report = probes(server)
    assert [r for r in problems(report) if r.kind == "probe"] == [], summary(report)
    update = one(report, kind="probe", tool=updater, check="round-trip")
    assert update.status == "pass" and update.confidence == "high", update.message
    assert f"shown by {reader}" in update.message


def test_an_update_without_free_text_is_not_judged() -> None:
    """task_close takes only an id: no marker can show what it changed, so no verdict either way."""
    report = probes(task_patches())
    close = one(report, kind="probe", tool="task_close", check="round-trip")
    assert close.status == "inconclusive" and "takes no free text" in close.message
    assert "task_brief still showed the record" in close.message


@pytest.mark.parametrize(("server", "bug", "updater", "rule", "confidence"), [
    # keeps-note and keeps-title change nothing: no call can tell the update from a tool that writes
    # nothing, so that it changes records rests on a guess (task_patch's annotation and verb; item_edit's
    # schema: the uid of a record item_add made and a title it writes), which allows medium at most.
    (task_patches, "keeps-note", "task_patch", "probe-silent-noop", "medium"),
    (task_patches, "drops-title", "task_patch", "probe-data-lost", "high"),
    (item_edits, "keeps-title", "item_edit", "probe-silent-noop", "medium"),
    (item_edits, "drops-note", "item_edit", "probe-data-lost", "high"),
])
def test_a_lost_update_is_found_and_replays(server: Any, bug: str, updater: str, rule: str, confidence: str) -> None:
    report = probes(server(bug))
    found = [r for r in problems(report) if r.kind == "probe"]
    assert [(r.tool, r.rule, r.confidence) for r in found] == [(updater, rule, confidence)], summary(report)
    role = next(f for f in found[0].details["rests_on"] if f["what"].startswith(f"{updater} changes records"))
    assert role["evidence"] == ("shown" if confidence == "high" else "guessed"), found[0].details["rests_on"]
    [result] = found
    assert result.reproduction is not None and result.reproduction.fresh_server
    calls = result.reproduction.calls
    assert [c.tool for c in calls][1:] == [updater, calls[-1].tool] and calls[0].binds
    # The report's form replays on a fresh server; the correct twin's update is kept.
    again = Result.from_dict(json.loads(json.dumps(result.to_dict())))
    assert replay(again, parse_target(server(bug))).still_fails
    assert not replay(again, parse_target(server())).still_fails


@pytest.mark.parametrize(("bug", "rule", "confidence"), [("keeps-title", "probe-silent-noop", "medium"),
                                                       ("drops-note", "probe-data-lost", "high")])
def test_blind_an_update_draws_the_named_finding(bug: str, rule: str, confidence: str) -> None:
    """Served as `t1`..`t3` with no words, item_edit (`t2`) is proposed as an update by the same shape
    of its schema where no experiment shows its role (it requires the uid of a record item_add made
    and takes a title item_add writes): the same finding at the same confidence as named, and the
    message of a guessed role says what it rests on and how to make it sure."""
    named = [r for r in problems(probes(item_edits(bug))) if r.kind == "probe"]
    report = probes(blind(item_edits(bug)))
    found = [r for r in problems(report) if r.kind == "probe"]
    assert [(r.tool, r.rule, r.confidence) for r in found] == [("t2", rule, confidence)], summary(report)
    assert [(r.rule, r.confidence) for r in named] == [(rule, confidence)]
    for result, tool in ((named[0], "item_edit"), (found[0], "t2")):
        guessed = f"no call of this run saw {tool} change anything it could see"
        assert (guessed in result.message) == (confidence == "medium"), result.message
        assert ("its schema's shape: it requires uid" in result.message) == (confidence == "medium")
        assert (f"naming {tool} under `writes`" in result.message) == (confidence == "medium")


def test_a_random_id_is_taken_anew_on_replay() -> None:
    """item_edits makes random uids: the replay's update must use the fresh server's, not the run's."""
    report = probes(item_edits("keeps-title"))
    result = one(report, kind="probe", tool="item_edit", rule="probe-silent-noop")
    assert result.reproduction is not None
    run_uid = result.reproduction.calls[0].binds[0].value
    done = replay(result, parse_target(item_edits("keeps-title")))
    sent = done.steps[1][0].arguments["uid"]
    assert sent != run_uid and sent == json.loads(done.steps[0][1].text)["uid"]


def test_a_create_without_an_id_is_inconclusive_and_says_why() -> None:
    report = probes(memo_replaces())
    replace_memo = one(report, kind="probe", tool="memo_replace", check="round-trip")
    assert replace_memo.status == "inconclusive"
    assert "memo_write created one, but its answer holds no id" in replace_memo.message
    assert "--arg memo_replace:memo_id=VALUE" in replace_memo.message
    assert [r for r in problems(report) if r.kind == "probe"] == [], summary(report)


def test_cli_replay_confirms_a_lost_update(tmp_path: Path) -> None:
    run = cli(["test", "--probes", "--allow-writes", "--profile", "grading", "--max-examples", "6",
               "--json", "report.json", "--", *item_edits("keeps-title")], tmp_path)
    report = tmp_path / "report.json"
    assert report.is_file(), run
    [found] = [r for r in json.loads(report.read_text())["results"] if r["rule"] == "probe-silent-noop"]
    assert found["reproduction"]["calls"][0]["binds"][0]["names"][0] == "uid"
    again = cli(["replay", str(report), "--result", found["id"]], tmp_path)
    assert again.code == 1 and "still fails" in again.stdout, again
    fixed = cli(["replay", str(report), "--result", found["id"], "--target", " ".join(item_edits())], tmp_path)
    assert fixed.code == 0 and "now passes" in fixed.stdout, fixed


def test_the_creator_is_a_write_of_the_same_kind_of_record() -> None:
    tools = [tool("todo_create", ["text"]), tool("todo_update", ["id"]), tool("todo_complete", ["id"]),
             tool("todo_add_blocker", ["id", "blocker_id"]), tool("todo_set_blockers", ["id", "blockers"]),
             tool("todo_comment_add", ["todo_id", "body"]), tool("todo_comment_edit", ["comment_id", "body"]),
             tool("todo_list"), tool("note_write", ["title"])]
    writes = [t for t in tools if t.is_write]
    by_name = {t.name: t for t in tools}

    def creator(name: str, given: dict[str, set[str]] | None = None) -> str | None:
        updater = by_name[name]
        found = creator_for(updater, updater.required[0], writes, tools, given or {})
        return found.name if found else None

    assert creator("todo_update") == creator("todo_complete") == "todo_create"
    assert creator("todo_set_blockers") == "todo_create"  # todo_add_blocker needs a todo itself
    # A comment's id wants a comment's creator, and todo_comment_add needs a todo: none to start from.
    assert creator("todo_comment_edit") is None
    assert creator("todo_set_blockers", {"todo_add_blocker": {"id", "blocker_id"}}) == "todo_add_blocker"
    prefixed = [tool("ledger_put_task"), tool("ledger_close_task", ["task_id"]), tool("ledger_tasks")]
    assert record_nouns(prefixed[1], {"ledger"}) == {"task"}
    assert creator_for(prefixed[1], "task_id", prefixed[:2], prefixed, {}) == prefixed[0]
    same_prefix = [tool("task_new", write=True), tool("task_patch", ["task_id"]), tool("task_show", ["task_id"])]
    assert creator_for(same_prefix[1], "task_id", [same_prefix[0]], same_prefix, {}) == same_prefix[0]
    nameless = [tool("add_todo", ["text"]), tool("mark_done", ["id"]), tool("edit_todo", ["id"])]
    assert creator_for(nameless[1], "id", nameless, nameless, {}) == nameless[0]


def test_a_tool_of_no_role_that_says_it_is_read_only_reads_by_a_key_field() -> None:
    """task_patches.py's task_brief(task_id) has no verb and no annotation: its description says it is
    read-only and it requires the key field of the writes' records, so it reads them (the correct
    twin's update is "shown by task_brief" above)."""
    put = Tool.from_dict({"name": "task_put", "inputSchema": {"type": "object", "properties": {
        "task_id": {"type": "string"}, "body": {"type": "string"}}, "required": ["task_id", "body"]}})

    def described(name: str, text: str, required: list[str]) -> Tool:
        properties = {n: {"type": "string"} for n in required}
        return Tool.from_dict({"name": name, "description": text, "inputSchema": {
            "type": "object", "properties": properties, "required": required}})

    brief = described("task_brief", "One line about a task, read-only.", ["task_id"])
    archive = described("task_archive", "Moves a task out of sight.", ["task_id"])
    unrelated = described("weather_now", "Current weather; read-only.", ["city"])
    assert brief.role == archive.role == unrelated.role == "other"
    assert looks_up(brief, put) and not looks_up(archive, put) and not looks_up(unrelated, put)
    chosen = [r.tool.name for r in choose_readers(put, [put, brief, archive, unrelated], None, set())]
    assert chosen == ["task_brief"]


def test_an_id_is_found_at_the_top_one_level_down_or_next_to_a_marker() -> None:
    names = ("task_id", "id", "uuid")
    assert find_id(answer({"id": 7, "title": "x"}), names) == ("id", 7)
    assert find_id(answer({"created": {"taskId": "a1"}}), names) == ("taskId", "a1")
    assert find_id(answer(text='{"uuid": "u-9", "ok": true}'), names) == ("uuid", "u-9")
    assert find_id(answer(text="task 12 saved"), names) is None
    assert find_id(answer({"ok": True, "deep": {"more": {"id": 3}}}), names) is None
    listing = answer(text=json.dumps([{"id": "a", "title": "hm00000001-title"}, {"id": "b", "title": "other"}]))
    assert find_id(listing, names, "hm00000001-title") == ("id", "a")
    assert find_id(listing, names, "hm00000002-title") is None


def test_a_replay_puts_the_new_id_where_the_old_one_was() -> None:
    rebinder = Rebinder()
    create = Call("task_new", {"title": "hm00000001-title"}, binds=(Binding(3, ("task_id", "id")),))
    rebinder.after(create, answer({"created": {"task_id": 1}}))
    patch = rebinder.before(Call("task_patch", {"task_id": 3, "note": "hm00000002-note"}))
    assert patch.arguments == {"task_id": 1, "note": "hm00000002-note"}
    assert rebinder.before(Call("task_show", {"task_id": "3"})).arguments == {"task_id": "1"}
    assert Call.from_dict(create.to_dict()) == create
