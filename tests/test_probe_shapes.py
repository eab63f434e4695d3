"""Three store shapes that once drew a high false finding (issue 42), served by tests/servers/shape_stores.py,
each with a buggy twin: a search that finds records by their title only, a log whose appends a listing
shows as its latest line only, and a board that strips control characters from what it stores.

Each correct store draws no medium or high probe finding; each twin draws its own finding, at high
confidence, named and through the name-blind proxy (tests/blind.py); `learn` shows the same facts
either way, and what it shows of each shape is what the experiments ruled in.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from helpers import ROOT, SERVE, blind, engine, grading, summary
from hypothesis_mcp.connection import Outcome, parse_target
from hypothesis_mcp.learn import learn, learned_json
from hypothesis_mcp.results import Report, Result
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.fidelity import changes
from storegen_truth import shown_model

STORES = ("cookbook", "logbook", "pinboard")
FOUND = {"cookbook": ("probe-readers-disagree", "cookbook.lookup"),
         "logbook": ("probe-write-not-observable", "log-append"),
         "pinboard": ("probe-write-not-observable", "pin")}
"""The twin's bug: a lookup that never sees one shard of the recipes, a log line of more than 40
characters dropped, a pin lost when its text held a control character."""
FALSE = {"probe-readers-disagree", "probe-overwrite-kept-old", "probe-write-not-observable"}
PROFILE = grading(max_examples=6)

_reports: dict[tuple[str, bool, bool], Report] = {}
_learned: dict[tuple[str, bool, bool], dict[str, Any]] = {}


def store(name: str, bug: bool = False) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/shape_stores.py"), "--store", name, *(["--bug"] if bug else [])]


def served(name: str, bug: bool, opaque: bool) -> list[str]:
    return blind(store(name, bug)) if opaque else store(name, bug)


def report(name: str, bug: bool = False, opaque: bool = False) -> Report:
    if (name, bug, opaque) not in _reports:
        _reports[name, bug, opaque] = engine(served(name, bug, opaque), PROFILE, probes=True, allow_writes=True,
                                             probe_config=ProbeConfig(laws=True))
    return _reports[name, bug, opaque]


def learned(name: str, bug: bool = False, opaque: bool = False) -> dict[str, Any]:
    if (name, bug, opaque) not in _learned:
        _learned[name, bug, opaque] = learned_json(learn(parse_target(served(name, bug, opaque)), allow_writes=True))
    return _learned[name, bug, opaque]


def findings(found: Report) -> list[Result]:
    return [r for r in found.results if r.kind == "probe" and r.status in ("fail", "warn")
            and r.confidence in ("medium", "high")]


def tool(found: dict[str, Any], place: int) -> dict[str, Any]:
    return found["tools"][place]


@pytest.mark.parametrize("name", STORES)
def test_the_correct_store_draws_no_probe_finding(name: str) -> None:
    found = report(name)
    assert findings(found) == [], summary(found)
    assert any(r.kind == "probe" and r.status == "pass" for r in found.results), summary(found)


@pytest.mark.parametrize("name", STORES)
def test_the_buggy_twin_draws_its_finding_named_and_blind(name: str) -> None:
    rule, where = FOUND[name]
    named = report(name, bug=True)
    hit = [r for r in findings(named) if (r.rule, r.tool) == (rule, where)]
    assert hit and hit[0].confidence == "high", summary(named)
    assert all(f["evidence"] == "shown" for f in hit[0].details["rests_on"]), hit[0].details["rests_on"]
    assert all(r.rule not in FALSE or r.tool == where for r in findings(named)), summary(named)
    place = [t["name"] for t in learned(name)["tools"]].index(where)
    opaque = report(name, bug=True, opaque=True)
    seen = {(r.rule, r.confidence) for r in findings(opaque) if r.tool == f"t{place + 1}"}
    assert (rule, "high") in seen, summary(opaque)


@pytest.mark.parametrize(("name", "bug"), [(name, bug) for name in STORES for bug in (False, True)])
def test_learn_shows_the_same_facts_named_and_blind(name: str, bug: bool) -> None:
    assert shown_model(learned(name, bug)) == shown_model(learned(name, bug, opaque=True))


def test_a_search_found_by_its_title_only_is_bound_to_the_title() -> None:
    lookup = tool(learned("cookbook"), 1)
    assert (lookup["role"], lookup["evidence"]) == ("search", "shown")
    assert [(b["argument"], b["field"]) for b in lookup["bindings"]] == [("phrase", "title")]


def test_appends_a_listing_shows_as_one_row_are_not_taken_for_replaces() -> None:
    """log-index shows a log's latest line only, log-read every line: the second write to a log did not
    rule out an append, so neither the overwrite nor the identity is shown."""
    append = tool(learned("logbook"), 0)
    assert append["role"] == "create" and append["evidence"] == "shown"
    assert (append.get("overwrite") or {}).get("evidence") != "shown"
    assert (append.get("identity") or {}).get("evidence") != "shown"


@pytest.mark.parametrize(("written", "read", "loss"), [
    ("hm1-body\x07\x1b", "hm1-body", False),
    ("hm1-body\nsecond\tline", "hm1-bodysecondline", False),
    ("hm1-body A  B", "hm1-body a b", False),
    ("hm1-body and more", "hm1-body", True),
])
def test_stripped_control_characters_are_a_normalisation_not_a_loss(written: str, read: str, loss: bool) -> None:
    answer = Outcome.from_result({"content": [{"type": "text", "text": json.dumps(
        {"label": "hm1-label", "body": read})}]}, 0.0)
    [change] = changes({"label": "hm1-label", "body": written}, answer, {"hm1-body", "hm1-label"})
    assert change.loss is loss, change
