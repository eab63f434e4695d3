"""One cause, one finding: two fields one write breaks are two findings (tests/servers/flash_cards.py,
its twin none), and a cause the smoke check and the edge scenario both see is printed, counted and
annotated once (tests/servers/smoke_bugs.py --bug range-unchecked), and one cause on three tools is one
finding listing them (tests/servers/lax_numbers.py; tests/servers/audit_trail.py, whose one audit step
refuses alike on three tools; their twins none)."""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, engine, grading, shared_run, smoke_bug_run, summary
from hypothesis_mcp.checks.causes import kept_as, one_per_cause
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.gates import EXIT_SMOKE, exit_code, gate_line
from hypothesis_mcp.replay import replay
from hypothesis_mcp.report.annotations import render_github
from hypothesis_mcp.report.markdown import render_markdown
from hypothesis_mcp.results import Call, Kind, Report, Reproduction, Result, RuleId, with_ids
from hypothesis_mcp.waivers import parse_waiver

CARDS = [*SERVE, str(ROOT / "tests/servers/flash_cards.py")]
BUGGY = [*CARDS, "--bug", "two-fields"]
LAX = [*SERVE, str(ROOT / "tests/servers/lax_numbers.py")]
LAX_TOOLS = ["count_words", "page_words", "repeat"]
AUDIT = [*SERVE, str(ROOT / "tests/servers/audit_trail.py")]
TEXT_TOOLS = ["reverse_words", "slugify", "word_count"]


@pytest.fixture(scope="module")
def cards() -> Report:
    return engine(BUGGY, grading(), probes=True, allow_writes=True)


def test_two_fields_one_write_breaks_are_two_findings(cards: Report) -> None:
    changed = [r for r in cards.results if r.rule == "probe-value-changed"]
    assert sorted((r.tool, r.details["field"], r.status, r.confidence) for r in changed) == [
        ("save_card", "back", "fail", "high"), ("save_card", "stars", "fail", "high")], summary(cards)
    assert len({r.id for r in changed}) == 2
    assert changed[0].id == "probe/round-trip/probe-value-changed/save_card", "the first keeps its id"
    assert changed[1].id == f"{changed[0].id}[{changed[1].details['field']}]"
    assert not [r for r in cards.results if r.status in ("fail", "warn") and r.kind != "lint"
                and r.rule != "probe-value-changed"], summary(cards)
    assert cards.grade_cap.reasons == ["probe-value-changed on save_card"]


@pytest.mark.parametrize("field", ["back", "stars"])
def test_each_cause_replays_on_its_own(cards: Report, field: str) -> None:
    [finding] = [r for r in cards.results if r.rule == "probe-value-changed" and r.details["field"] == field]
    assert replay(finding, parse_target(BUGGY)).still_fails
    assert not replay(finding, parse_target(CARDS)).still_fails


def test_the_cards_twin_draws_no_finding() -> None:
    twin = shared_run(CARDS, probes=True, allow_writes=True)
    assert not [r for r in twin.results if r.status in ("fail", "warn") and r.kind != "lint"], summary(twin)
    assert twin.grade == "A"


def test_a_second_cause_is_named_by_its_field_and_other_ids_stay() -> None:
    def made(field: str | None) -> Result:
        return Result(kind="probe", check="fields", tool="save", status="fail", rule="probe-value-changed",
                      message="", details={"field": field} if field else {})

    named = [r.id for r in with_ids([made("due"), made("tags"), made("tags"), made(None)])]
    key = "probe/fields/probe-value-changed/save"
    assert named == [key, f"{key}[tags]", f"{key}#3", f"{key}#4"]


def test_a_cause_smoke_and_edge_both_see_is_one_finding() -> None:
    report = smoke_bug_run("range-unchecked")
    edge = [r for r in report.results if r.kind == "scenario" and r.status == "fail"]
    smoke = [r for r in report.results if r.kind == "smoke" and r.status == "fail"]
    assert [(r.tool, r.rule) for r in edge] == [(r.tool, r.rule) for r in smoke] == [
        ("score_label", "edge-accepted-invalid-input")]
    assert smoke[0].covered_by == edge[0].id
    assert report.failures() == edge
    annotations = render_github(report)
    assert annotations.count("::error") == 1 and "edge-accepted-invalid-input on score_label" in annotations
    markdown = render_markdown(report)
    assert "### Failures (1)" in markdown and markdown.count("`edge-accepted-invalid-input` |") == 1
    # The smoke gate still counts the check, and names it once.
    code = exit_code(report, None, ci=True)
    assert code == EXIT_SMOKE and report.smoke.failed == 1
    assert gate_line(report, None, None, ci=True).endswith(
        "1 smoke check failed: edge-accepted-invalid-input on score_label")


