"""Smoke mode end to end: the smoke demo, the smoke_bugs servers and their correct twin.

Each engine configuration runs once (module-scoped fixtures, grading profile) and many tests read
the same report. The smoke_bugs servers carry bugs that one fixed smoke call misses: every bug
test also makes that fixed call itself and shows it passes, while the generated search finds the
bug and shrinks it to the documented minimal arguments.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from helpers import (
    engine,
    grading,
    http_server,
    one,
    problems,
    results,
    sample,
    smoke_bug_run,
    smoke_bugs,
    smoke_check,
    smoke_demo,
    summary,
)
from hypothesis_mcp import connect
from hypothesis_mcp.results import Report
from hypothesis_mcp.stateful.config import ProbeConfig

STRUCTURED, INVALID, UNKNOWN = "smoke_structured_content", "smoke_invalid_arguments", "smoke_unknown_tool"
DEMO_TOOLS = ("honest", "dishonest", "sloppy", "writer")
SMOKE_BUG_TOOLS = ("count_items", "square", "score_label", "greeting", "echo")


@pytest.fixture(scope="module")
def demo() -> Report:
    return engine(smoke_demo(), smoke=True)


@pytest.fixture(scope="module")
def demo_call_all() -> Report:
    return engine(smoke_demo(), smoke=True, call_all=True)


@pytest.fixture(scope="module")
def demo_no_smoke() -> Report:
    return engine(smoke_demo())


@pytest.fixture(scope="module")
def demo_over_http() -> Report:
    with http_server(smoke_demo()) as url:
        return engine(url, smoke=True)


@pytest.fixture(scope="module")
def twin() -> Report:
    return engine(smoke_bugs(), smoke=True)


def bug_report(bug: str) -> Report:
    """One grading smoke run per bug, shared by every test of that bug (and by test_replay.py)."""
    return smoke_bug_run(bug)


# --- the smoke demo ----------------------------------------------------------------------------

def test_demo_verdicts_follow_its_readme(demo: Report) -> None:
    expected = {
        (STRUCTURED, "honest"): "pass", (STRUCTURED, "dishonest"): "fail", (STRUCTURED, "sloppy"): "skip",
        (STRUCTURED, "writer"): "skip", (INVALID, "honest"): "pass", (INVALID, "dishonest"): "pass",
        (INVALID, "sloppy"): "fail", (INVALID, "writer"): "skip", (UNKNOWN, None): "pass",
    }
    got = {(c["check_id"], c["tool_name"]): c["verdict"] for c in demo.smoke.checks}
    assert got == expected, summary(demo)
    assert demo.smoke.executed and demo.smoke.reason is None and demo.smoke.call_all is False
    assert (demo.smoke.passed, demo.smoke.failed, demo.smoke.skipped) == (4, 2, 3)
    assert (demo.smoke.tools_called, demo.smoke.tools_total) == (3, 4)


def test_demo_failures_say_why(demo: Report) -> None:
    dishonest = smoke_check(demo, STRUCTURED, "dishonest")
    assert "'result' is a required property" in dishonest["message"]
    sloppy = smoke_check(demo, INVALID, "sloppy")
    assert "accepted schema-invalid arguments" in sloppy["message"]
    for result in (one(demo, kind="smoke", check=STRUCTURED, tool="dishonest"),
                   one(demo, kind="smoke", check=INVALID, tool="sloppy")):
        assert result.status == "fail" and result.confidence == "high"
        assert result.reproduction is not None and len(result.reproduction.calls) == 1
        assert result.reproduction.calls[0].tool == result.tool
        assert result.fix, "a failure carries a fix hint"


def test_demo_writer_is_skipped_without_call_all(demo: Report) -> None:
    for check in (STRUCTURED, INVALID):
        writer = smoke_check(demo, check, "writer")
        assert writer["verdict"] == "skip"
        assert "--call-all" in writer["message"]
        assert writer["details"]["called"] is False
    assert "no outputSchema" in smoke_check(demo, STRUCTURED, "sloppy")["message"]


def test_demo_unknown_tool_is_a_protocol_error(demo: Report) -> None:
    unknown = smoke_check(demo, UNKNOWN, None)
    assert unknown["verdict"] == "pass"
    assert "-32602" in unknown["message"]
    name = unknown["details"]["tool_name_called"]
    assert name not in DEMO_TOOLS


def test_demo_with_call_all_calls_the_writer(demo_call_all: Report) -> None:
    smoke = demo_call_all.smoke
    assert smoke.call_all is True
    assert (smoke.tools_called, smoke.tools_total) == (4, 4)
    assert (smoke.passed, smoke.failed, smoke.skipped) == (5, 2, 2)
    assert smoke_check(demo_call_all, INVALID, "writer")["verdict"] == "pass"
    structured = smoke_check(demo_call_all, STRUCTURED, "writer")
    assert structured["verdict"] == "skip" and "no outputSchema" in structured["message"]
    assert smoke_check(demo_call_all, UNKNOWN, None)["verdict"] == "pass"


def test_smoke_checks_run_in_the_documented_order(demo: Report) -> None:
    """Every structured-content check, then every invalid-arguments check, then the unknown tool;
    tools in catalog order."""
    order = [(c["check_id"], c["tool_name"]) for c in demo.smoke.checks]
    assert order == [*((STRUCTURED, t) for t in DEMO_TOOLS), *((INVALID, t) for t in DEMO_TOOLS), (UNKNOWN, None)]


def test_smoke_json_section_has_the_contract_keys(demo: Report) -> None:
    section = demo.to_dict()["smoke"]
    assert set(section) >= {"executed", "reason", "call_all", "summary", "coverage", "checks"}
    assert section["summary"] == {"passed": 4, "failed": 2, "skipped": 3}
    assert section["coverage"] == {"tools_called": 3, "tools_total": 4}
    for check in section["checks"]:
        assert set(check) >= {"check_id", "tool_name", "verdict", "message", "details"}
        assert check["verdict"] in ("pass", "fail", "skip")
        assert check["details"]["basis"], check
        assert isinstance(check["details"]["called"], bool), check


def test_smoke_stays_out_of_the_score(demo: Report, demo_no_smoke: Report) -> None:
    assert demo.score == demo_no_smoke.score
    assert demo.grade == demo_no_smoke.grade
    assert demo.subscores == demo_no_smoke.subscores


def test_smoke_not_requested_is_reported_not_omitted(demo_no_smoke: Report) -> None:
    section = demo_no_smoke.to_dict()["smoke"]
    assert section["executed"] is False
    assert "--smoke" in section["reason"]
    assert section["checks"] == []
    assert not [r for r in demo_no_smoke.results if r.kind == "smoke"]


def test_demo_over_streamable_http(demo: Report, demo_over_http: Report) -> None:
    got = {(c["check_id"], c["tool_name"]): c["verdict"] for c in demo_over_http.smoke.checks}
    want = {(c["check_id"], c["tool_name"]): c["verdict"] for c in demo.smoke.checks}
    assert got == want, summary(demo_over_http)
    assert (demo_over_http.smoke.tools_called, demo_over_http.smoke.tools_total) == (3, 4)
    assert demo_over_http.target.startswith("http://127.0.0.1:")
    assert "shared server" in demo_over_http.isolation


# --- smoke_bugs: the correct twin --------------------------------------------------------------

def test_twin_has_no_smoke_failure(twin: Report) -> None:
    assert twin.smoke.executed
    assert twin.smoke.failed == 0, summary(twin)
    assert (twin.smoke.passed, twin.smoke.skipped) == (2 * len(SMOKE_BUG_TOOLS) + 1, 0)
    assert (twin.smoke.tools_called, twin.smoke.tools_total) == (5, 5)
    assert problems(twin) == [], summary(twin)


# --- smoke_bugs: each bug, found by generated calls that one fixed call misses ----------------

def _fixed_valid_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    """What the smoke text's single fixed call sends: default, const, first example, first enum,
    then a zero value for the type."""
    zero = {"string": "", "integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}
    args = {}
    for name in schema.get("required", []):
        prop = schema["properties"][name]
        for key in ("default", "const"):
            if key in prop:
                args[name] = prop[key]
                break
        else:
            if prop.get("examples"):
                args[name] = prop["examples"][0]
            elif prop.get("enum"):
                args[name] = prop["enum"][0]
            else:
                args[name] = zero[prop["type"]]
    return args


def _wrong_type(schema: dict[str, Any]) -> dict[str, Any]:
    """The smoke text's single invalid call: a wrong type for the first required property."""
    name = schema["required"][0]
    kind = schema["properties"][name].get("type")
    return {name: 12345 if kind == "string" else "not the right type"}


