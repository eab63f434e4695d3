"""Values the server owns (tests/servers/owned_values.py): writes that need an id a listing prints in
a markdown table, a session a create answers in prose, or a value only a description or a refusal
names are exercised when the tool is searched again with those values, and their bugs found; each
correct twin draws no finding. A write no call can make succeed names the argument that blocked it.
How values are read from answers and texts is checked on the texts themselves."""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, blind, engine, grading, one, problems, summary
from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome, parse_target
from hypothesis_mcp.model.owned import Printed, mentioned, owned_choices, value_sets
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report

WRITES = {"workshop": ("raiseTicket", {"projectKey": "projectsOverview", "severity": "description"}),
          "sessions": ("jot", {"session": "startSession"}),
          "dispatch": ("routeParcel", {"lane": "refusal"})}
_reports: dict[tuple[str, bool], Report] = {}


def store(name: str, bug: bool = False) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/owned_values.py"), "--store", name, *(["--bug"] if bug else [])]


def run(name: str, bug: bool = False) -> Report:
    if (name, bug) not in _reports:
        _reports[name, bug] = engine(store(name, bug), grading())
    return _reports[name, bug]


@pytest.mark.parametrize("name", sorted(WRITES))
def test_a_write_that_needs_a_value_the_server_owns_is_exercised_and_the_twin_draws_nothing(name: str) -> None:
    tool, sources = WRITES[name]
    report = run(name)
    assert not problems(report), summary(report)
    happy = one(report, check="happy", tool=tool)
    assert happy.status == "pass" and happy.details["valid_calls_succeeded"] > 0, summary(report)
    assert set(happy.details["owned"]) == set(sources)
    for param, source in sources.items():
        assert source in happy.details["owned"][param] and f"`{param}` drawn from" in happy.message


@pytest.mark.parametrize("name", sorted(WRITES))
def test_the_buggy_twin_is_found_with_the_values_the_server_owns(name: str) -> None:
    tool, sources = WRITES[name]
    report = run(name, bug=True)
    found = one(report, check="happy", tool=tool)
    assert (found.status, found.rule, found.confidence) == ("fail", "happy-rejected-valid-input", "high"), \
        summary(report)
    assert found.reproduction is not None and set(sources) <= set(found.reproduction.calls[-1].arguments)
    assert [r.tool for r in problems(report)] == [tool], summary(report)
    if name != "sessions":  # a session id is made anew by each server: the reproduction needs this run's
        assert replay(found, parse_target(store(name, bug=True))).still_fails
        assert not replay(found, parse_target(store(name))).still_fails


@pytest.mark.parametrize("name", ["sessions", "dispatch"])
def test_served_name_blind_the_bug_is_still_found(name: str) -> None:
    """Opaque tool names, no descriptions: what the answers print and the refusals name is enough
    (the workshop's severities are named only in a description, so that store is left out)."""
    sources = WRITES[name][1]
    report = engine(blind(store(name, bug=True)), grading())
    [found] = problems(report)
    assert (found.status, found.rule, found.confidence) == ("fail", "happy-rejected-valid-input", "high"), \
        summary(report)
    assert found.reproduction is not None and set(sources) <= set(found.reproduction.calls[-1].arguments)


def test_a_write_no_call_could_make_succeed_names_the_argument_that_blocked_it() -> None:
    report = run("dispatch")
    blocked = one(report, check="happy", tool="reserveDock")
    assert (blocked.status, blocked.rule) == ("inconclusive", "happy-tool-not-exercised")
    assert blocked.details["blocked_on"] == ["dockCode"]
    assert blocked.message.startswith("not exercised: every call was refused on `dockCode`")
    assert "not found" in blocked.message and "--arg reserveDock:dockCode=VALUE" in blocked.message


def _text(text: str) -> Outcome:
    return Outcome.from_result({"content": [{"type": "text", "text": text}]}, 0.0)


def test_values_are_read_from_tables_prose_json_and_structured_answers() -> None:
    printed = Printed()
    printed.read("overview", _text("| Key | Title |\n|---|---|\n| PRJ-7Q2 | Garden shed |\n| PRJ-4K9 | Kitchen |"))
    printed.read("open", _text("Session s-4f1c2a is open for 'ann'."))
    printed.read("list", _text('[{"bookId": 17, "name": "Dune"}]'))
    printed.read("lines", _text("owner: ann\nregion = eu-west-2"))
    printed.read("made", Outcome.from_result({"content": [], "structuredContent": {"ticket": {"ref": "T-9"}}}, 0.0))
    assert printed.candidates("projectKey")[:2] == ["PRJ-7Q2", "PRJ-4K9"]
    assert printed.candidates("book_id")[0] == 17 and printed.candidates("region")[0] == "eu-west-2"
    assert printed.candidates("ref")[0] == "T-9" and "s-4f1c2a" in printed.candidates("session")
    assert printed.source("PRJ-7Q2") == "overview" and printed.source("s-4f1c2a") == "open"
    printed.read("refused", Outcome.from_result({"content": [{"type": "text", "text": "X-1"}], "isError": True}, 0.0))
    assert "X-1" not in printed.candidates("anything")


def test_an_answer_of_bare_names_one_a_line_gives_each_name() -> None:
    """A listing that prints only names (memory-bank's `list_projects`: "probe"), words without
    digits included; a sentence of words gives none of them."""
    printed = Printed()
    printed.read("projects", _text("probe\ngarden-notes\n"))
    printed.read("write", _text("File notes written successfully"))
    assert printed.candidates("projectName") == ["probe", "garden-notes"]
    assert printed.source("garden-notes") == "projects"


@pytest.mark.parametrize(("text", "values"), [
    ("unknown lane 'x'; expected one of north, south or harbour", ["north", "south", "harbour"]),
    ('severity must be "low", "high" or "urgent".', ["low", "high", "urgent"]),
    ('{"error": "valid values: a|b|c"}', ["a", "b", "c"]),
    ("Sort by: name, date", ["name", "date"]),
])
def test_a_value_set_is_read_from_the_shape_of_a_text(text: str, values: list[str]) -> None:
    assert [found for _, found in value_sets(text)] == [values]


@pytest.mark.parametrize("text", ['{"error": "the stock room is closed"}', "project 'zz' not found",
                                  "Error: no such note", "one of them failed"])
def test_a_text_that_lists_nothing_gives_no_value_set(text: str) -> None:
    assert value_sets(text) == []


def test_a_value_set_goes_to_the_parameter_its_sentence_names() -> None:
    tool = Tool("raise", {"type": "object", "required": ["projectKey", "severity", "summary"], "properties": {
        "projectKey": {"type": "string"}, "severity": {"type": "string"}, "summary": {"type": "string"}}},
        description="Raise a ticket against a project. The severity must be one of low, high or urgent.")
    printed = Printed()
    printed.read("overview", _text("| Key |\n|---|\n| PRJ-1 |"))
    choices = owned_choices(tool, printed, ["project 'zz' not found"])
    assert choices["severity"].values == ["low", "high", "urgent"] and "description" in choices["severity"].source
    assert choices["projectKey"].values == ["PRJ-1"] and "summary" not in choices
    assert mentioned(tool, "project 'zz' not found") == ["projectKey"]