@pytest.fixture(scope="module")
def lax() -> Report:
    return shared_run([*LAX, "--bug", "lax-numbers"], grading(10), smoke=True)


def test_one_cause_on_three_tools_is_one_finding_listing_them(lax: Report) -> None:
    """`0.5` taken for an integer on every tool is the server's validation, one cause: the first
    tool's result lists where it shows, the others point at it, every format counts it once."""
    accepted = [r for r in lax.results if r.kind == "scenario" and r.status == "fail"]
    assert [(r.tool, r.rule, r.details["given"], r.details["wanted"]) for r in accepted] == [
        (tool, "edge-accepted-invalid-input", "number", "integer") for tool in LAX_TOOLS], summary(lax)
    head, *others = accepted
    assert [w["tool"] for w in head.details["where"]] == LAX_TOOLS
    assert "the same cause (a number taken where the schema wants integer) on 2 other tool(s)" in head.message
    assert [r.covered_by for r in others] == [head.id, head.id]
    assert lax.failures() == [head]
    assert "### Failures (1)" in render_markdown(lax) and render_github(lax).count("::error") == 1
    assert lax.subscores["edge"] == 0.0, "each tool still fails its own edge scenario"


def test_each_tool_of_a_merged_cause_replays_on_its_own(lax: Report) -> None:
    [linked] = [r for r in lax.results if r.kind == "scenario" and r.tool == "page_words" and r.status == "fail"]
    assert replay(linked, parse_target([*LAX, "--bug", "lax-numbers"])).still_fails
    assert not replay(linked, parse_target(LAX)).still_fails


def test_a_waived_tool_leaves_the_cause_to_the_others() -> None:
    waived = engine([*LAX, "--bug", "lax-numbers"], grading(10), smoke=True,
                    waivers=[parse_waiver("edge-accepted-invalid-input:count_words", "--ignore")])
    [head] = waived.failures()
    assert head.tool == "page_words" and [w["tool"] for w in head.details["where"]] == ["page_words", "repeat"]
    assert {r.status for r in waived.results if r.tool == "count_words" and r.rule == "edge-accepted-invalid-input"} \
        == {"waived"}


def test_the_lax_numbers_twin_draws_no_finding() -> None:
    twin = shared_run(LAX, grading(10), smoke=True)
    assert not [r for r in twin.results if r.status in ("fail", "warn")], summary(twin)


def test_a_lint_rule_on_many_tools_is_one_finding_and_a_second_rule_stays_its_own() -> None:
    def lint(tool: str, rule: str) -> Result:
        return Result(kind="lint", check="lint", tool=tool, status="warn", rule=rule, message=f"{rule} on {tool}")

    made = with_ids([lint("a", "lint-missing-annotations"), lint("a", "lint-short-description"),
                     lint("b", "lint-missing-annotations"), lint("c", "lint-missing-annotations")])
    folded = one_per_cause(made)
    head, short, *others = folded
    assert [w["tool"] for w in head.details["where"]] == ["a", "b", "c"] and head.covered_by is None
    assert head.message.endswith("(lint-missing-annotations) on 2 other tool(s): b, c")
    assert short == made[1] and [r.covered_by for r in others] == [head.id, head.id]


def test_one_answer_on_three_tools_is_one_finding_listing_them() -> None:
    """Every text tool answers a character outside ASCII with the audit step's -32603: one cause,
    told by the answer (the same words once each tool's name and arguments are masked)."""
    audit = shared_run([*AUDIT, "--bug", "ascii-audit"], grading(), smoke=True)
    failed = [r for r in audit.results if r.status in ("fail", "warn")]
    assert sorted((r.tool, r.rule) for r in failed) == [
        (tool, "happy-rejected-valid-input") for tool in TEXT_TOOLS], summary(audit)
    [head] = audit.failures()
    assert sorted(w["tool"] for w in head.details["where"]) == TEXT_TOOLS
    assert "(the same answer: JSON-RPC error -32603: audit trail: cannot record" in head.message
    assert "on 2 other tool(s)" in head.message
    assert sorted(r.covered_by or "" for r in failed) == ["", head.id, head.id]
    markdown = render_markdown(audit)
    assert "### Failures (1)" in markdown and render_github(audit).count("::error") == 1
    assert audit.subscores["happy"] == 25.0, "each tool still fails its own happy path; total passes"
    assert "· exercised 100%" in markdown, "the grade line says how much was exercised"