STRUCTURED_BUGS = {
    # bug: (tool, minimal arguments the search shrinks to, field that breaks the output schema)
    "long-list": ("count_items", {"items": ["", "", "", ""]}, "count"),
    "big-number": ("square", {"n": 1001}, "square"),
}


@pytest.mark.parametrize("bug", sorted(STRUCTURED_BUGS))
def test_output_schema_bug_found_and_shrunk(bug: str) -> None:
    tool, minimal, field = STRUCTURED_BUGS[bug]
    report = bug_report(bug)
    check = smoke_check(report, STRUCTURED, tool)
    assert check["verdict"] == "fail", summary(report)
    assert check["details"]["arguments"] == minimal
    assert check["details"]["keyword"] == "type"
    assert f"/{field}" in check["message"]
    result = one(report, kind="smoke", check=STRUCTURED, tool=tool)
    assert result.reproduction is not None
    assert [(c.tool, c.arguments) for c in result.reproduction.calls] == [(tool, minimal)]
    assert result.reproduction.fresh_server is False
    # Only this one check fails; the other tools and the other checks pass.
    assert report.smoke.failed == 1 and report.smoke.skipped == 0, summary(report)
    assert [c for c in report.smoke.checks if c["verdict"] == "fail"] == [check]
    # One fixed call would have missed it; the minimal generated call shows it.
    with connect(smoke_bugs(bug)) as server:
        spec = server.tool(tool)
        fixed = server.call(tool, _fixed_valid_arguments(spec.input_schema))
        assert fixed.ok and fixed.has_structured
        jsonschema.validate(fixed.structured, spec.output_schema)
        found = server.call(tool, minimal)
        assert found.ok
        assert not jsonschema.Draft202012Validator(spec.output_schema).is_valid(found.structured)


