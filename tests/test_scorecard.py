"""The scorecard end to end on the sample server: subscores, score, grade, the probe grade cap.

The runs are the ones docs/scoring.md works through (`--probes --allow-writes --profile grading`),
and their numbers are asserted exactly: the grading profile is deterministic. Each run happens
once per test session (helpers.sample_probes) and every test reads the same report.

The sample server has 7 tools; delete_note is never called, so scenarios judge 6, and 5 of them
pass their happy path (export_notes breaks its outputSchema for format "html"):
happy 83.3, edge 100, lint 95.7 (three tools with one warning each), score 89.1, grade B.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import pytest

from helpers import (
    command_line,
    engine,
    grading,
    one,
    problems,
    results,
    sample,
    sample_probes,
    summary,
)
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.emit import emit_tests, file_name
from hypothesis_mcp.engine import RunOptions, run
from hypothesis_mcp.events import Event, ItemStarted, Planned
from hypothesis_mcp.results import Check, Confidence, Report, Reproduction, Result, RuleId, Status
from hypothesis_mcp.rules.registry import RULES
from hypothesis_mcp.scorecard import grade_for, score_run

SUBSCORES = {"happy": 83.3, "edge": 100.0, "lint": 95.7, "exercised": 100.0}
SCORE = 89.1
BUGGY_SCORE = 80.5
"""89.1 − 60 × 1/7: one of the 7 tools fails a high-confidence probe."""
READ_TOOLS = ("get_note", "list_notes", "search_notes", "list_tags")
CALLED = ("create_note", *READ_TOOLS, "export_notes")

CONTRACT_KEYS = {"schema_version", "tool", "target", "profile", "seed", "server", "grade", "score", "subscores",
                 "grade_cap", "results", "smoke", "stats"}
RESULT_KEYS = {"id", "kind", "check", "tool", "status", "rule", "confidence", "basis", "message", "fix",
               "reproduction"}


@pytest.fixture(scope="module")
def correct() -> Report:
    return sample_probes(None)


@pytest.fixture(scope="module")
def silent_skip() -> Report:
    return sample_probes("silent-skip")


@pytest.fixture(scope="module")
def lose_on_write() -> Report:
    return sample_probes("lose-on-write")


@pytest.fixture(scope="module")
def limit_ignored() -> Report:
    return sample_probes("limit-ignored")


# --- the correct sample server ---------------------------------------------------------------

def test_correct_server_grades_b(correct: Report) -> None:
    assert (correct.grade, correct.score) == ("B", SCORE), summary(correct)
    assert correct.subscores == {**SUBSCORES, "effect": 100.0}, summary(correct)


def test_correct_server_happy_failure_is_the_html_export(correct: Report) -> None:
    failure = one(correct, kind="scenario", check="happy", status="fail")
    assert failure.tool == "export_notes"
    assert failure.rule == "happy-output-schema"
    assert failure.confidence == "high"
    assert failure.reproduction is not None
    assert len(failure.reproduction.calls) == 1
    call = failure.reproduction.calls[0]
    assert call.tool == "export_notes"
    assert call.arguments.get("format") == "html", call
    assert failure.fix


def test_correct_server_other_results(correct: Report) -> None:
    # The other called tools serve valid input; every called tool rejects invalid input.
    for tool in ("create_note", *READ_TOOLS):
        assert one(correct, kind="scenario", check="happy", tool=tool).status == "pass"
    for tool in CALLED:
        edge = one(correct, kind="scenario", check="edge", tool=tool)
        if tool == "list_tags":  # no parameters, extra ones allowed: no invalid arguments exist
            assert (edge.status, edge.message) == ("skip", "the inputSchema accepts any arguments: nothing to reject")
        else:
            assert edge.status == "pass", edge
    # delete_note is destructive: never called.
    for check in ("happy", "edge"):
        assert one(correct, kind="scenario", check=check, tool="delete_note").status == "skip"
    # The three deliberate lint flaws, one warning each.
    lint = {(r.tool, r.rule) for r in results(correct, kind="lint", status="warn")}
    assert lint == {("search_notes", "lint-undocumented-property"), ("delete_note", "lint-short-description"),
                    ("export_notes", "lint-missing-annotations")}
    # The round trip and the built-in bounds pass; nothing else fails or warns.
    trip = one(correct, kind="probe", check="round-trip", tool="create_note")
    assert (trip.status, trip.confidence) == ("pass", "high")
    assert one(correct, kind="probe", check="bound", tool="list_notes").status == "pass"
    assert [(r.kind, r.tool) for r in problems(correct)] == [("scenario", "export_notes")], summary(correct)


def test_correct_server_is_not_capped(correct: Report) -> None:
    cap = correct.grade_cap
    assert (cap.enabled, cap.capped, cap.cap, cap.reasons) == (True, False, None, [])
    assert cap.uncapped_grade == "B"


def test_report_has_the_json_contract(correct: Report) -> None:
    data = correct.to_dict()
    assert set(data) >= CONTRACT_KEYS
    assert data["schema_version"] == 1
    assert data["tool"]["name"] == "hypothesis-mcp"
    assert data["profile"] == "grading" and data["seed"] == 0, "the grading seed, unless --seed names another"
    assert data["server"]["name"] == "notes-server"
    assert data["server"]["era"] in ("legacy", "modern", "dual")
    assert set(data["grade_cap"]) == {"enabled", "capped", "cap", "uncapped_grade", "reasons", "note"}
    assert set(data["subscores"]) == {"happy", "edge", "lint", "effect", "exercised"}
    ids = [r["id"] for r in data["results"]]
    assert len(set(ids)) == len(ids) and all(ids)
    for result in data["results"]:
        assert set(result) >= RESULT_KEYS
        assert result["kind"] in ("scenario", "smoke", "probe", "lint", "incident")
        assert result["status"] in ("pass", "fail", "warn", "skip", "inconclusive")
        assert result["confidence"] in ("high", "medium", "low")
        if result["status"] in ("fail", "warn"):
            assert result["fix"], result
    assert set(data["stats"]) >= {"calls", "examples", "server_starts", "duration_s"}
    assert data["stats"]["server_starts"] > 1, "stateful examples run on fresh server processes"
    assert "fresh server" in data["isolation"]


# --- silent-skip: the grade cap -------------------------------------------------------------------

def test_silent_skip_grades_c(silent_skip: Report) -> None:
    assert (silent_skip.grade, silent_skip.score) == ("C", BUGGY_SCORE), summary(silent_skip)
    assert silent_skip.subscores == {**SUBSCORES, "effect": 0.0}


def test_silent_skip_finding(silent_skip: Report) -> None:
    """The minimal reproduction: write, same-key write, a listing that shows the old body and not the
    new one. A keyed get alone would rest on a guess (that the store replaces rather than keeps both
    and returns the first); the listing, asked for no record in particular, shows it (regression: it
    once kept two unrelated search_notes reads that Hypothesis could not delete from between the
    writes)."""
    failure = one(silent_skip, kind="probe", rule="probe-silent-noop")
    assert (failure.tool, failure.status, failure.confidence) == ("create_note", "fail", "high")
    assert failure.check == "round-trip"
    assert failure.fix
    assert {f["evidence"] for f in failure.details["rests_on"]} == {"shown"}
    calls = failure.reproduction.calls if failure.reproduction else []
    assert [c.tool for c in calls] == ["create_note", "create_note", "list_notes"], calls
    first, second = calls[0].arguments, calls[1].arguments
    assert first["title"] == second["title"], "the second write reuses the key"
    assert first["body"] != second["body"], "with a new value"
    assert failure.reproduction is not None and failure.reproduction.fresh_server is True


def test_silent_skip_is_capped_from_b(silent_skip: Report) -> None:
    cap = silent_skip.grade_cap
    assert (cap.enabled, cap.capped, cap.cap, cap.uncapped_grade) == (True, True, "C", "B")
    assert cap.reasons == ["probe-silent-noop on create_note"]
    assert cap.note == "Grade B by score, capped because: probe-silent-noop on create_note"


def test_lose_on_write_finding(lose_on_write: Report) -> None:
    """The minimal reproduction: write, read, second write, read the first again (4 calls)."""
    assert (lose_on_write.grade, lose_on_write.score) == ("C", BUGGY_SCORE), summary(lose_on_write)
    cap = lose_on_write.grade_cap
    assert (cap.capped, cap.uncapped_grade, cap.reasons) == (True, "B", ["probe-data-lost on create_note"])
    failure = one(lose_on_write, kind="probe", rule="probe-data-lost")
    assert (failure.tool, failure.status, failure.confidence) == ("create_note", "fail", "high")
    calls = failure.reproduction.calls if failure.reproduction else []
    assert [c.tool for c in calls] == ["create_note", "get_note", "create_note", "get_note"], calls
    assert calls[1] == calls[3], "the read that showed the first note, made again"
    first, second = calls[0].arguments["title"], calls[2].arguments["title"]
    assert first != second, "a second record, with a new key"
    assert calls[-1].arguments == {"title": first}, "then the first record is read again"


def test_limit_ignored_is_a_warning_that_never_caps(limit_ignored: Report) -> None:
    warning = one(limit_ignored, kind="probe", rule="probe-bound-exceeded")
    # `limit` is a bound by its name only: a guessed fact, so the warning is low.
    assert (warning.tool, warning.status, warning.confidence) == ("list_notes", "warn", "low")
    assert [f["evidence"] for f in warning.details["rests_on"]] == ["guessed"]
    assert (limit_ignored.grade, limit_ignored.score) == ("B", SCORE), summary(limit_ignored)
    cap = limit_ignored.grade_cap
    assert (cap.capped, cap.reasons) == (False, [])
    assert warning.reproduction is not None
    assert [c.tool for c in warning.reproduction.calls][-1] == "list_notes"


def test_limit_ignored_still_judges_the_round_trip(limit_ignored: Report) -> None:
    """create_note's writes are all stored and kept: its round trip passes beside the bound warning,
    so effect is 100 (regression: a reader's bound warning once hid the round-trip verdict and
    left effect n/a, fixed in 1b8b785)."""
    trip = results(limit_ignored, kind="probe", check="round-trip", tool="create_note")
    assert [(r.status, r.confidence) for r in trip] == [("pass", "high")], summary(limit_ignored)
    assert limit_ignored.subscores["effect"] == 100.0


# --- every probe finding as a test a user can keep -------------------------------------------------
# Each finding's replay (still fails with the bug, passes on the correct server) is asserted in
# test_rule_verdicts.py, on these very runs (helpers.sample_probes keeps them once per session).

FINDINGS = {
    "silent_skip": ("silent-skip", "probe-silent-noop", "fail"),
    "lose_on_write": ("lose-on-write", "probe-data-lost", "fail"),
    "limit_ignored": ("limit-ignored", "probe-bound-exceeded", "warn"),
}


def test_emitted_tests_fail_with_the_bug_pass_without(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """The file `--emit-tests` writes for each finding is a plain pytest test: it fails against the
    buggy server it was found on, naming the rule, and passes once HYPOTHESIS_MCP_TARGET points it
    at the correct server. The three files run in one pytest session each way (their names, with a
    digest of their folder, keep them apart)."""
    emitted: dict[Path, str] = {}
    for name, (_, rule, status) in FINDINGS.items():
        report = request.getfixturevalue(name)
        finding = one(report, kind="probe", rule=rule, status=status)
        folder = tmp_path / name
        written = {path.name: path for path in emit_tests(report.results, report.target, folder)}
        emitted[written[file_name(finding, report.target, folder)]] = f"{rule} on {finding.tool}"
    command = [sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider", *map(str, emitted)]
    buggy = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert buggy.returncode == 1, buggy.stdout[-3000:]
    failed = [line for line in buggy.stdout.splitlines() if line.startswith("FAILED ")]
    for path, says in emitted.items():
        assert [line for line in failed if path.name in line], (path.name, failed)
        assert says in buggy.stdout, (says, buggy.stdout[-3000:])
    assert f"{len(emitted)} failed" in buggy.stdout, buggy.stdout[-3000:]
    fixed = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300,
                           env={**os.environ, "HYPOTHESIS_MCP_TARGET": command_line(sample())})
    assert fixed.returncode == 0, fixed.stdout[-3000:]
    assert f"{len(emitted)} passed" in fixed.stdout, fixed.stdout[-3000:]


@pytest.mark.parametrize("name", ["correct", "silent_skip", "lose_on_write", "limit_ignored"])
def test_every_rule_a_result_reports_is_in_the_registry(request: pytest.FixtureRequest, name: str) -> None:
    """The registry is where a rule id is defined: a failure, warning or inconclusive result names a
    registered rule; a pass or skip names its check (or a registered rule)."""
    report: Report = request.getfixturevalue(name)
    unknown = [(r.id, r.rule) for r in report.results
               if r.rule not in RULES and not (r.status in ("pass", "skip") and r.rule == r.check)]
    assert unknown == []
    assert {r.check for r in report.results} <= set(get_args(Check))
    assert {r.status for r in report.results} <= set(get_args(Status))
    assert {r.confidence for r in report.results} <= set(get_args(Confidence))


def test_the_rule_id_type_lists_exactly_the_registered_rules() -> None:
    """`RuleId` is the registry as the type checker sees it: neither may gain or lose an id alone."""
    listed = get_args(RuleId)
    assert len(listed) == len(set(listed))
    assert set(listed) == set(RULES)
    assert all(rule.id == key for key, rule in RULES.items())


# --- the cap switch and the cap itself -------------------------------------------------------

@pytest.fixture(scope="module")
def silent_skip_uncapped() -> Report:
    return engine(sample("silent-skip"), grading(max_examples=10), probes=True, allow_writes=True,
                  probe_grade_cap=False)


def test_no_probe_grade_cap_gives_the_scores_own_letter(silent_skip_uncapped: Report) -> None:
    report = silent_skip_uncapped
    assert one(report, kind="probe", rule="probe-silent-noop").status == "fail"
    assert report.grade == grade_for(report.score), summary(report)
    assert report.grade in ("A", "B"), "the letter the cap would have lowered"
    cap = report.grade_cap
    assert (cap.enabled, cap.capped, cap.cap) == (False, False, None)
    assert cap.reasons == ["probe-silent-noop on create_note"]
    assert cap.note and "off" in cap.note


def _probe_failure(tool: str, confidence: str = "high") -> Result:
    return Result(kind="probe", check="round-trip", tool=tool, status="fail" if confidence == "high" else "warn",
                  rule="probe-silent-noop", message="m", confidence=confidence,  # type: ignore[arg-type]
                  reproduction=Reproduction([]))


def _happy(tool: str, status: str = "pass") -> Result:
    return Result(kind="scenario", check="happy", tool=tool, status=status, rule="happy", message="m")  # type: ignore[arg-type]


def test_cap_lowers_an_a_to_c_and_says_why() -> None:
    """The memory-server case in numbers: 9 tools, all passing, one high-confidence probe failure."""
    tools = [f"t{i}" for i in range(9)]
    found = [*(_happy(t) for t in tools), _probe_failure("create_entities")]
    score, grade, subscores, cap = score_run(found, num_tools=9, lint=100.0)
    assert score == round(100 - 60 / 9, 1) == 93.3
    assert grade == "C"
    assert (cap.enabled, cap.capped, cap.cap, cap.uncapped_grade) == (True, True, "C", "A")
    assert cap.reasons == ["probe-silent-noop on create_entities"]
    assert cap.note == "Grade A by score, capped because: probe-silent-noop on create_entities"
    assert subscores["effect"] == 0.0
    score2, grade2, _, cap2 = score_run(found, num_tools=9, lint=100.0, cap_enabled=False)
    assert (score2, grade2, cap2.capped, cap2.enabled) == (score, "A", False, False)


def test_warnings_and_low_grades_are_not_capped() -> None:
    score, grade, _, cap = score_run([_happy("a"), _probe_failure("a", "medium")], num_tools=1, lint=100.0)
    assert (score, grade, cap.capped, cap.reasons) == (100.0, "A", False, [])
    failing = [_happy("a", "fail"), _happy("b", "fail"), _happy("c"), _probe_failure("c")]
    score, grade, _, cap = score_run(failing, num_tools=3, lint=100.0)
    assert grade == grade_for(score) and grade in ("D", "F")
    assert cap.capped is False and cap.reasons == ["probe-silent-noop on c"]


def _scenario(check: str, tool: str, status: str, rule: str, answered: int = 50, **details: Any) -> Result:
    return Result(kind="scenario", check=check, tool=tool, status=status, rule=rule, message="m",  # type: ignore[arg-type]
                  details={"calls_answered": answered, **details})


def test_an_internal_error_refusal_counts_half_an_edge_failure_and_acceptance_a_whole_one() -> None:
    happy = [_scenario("happy", t, "pass", "happy") for t in "abcd"]
    internal = [*happy, *(_scenario("edge", t, "pass", "edge") for t in "abc"),
                _scenario("edge", "d", "fail", "edge-internal-error")]
    accepted = [*internal[:-1], _scenario("edge", "d", "fail", "edge-accepted-invalid-input")]
    assert score_run(internal, num_tools=4, lint=100.0)[2]["edge"] == 87.5
    assert score_run(accepted, num_tools=4, lint=100.0)[2]["edge"] == 75.0


def test_refusals_without_iserror_weigh_little_by_the_share_of_calls_they_affect() -> None:
    """A style of answer, one warning for the server listing its tools: a server answering every call
    so loses a tenth of its score; a blank record for an id nobody wrote (medium) costs more."""
    base = [*(_scenario("happy", t, "pass", "happy", 25) for t in "ab"), *(_scenario("edge", t, "pass", "edge", 25)
                                                                         for t in "ab")]

    def scored(*shaped: int) -> float:
        where = [{"tool": t, "error_shaped_valid": n, "calls_answered": 50} for t, n in zip("ab", shaped, strict=False)]
        warning = Result(kind="scenario", check="error-as-success", tool=None, status="warn", rule="error-as-success",
                         message="m", confidence="low", details={"where": where})
        return score_run([*base, warning], num_tools=2, lint=100.0)[0]

    assert scored(0) == 100.0
    assert scored(10) == round(100 * (1 - 0.1 * (10 / 50) / 2), 1) == 99.0
    assert scored(50, 50) == 90.0
    made_up = _scenario("read-missing-as-success", "b", "warn", "read-missing-as-success")
    assert score_run([*base, dataclasses.replace(made_up, confidence="medium")], num_tools=2, lint=100.0)[0] == 85.0
    assert score_run([*base, dataclasses.replace(made_up, confidence="low")], num_tools=2, lint=100.0)[0] == 100.0


def test_few_tools_exercised_lower_the_score_and_none_grades_d_at_best() -> None:
    def scored(exercised: int) -> tuple[float, str]:
        served = [_scenario("happy", f"t{i}", "pass", "happy", valid_calls_succeeded=3) for i in range(exercised)]
        refused = [_scenario("happy", f"u{i}", "inconclusive", "happy-tool-not-exercised")
                   for i in range(4 - exercised)]
        found = [*served, *refused]
        score, grade, subscores, _ = score_run(found, num_tools=4, lint=100.0)
        assert subscores["exercised"] == 25.0 * exercised
        return score, grade

    assert scored(4) == scored(2) == (100.0, "A")
    assert scored(1) == (75.0, "C")
    score, grade = scored(0)
    assert score == 50.0 and grade in ("D", "F")


def test_a_run_interrupted_before_any_tool_was_judged_says_so() -> None:
    """Not "no tool answered a valid call with success": no tool was called at all."""
    lint_only = [Result(kind="lint", check="lint", tool="t", status="fail", rule="lint-invalid-name", message="m")]
    _, grade, _, cap = score_run(lint_only, num_tools=2, lint=100.0, interrupted=True)
    assert cap.reasons == ["the run was interrupted before any tool was judged"] and grade == "D", cap
    _, grade, _, cap = score_run(lint_only, num_tools=2, lint=100.0)
    assert cap.reasons[0].startswith("no tool answered a valid call with success") and grade == "D", cap


def test_a_crash_or_hang_caps_the_letter_at_c_whatever_the_number_of_tools() -> None:
    """One tool of ten crashing costs 7.5 points of score (happy 90, no edge run): the letter says more."""
    tools = [f"t{i}" for i in range(10)]
    crash = Result(kind="incident", check="server-crashed", tool="t0", status="fail", rule="server-crashed",
                   message="m")
    found = [_happy("t0", "fail"), *(_happy(t) for t in tools[1:]), crash]
    score, grade, _, cap = score_run(found, num_tools=10, lint=100.0, cap_enabled=False)
    assert (score, grade) == (92.5, "C")
    assert (cap.capped, cap.cap, cap.uncapped_grade, cap.reasons) == (True, "C", "A", ["server-crashed on t0"])
    assert cap.note == "Grade A by score, capped because: server-crashed on t0"
    waived = dataclasses.replace(crash, status="waived")
    assert score_run([*found[:-1], waived], num_tools=10, lint=100.0)[1] == "A", "a waived incident caps nothing"


def test_write_tools_mostly_never_seen_to_work_cap_the_letter_at_c() -> None:
    """The reads served, the writes refused every generated value and no probe judged them: the
    grade cannot vouch for the writes. Half of them exercised is enough."""
    reads = [_scenario("happy", t, "pass", "happy", valid_calls_succeeded=5) for t in ("r1", "r2", "r3")]
    writes = {f"w{i}": _scenario("happy", f"w{i}", "inconclusive", "happy-tool-not-exercised", valid_calls_succeeded=0)
              for i in range(5)}

    def graded(served: int, probed: int = 0) -> tuple[str, list[str]]:
        found = [*reads, *(dataclasses.replace(w, status="pass", details={"valid_calls_succeeded": 2})
                           if n < served else w for n, w in enumerate(writes.values()))]
        found += [Result(kind="probe", check="round-trip", tool=f"w{4 - n}", status="pass", rule="round-trip",
                         message="m") for n in range(probed)]
        _, grade, _, cap = score_run(found, num_tools=8, lint=100.0, write_tools=set(writes))
        return grade, cap.reasons

    assert graded(0) == ("C", ["not exercised: 5 of 5 write tools; pass --arg values"])
    assert graded(2) == ("C", ["not exercised: 3 of 5 write tools; pass --arg values"])
    assert graded(3) == ("A", [])
    assert graded(2, probed=1) == ("A", []), "a write a probe judged was seen to work"
    assert score_run(reads, num_tools=3, lint=100.0, write_tools=set())[1] == "A", "no write tool, no cap"


def test_probes_that_pass_do_not_change_the_score() -> None:
    passing = Result(kind="probe", check="round-trip", tool="a", status="pass", rule="round-trip", message="m")
    with_probe = score_run([_happy("a"), _happy("b", "fail"), passing], num_tools=2, lint=90.0)
    without = score_run([_happy("a"), _happy("b", "fail")], num_tools=2, lint=90.0)
    assert with_probe[0] == without[0] and with_probe[1] == without[1]


# Two grading runs agreeing byte for byte: test_draws_stable.py compares these runs with the command
# line's.


# --- safety: scenarios announce their writers before calling anything -------------------------

def _planned_run(**options: Any) -> tuple[Report, list[Event]]:
    events: list[Event] = []
    report = run(parse_target(sample()), RunOptions(profile=grading(max_examples=5), **options), events.append)
    return report, events


def _plan(events: list[Event]) -> Planned:
    [plan] = [e for e in events if isinstance(e, Planned)]
    return plan


def test_scenarios_announce_the_tools_that_may_write_before_any_call() -> None:
    report, events = _planned_run()
    kinds = [type(e) for e in events]
    plan = _plan(events)
    assert kinds.index(Planned) < kinds.index(ItemStarted), "announced before the first check calls a tool"
    assert plan.may_write == ["create_note", "export_notes"]
    assert plan.announcement in report.notes
    assert plan.announcement is not None and "create_note, export_notes" in plan.announcement


def test_read_only_limits_scenarios_to_read_only_tools() -> None:
    report, events = _planned_run(read_only=True)
    plan = _plan(events)
    assert (plan.may_write, plan.announcement) == ([], None)
    assert sorted(plan.call) == sorted(READ_TOOLS)
    for tool in ("create_note", "export_notes"):
        skipped = results(report, kind="scenario", tool=tool)
        assert skipped and all(r.status == "skip" and "--read-only" in r.message for r in skipped), skipped