def test_one_crash_on_several_tools_is_one_incident_and_the_others_point_at_it() -> None:
    crash: RuleId = "server-crashed"
    said = "connection closed (exit code 1); stderr: UnicodeEncodeError: 'ascii' codec can't encode character"
    made = with_ids([_answered(tool, f"{said} '\\x{code}' in position {len(tool)}", {"text": chr(int(code, 16))},
                               crash, "incident") for tool, code in [("slug", "e9"), ("count", "aa"), ("tail", "80")]])
    head, *others = one_per_cause(made)
    assert [w["tool"] for w in head.details["where"]] == ["slug", "count", "tail"]
    assert [r.covered_by for r in others] == [head.id, head.id] and head.covered_by is None
    assert Report(tool={}, target="", profile="grading", seed=0, server={}, results=[head, *others]).failures() \
        == [head], "an incident another reports the cause of is counted once"


def test_the_audit_trail_twin_draws_no_finding() -> None:
    twin = shared_run(AUDIT, grading(), smoke=True)
    assert not [r for r in twin.results if r.status in ("fail", "warn")], summary(twin)
    assert twin.grade == "A"


def _answered(tool: str, returned: str, arguments: dict[str, object], rule: RuleId = "happy-rejected-valid-input",
              kind: Kind = "scenario") -> Result:
    return Result(kind=kind, check="happy", tool=tool, status="fail", rule=rule,
                  message=rule, details={"returned": returned}, reproduction=Reproduction([Call(tool, arguments)]))


def test_answers_alike_once_names_and_values_are_masked_are_one_cause_and_others_stay_apart() -> None:
    made = with_ids([
        _answered("get_user", "JSON-RPC error -32603: get_user: record 'u-17' not in table users", {"id": "u-17"}),
        _answered("get_order", "JSON-RPC error -32603: get_order: record 'Zq' not in table users", {"ref": "Zq"}),
        _answered("get_item", "JSON-RPC error -32603: database is locked", {"sku": "a"}),
        _answered("get_tag", "JSON-RPC error -32602: get_tag: record 'x' not in table users", {"tag": "x"}),
    ])
    folded = one_per_cause(made)
    assert [w["tool"] for w in folded[0].details["where"]] == ["get_user", "get_order"]
    assert folded[1].covered_by == folded[0].id
    assert folded[2:] == made[2:], "another answer, or another code, is another cause"


def test_a_hang_or_a_silent_crash_says_nothing_of_its_cause() -> None:
    hang: RuleId = "call-timeout"
    crash: RuleId = "server-crashed"
    made = with_ids([_answered(tool, returned, {"n": 1}, rule, "incident") for tool in ("a", "b")
                     for rule, returned in [(hang, "no answer within 3.0s"),
                                            (crash, "connection closed (exit code 1)")]])
    assert one_per_cause(made) == made


@pytest.mark.parametrize(("written", "read", "how"), [
    ("note\n\n", "note", "trailing whitespace stripped"),
    ("  a  b ", "a b", "whitespace runs folded"),
    ("Ｎote", "Note", "NFKC"),
    ("note", "not", None),
])
def test_a_text_kept_in_another_form_is_named_by_the_transformation(written: str, read: str, how: str | None) -> None:
    assert kept_as(written, read) == how


def test_state_a_fresh_process_held_is_one_cause_however_many_tools_showed_it() -> None:
    made = with_ids([Result(kind="probe", check="isolation", tool=tool, status="warn", rule="state-persists",
                            message=f"{tool} showed earlier markers") for tool in ("add", "tag")])
    head, other = one_per_cause(made)
    assert [w["tool"] for w in head.details["where"]] == ["add", "tag"] and other.covered_by == head.id