def test_output_schema_break_is_found_past_valid_arguments_refused_as_invalid() -> None:
    """square refuses n = 0 with -32602 (the happy check fails that) and breaks its output schema
    above 1000: the smoke check goes on past the refusal and still finds the break."""
    report = bug_report("picky-big-number")
    check = smoke_check(report, STRUCTURED, "square")
    assert check["verdict"] == "fail", summary(report)
    assert check["details"]["arguments"] == {"n": 1001} and "/square" in check["message"]
    happy = one(report, kind="scenario", check="happy", tool="square")
    assert happy.status == "fail" and "-32602" in happy.message


INVALID_BUGS = {
    # bug: (tool, keywords the minimal invalid arguments may break)
    "range-unchecked": ("score_label", {"minimum", "maximum"}),
    "enum-unchecked": ("greeting", {"enum"}),
    "extra-props": ("echo", {"additionalProperties"}),
}


@pytest.mark.parametrize("bug", sorted(INVALID_BUGS))
def test_validation_bug_found_by_generated_invalid_arguments(bug: str) -> None:
    tool, keywords = INVALID_BUGS[bug]
    report = bug_report(bug)
    check = smoke_check(report, INVALID, tool)
    assert check["verdict"] == "fail", summary(report)
    assert check["details"]["keyword"] in keywords
    minimal = check["details"]["arguments"]
    assert report.smoke.failed == 1 and report.smoke.skipped == 0, summary(report)
    assert [c for c in report.smoke.checks if c["verdict"] == "fail"] == [check]
    result = one(report, kind="smoke", check=INVALID, tool=tool)
    assert result.reproduction is not None
    assert [(c.tool, c.arguments) for c in result.reproduction.calls] == [(tool, minimal)]
    with connect(smoke_bugs(bug)) as server:
        spec = server.tool(tool)
        # The minimal arguments really break the schema, and the buggy server accepts them.
        assert not jsonschema.Draft202012Validator(spec.input_schema).is_valid(minimal)
        assert server.call(tool, minimal).ok
        # The fixed calls pass: the valid one is served, the wrong type is rejected.
        assert server.call(tool, _fixed_valid_arguments(spec.input_schema)).ok
        assert server.call(tool, _wrong_type(spec.input_schema)).rejected


@pytest.mark.parametrize("bug", [None, *sorted(STRUCTURED_BUGS), *sorted(INVALID_BUGS)])
def test_smoke_bugs_over_streamable_http(bug: str | None, twin: Report) -> None:
    """The same verdicts and the same minimal arguments over streamable HTTP as over stdio (the
    grading profile is deterministic); the twin passes there too."""
    over_stdio = twin if bug is None else bug_report(bug)
    with http_server(smoke_bugs(bug)) as url:
        over_http = engine(url, smoke=True)
    assert over_http.target == url and "shared server" in over_http.isolation

    def verdicts(report: Report) -> list[tuple[Any, ...]]:
        return [(c["check_id"], c["tool_name"], c["verdict"], c["details"].get("arguments"))
                for c in report.smoke.checks]

    assert verdicts(over_http) == verdicts(over_stdio), summary(over_http)
    assert over_http.smoke.failed == (0 if bug is None else 1), summary(over_http)
    for result in results(over_http, kind="smoke", status="fail"):
        assert result.reproduction is not None and result.reproduction.fresh_server is False


def test_range_bug_minimal_arguments_sit_just_outside_the_range() -> None:
    check = smoke_check(bug_report("range-unchecked"), INVALID, "score_label")
    n = check["details"]["arguments"]["n"]
    assert n in (0, 11), check


def test_extra_props_minimal_arguments_keep_the_message() -> None:
    args = smoke_check(bug_report("extra-props"), INVALID, "echo")["details"]["arguments"]
    assert "message" in args and len(args) == 2, args


def test_invalid_arguments_message_names_the_place_as_a_json_pointer() -> None:
    """Places are JSON pointers, as elsewhere in the report ("at /count"), not a Python tuple
    (regression: the message once read "at ('n',)", fixed in 1b8b785)."""
    check = smoke_check(bug_report("range-unchecked"), INVALID, "score_label")
    assert "('n',)" not in check["message"]
    assert "at /n" in check["message"], check["message"]


def test_tools_a_probe_config_excludes_are_never_called() -> None:
    """`exclude` keeps a tool out of every check, not only the probes: the scenarios and the smoke
    checks skip it and no call reaches it."""
    config = ProbeConfig(exclude=["list_tags", "create_note"])
    report = engine(sample(), grading(max_examples=3), smoke=True, call_all=True, probe_config=config)
    for name in config.exclude:
        mine = [r for r in report.results if r.tool == name and r.kind in ("scenario", "smoke")]
        assert mine and all(r.status == "skip" and "excluded" in r.message for r in mine), mine
        assert not any(r.details.get("called") for r in mine), mine
    happy = {r.tool for r in report.results if r.check == "happy" and r.status == "pass"}
    assert "list_notes" in happy, "the other tools are still called"
