"""Every output format renders the same hand-made report: console, JUnit, Markdown, badge, JSON."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.report.badge import render_badge_json, render_badge_svg
from hypothesis_mcp.report.console import UNWRAPPED, render_console, report_console
from hypothesis_mcp.report.issues import top_issues
from hypothesis_mcp.report.json_report import load_report, render_json
from hypothesis_mcp.report.junit import render_junit
from hypothesis_mcp.report.markdown import render_markdown
from hypothesis_mcp.results import Call, GradeCap, Report, Reproduction, Result, RunStats, Smoke
from hypothesis_mcp.rules.registry import FIXES, fix_for
from hypothesis_mcp.snippet import literal

PROBE_MESSAGE = "a second write to key 'hm1a2b-title' reported success; state unchanged"
REPRO = Reproduction(
    [Call("create_note", {"title": "hm1a2b-title", "body": "a"}),
     Call("create_note", {"title": "hm1a2b-title", "body": "b"}),
     Call("search_notes", {"query": "hm1a2b-title"})],
    fresh_server=True,
)
SMOKE_CHECKS = [
    {"check_id": "smoke_structured_content", "tool_name": "search_notes", "verdict": "pass",
     "message": "structuredContent conforms to the declared outputSchema",
     "details": {"called": True, "returned": '1 content block(s) [text]; first text "{\\"titles\\": []}"'}},
    {"check_id": "smoke_invalid_arguments", "tool_name": "sloppy", "verdict": "fail",
     "message": "accepted schema-invalid arguments (returned a success result)",
     "details": {"called": True, "returned": '1 content block(s) [text]; first text "{}"'}},
    {"check_id": "smoke_invalid_arguments", "tool_name": "create_note", "verdict": "skip",
     "message": "not called under the safety default (readOnlyHint is not true); pass --call-all",
     "details": {"called": False}},
    {"check_id": "smoke_unknown_tool", "tool_name": None, "verdict": "pass",
     "message": "rejected with JSON-RPC error -32602", "details": {"called": True}},
]


def smoke_result(check: dict[str, object]) -> Result:
    return Result(kind="smoke", check=str(check["check_id"]), tool=check["tool_name"],  # type: ignore[arg-type]
                  status=check["verdict"], rule=str(check["check_id"]),  # type: ignore[arg-type]
                  message=str(check["message"]), basis="MCP Tools §Error Handling")


def sample_report(**changes: object) -> Report:
    results = [
        Result(kind="scenario", check="happy", tool="search_notes", status="pass", rule="happy",
               message="served 20 generated valid argument sets"),
        Result(kind="scenario", check="edge", tool="search_notes", status="pass", rule="edge",
               message="refused 20 invalid argument sets"),
        Result(kind="scenario", check="happy", tool="create_note", status="inconclusive", rule="happy",
               message="refused all generated values; supply real ones with --arg", confidence="low"),
        Result(kind="scenario", check="edge", tool="sloppy", status="fail",
               rule="edge-accepted-invalid-input", basis="invalid arguments",
               message="accepted {'limit': 'x'} | a [bad] value\x00\x1b[2J",
               reproduction=Reproduction([Call("sloppy", {"limit": "x"})], fresh_server=False)),
        Result(kind="lint", check="lint", tool="search_notes", status="pass", rule="lint",
               message="no lint findings"),
        Result(kind="lint", check="lint", tool="sloppy", status="warn", rule="lint-undocumented-property",
               message="parameter(s) without a description: limit", basis="top-level properties",
               fix="Add a description to limit."),
        Result(kind="probe", check="bound", tool="search_notes", status="pass", rule="probe-bound-exceeded",
               message="limit bounded the result for [1, 2]", confidence="medium"),
        Result(kind="probe", check="round-trip", tool="create_note", status="fail", rule="probe-silent-noop",
               message=PROBE_MESSAGE, confidence="high", basis="search_notes showed the record before",
               reproduction=REPRO),
        Result(kind="probe", check="round-trip", tool="append_log", status="skip",
               rule="probe-write-not-observable", message="skipped: writes need --allow-writes"),
        Result(kind="incident", check="call", tool="sloppy", status="fail", rule="server-crashed",
               message="the server exited with code 1 during tools/call"),
        *(smoke_result(c) for c in SMOKE_CHECKS),
    ]
    results = [dataclasses.replace(result, id=f"r{index:03d}") for index, result in enumerate(results, 1)]
    report = Report(
        tool={"name": "hypothesis-mcp", "version": "0.1.0"},
        target="python -m hypothesis_mcp.sample_server --bug silent-skip", profile="grading", seed=0,
        server={"name": "notes-server", "version": "1.1.0", "protocol_version": "2026-07-28",
                "era": "modern"},
        grade="C", score=93.3, subscores={"happy": 100.0, "edge": 67.0, "lint": 91.0, "effect": 50.0},
        grade_cap=GradeCap(enabled=True, capped=True, cap="C", uncapped_grade="A",
                           reasons=["probe-silent-noop on create_note"],
                           note="a high-confidence probe failure caps the grade at C"),
        results=results,
        smoke=Smoke(executed=True, reason=None, call_all=False, passed=2, failed=1, skipped=1, tools_called=2,
                    tools_total=3, checks=SMOKE_CHECKS),
        stats=RunStats(calls=187, examples=120, server_starts=9, duration_s=2.4),
        isolation="fresh server process per stateful example",
        notes=["1 probe(s) skipped because they write (append_log); add --allow-writes to run them"],
        tools_total=3,
    )
    return dataclasses.replace(report, **changes)  # type: ignore[arg-type]


def console_text(report: Report, **options: Any) -> str:
    console = Console(file=io.StringIO(), width=100, record=True, color_system=None)
    render_console(report, console, **options)
    return console.export_text()


def flat(text: str) -> str:
    return " ".join(text.split())


# Console ---------------------------------------------------------------------------------------


def test_console_header() -> None:
    text = console_text(sample_report())
    lines = text.splitlines()
    assert lines[0].startswith("MCP Scorecard: notes-server 1.1.0   Grade C   Score 93.3%")
    assert "happy 100%  |  edge 67%  |  lint 91%  |  effect 50%" in lines[0]
    assert lines[1] == "Grade A by score, capped because: probe-silent-noop on create_note"
    assert lines[2].startswith("Failures, most severe first"), "the gate line is the command line's, printed last"
    verbose = console_text(sample_report(), verbose=True)
    assert "MCP 2026-07-28 (modern era, stateless)" in verbose
    assert "Isolation: fresh server process per stateful example" in verbose


def test_console_off_a_terminal_has_no_trailing_spaces_and_no_wrapped_lines() -> None:
    for verbose in (False, True):
        text = console_text(sample_report(), verbose=verbose, report_path="out/report.json")
        assert not [line for line in text.splitlines() if line != line.rstrip()]
    replay = [line for line in console_text(sample_report(), report_path="a/" + "long/" * 30 + "report.json")
              .splitlines() if "hypothesis-mcp replay" in line]
    assert replay and all("--result 'r" in line for line in replay), "each command on one line"


def test_console_on_a_terminal_wraps_prose_but_never_a_call_or_a_command() -> None:
    console = Console(file=io.StringIO(), width=60, record=True, color_system=None, force_terminal=True)
    render_console(sample_report(), console, report_path="a/" + "long/" * 12 + "report.json")
    lines = console.export_text().splitlines()
    commands = [line for line in lines if "hypothesis-mcp replay" in line]
    assert commands and all(line.rstrip().endswith("'") for line in commands), "each command on one line"
    assert any(line.strip().startswith('server.call("create_note", {"title": "hm1a2b-title"') for line in lines)
    prose = [line for line in lines if "replay" not in line and "server" not in line]
    assert max(len(line.rstrip()) for line in prose) <= 60


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_console_fits_a_terminal_and_wraps_nothing_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal 80 columns wide the report is 80 wide (not wider, which the terminal would
    wrap again into a staircase); piped, or in a CI log with FORCE_COLOR, it has no width to wrap
    at: a long line stays one line and a table is as wide as its cells."""
    monkeypatch.setenv("COLUMNS", "80")
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    console = report_console()
    assert console.is_terminal and console.width == 80
    render_console(sample_report(), console, verbose=True)
    lines = terminal.getvalue().splitlines()
    pasted = ("from hypothesis_mcp import connect", "with connect(", "server.call(", "assert holds(",
              "hypothesis-mcp replay")
    prose = [line for line in lines if not any(code in line for code in pasted)]
    assert prose and max(len(re.sub(r"\x1b\[[0-9;]*m", "", line)) for line in prose) <= 80
    monkeypatch.setenv("FORCE_COLOR", "1")
    for stderr in (False, True):
        piped = io.StringIO()
        monkeypatch.setattr(sys, "stderr" if stderr else "stdout", piped)
        console = report_console(stderr=stderr)
        assert console.width == UNWRAPPED
        long_message = sample_report(results=[dataclasses.replace(r, message=r.message + " x" * 200)
                                              for r in sample_report().results])
        render_console(long_message, console, verbose=True)
        text = re.sub(r"\x1b\[[0-9;]*m", "", piped.getvalue())
        assert any(len(line) > 400 and line.startswith("│ round-trip │ create_note") for line in text.splitlines())
        assert all(len(line) < 1000 for line in text.splitlines()), "a table is as wide as its cells"


def test_console_verbose_tables() -> None:
    text = flat(console_text(sample_report(), verbose=True))
    for title in ("Scenarios", "Lint findings", "Effect probes", "Incidents"):
        assert title in text
    assert "FAIL" in text and "probe-silent-noop" in text
    assert "lint-undocumented-property" in text
    assert "server-crashed" in text
    assert "no lint findings" not in text  # passes stay out of the findings table
    assert "[bad] value" in text  # brackets are text, not markup
    assert "\x00" not in text and "\x1b" not in text  # control characters never reach the terminal
    assert "Scenarios" not in console_text(sample_report()), "tables only under --verbose"


def test_console_passes_are_one_line_of_counts_per_family() -> None:
    text = console_text(sample_report())
    checks = text[text.index("Checks (each one with --verbose)"):].splitlines()[1:]
    families = [line.split(":")[0].strip() for line in checks if line.startswith("  ")]
    assert families == ["scenarios", "lint", "effect probes", "incidents", "smoke"]
    assert "  smoke: 2 passed, 1 failed, 1 skipped (2 of 3 tools called, read-only tools only, see --call-all)" \
        in checks
    assert "search_notes" not in "\n".join(checks), "passing checks are counted, not listed"


def test_console_verbose_smoke_section() -> None:
    text = console_text(sample_report(), verbose=True)
    assert ("Smoke checks: 2 passed, 1 failed, 1 skipped — only readOnlyHint: true tools called "
            "(see --call-all). Never counted in the score.") in flat(text)
    assert "Tools called: 2 of 3 (a tool counts as called once the server answered a tools/call for it)" in flat(text)
    assert "pass smoke_structured_content [search_notes]: structuredContent conforms" in text
    assert "FAIL smoke_invalid_arguments [sloppy]: accepted schema-invalid arguments" in text
    assert "pass smoke_unknown_tool: rejected with JSON-RPC error -32602" in text
def test_console_smoke_call_all_and_not_run() -> None:
    call_all = sample_report(smoke=dataclasses.replace(sample_report().smoke, call_all=True))
    assert "— every tool called (--call-all)." in flat(console_text(call_all, verbose=True))
    assert "(2 of 3 tools called, every tool called)" in console_text(call_all)
    not_run = sample_report(smoke=Smoke(executed=False, reason="no session to call tools on"))
    assert "Smoke checks: not run — no session to call tools on" in console_text(not_run, verbose=True)
    assert "smoke: not run — no session to call tools on" in console_text(not_run)
    assert "smoke:" not in console_text(sample_report(smoke=Smoke()))


def test_console_failures_by_severity_with_reproductions() -> None:
    report = sample_report()
    text = console_text(report)
    failures = text[text.index("Failures, most severe first"):text.index("Checks (")]
    heads = [line for line in failures.splitlines() if re.match(r"\d+\. ", line)]
    assert heads[0].startswith("1. BLOCKING server-crashed on sloppy")
    assert heads[1].startswith("2. BLOCKING probe-silent-noop on create_note (high confidence)")
    assert heads[2].startswith("3. FAIL edge-accepted-invalid-input on sloppy")
    assert heads[-1].startswith(f"{len(heads)}. WARN lint-undocumented-property"), "warnings last"
    top = flat(failures)
    assert f"{PROBE_MESSAGE} fix: {FIXES['probe-silent-noop']}" in top
    assert "from hypothesis_mcp import connect, holds # the shrunk reproduction starts from a fresh server" in top
    assert f"with connect({literal(report.target)}) as server:" in top
    assert 'server.call("create_note", {"title": "hm1a2b-title", "body": "a"})' in top
    assert 'server.call("search_notes", {"query": "hm1a2b-title"})' in top
    assert "runs on the shared server" in top
    assert "1 probe(s) skipped because they write (append_log)" in text


def test_console_effect_na_and_uncapped() -> None:
    report = sample_report(subscores={"happy": 80.0, "edge": 100.0, "lint": 91.0, "effect": None},
                           grade="B", score=86.0, grade_cap=GradeCap(), results=[])
    text = console_text(report)
    assert "happy 80%  |  edge 100%  |  lint 91%  |  effect n/a" in text
    assert "capped" not in text
    assert "Failures: none — no check failed." in text


# JUnit -----------------------------------------------------------------------------------------


def test_junit_parses_and_counts_match() -> None:
    report = sample_report()
    root = ET.fromstring(render_junit(report).encode("utf-8"))
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [f"hypothesis-mcp.{k}" for k in
                                              ("scenario", "smoke", "probe", "lint", "incident")]
    for suite in suites:
        cases = suite.findall("testcase")
        assert int(suite.get("tests", "-1")) == len(cases)
        assert int(suite.get("failures", "-1")) == sum(c.find("failure") is not None for c in cases)
        assert int(suite.get("skipped", "-1")) == sum(c.find("skipped") is not None for c in cases)
        assert suite.get("errors") == "0"
    for key in ("tests", "failures", "skipped"):
        assert int(root.get(key, "-1")) == sum(int(s.get(key, "0")) for s in suites)
    assert int(root.get("tests", "0")) == len(report.results)
    assert int(root.get("failures", "0")) == len(report.failures())


def test_junit_failure_text_and_statuses() -> None:
    root = ET.fromstring(render_junit(sample_report()).encode("utf-8"))
    cases = {(c.get("classname"), c.get("name")): c for c in root.iter("testcase")}
    probe = cases[("probe.round-trip", "create_note probe-silent-noop")]
    failure = probe.find("failure")
    assert failure is not None and failure.get("type") == "probe-silent-noop"
    assert failure.get("message") == PROBE_MESSAGE
    text = failure.text or ""
    assert "basis: search_notes showed the record before" in text
    assert f"fix: {FIXES['probe-silent-noop']}" in text
    assert 'call 2: create_note({"title":"hm1a2b-title","body":"b"})' in text
    assert cases[("smoke.smoke_unknown_tool", "server smoke_unknown_tool")].find("failure") is None
    skipped = cases[("scenario.happy", "create_note happy")].find("skipped")
    assert skipped is not None and (skipped.get("message") or "").startswith("inconclusive: ")
    warn = cases[("lint.lint", "sloppy lint-undocumented-property")]
    assert warn.find("failure") is None
    assert "Add a description to limit." in (warn.findtext("system-out") or "")
    edge = cases[("scenario.edge", "sloppy edge-accepted-invalid-input")].find("failure")
    assert edge is not None and "\x00" not in (edge.get("message") or "")


def test_junit_empty_report_is_valid() -> None:
    root = ET.fromstring(render_junit(sample_report(results=[])).encode("utf-8"))
    assert root.get("tests") == "0" and len(root.findall("testsuite")) == 5


# Markdown --------------------------------------------------------------------------------------


def test_markdown_summary() -> None:
    md = render_markdown(sample_report())
    assert md.startswith("## MCP Scorecard: notes-server 1.1.0\n")
    assert "**Grade C** · Score 93.3% · happy 100% · edge 67% · lint 91% · effect 50%" in md
    assert "> Grade A by score, capped because: probe-silent-noop on create_note" in md
    assert "| Kind | Tool | Rule | Confidence | Finding | Fix |" in md
    row = next(line for line in md.splitlines() if "`probe-silent-noop`" in line)
    assert "| high |" in row and FIXES["probe-silent-noop"] in row
    edge_row = next(line for line in md.splitlines() if "`edge-accepted-invalid-input`" in line)
    assert "\\|" in edge_row and edge_row.count(" | ") == 5
    assert "\x00" not in md and "\x1b" not in md
    assert "2 passed, 1 failed, 1 skipped · tools called 2 of 3" in md
    assert "- **FAIL** `smoke_invalid_arguments` [sloppy]: accepted schema-invalid arguments" in md


def test_markdown_reproduction_block() -> None:
    md = render_markdown(sample_report())
    block = re.search(r"### Reproduction of the top issue\n\n(.*?)\n\n```text\n(.*?)\n```", md, re.S)
    assert block is not None
    # The crash has no reproduction, so the block shows the probe failure, the next issue that has one.
    assert "`create_note`" in block.group(1) and "starts from a fresh server" in block.group(1)
    assert block.group(2).splitlines() == [
        'call 1: create_note({"title":"hm1a2b-title","body":"a"})',
        'call 2: create_note({"title":"hm1a2b-title","body":"b"})',
        'call 3: search_notes({"query":"hm1a2b-title"})',
    ]


def test_markdown_without_failures() -> None:
    md = render_markdown(sample_report(results=[], grade_cap=GradeCap(), smoke=Smoke()))
    assert "No check failed." in md and "capped" not in md and "Smoke checks" not in md


# Badge -----------------------------------------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def test_badge_svg_capped() -> None:
    root = ET.fromstring(render_badge_svg(sample_report()))
    assert root.tag == f"{SVG}svg"
    title = root.findtext(f"{SVG}title") or ""
    assert "C (capped)" in title and "capped because: probe-silent-noop on create_note" in title
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "mcp grade" in texts and "C (capped)" in texts
    assert float(root.get("width", "0")) > 60


def test_badge_uncapped_and_json() -> None:
    report = sample_report(grade="B", score=86.0, grade_cap=GradeCap())
    root = ET.fromstring(render_badge_svg(report))
    assert "B (86%)" in [t.text for t in root.iter(f"{SVG}text")]
    assert "capped" not in (root.findtext(f"{SVG}title") or "")
    assert render_badge_json(report) == {"schemaVersion": 1, "label": "mcp grade", "message": "B (86%)",
                                         "color": "green"}
    assert render_badge_json(sample_report())["message"] == "C (capped)"
    assert render_badge_json(sample_report(grade="F", grade_cap=GradeCap()))["color"] == "red"


# JSON ------------------------------------------------------------------------------------------

CONTRACT = {
    "schema_version", "tool", "target", "profile", "seed", "server", "grade", "score", "subscores",
    "grade_cap", "results", "smoke", "stats",
}


def test_json_round_trips_and_has_the_contract() -> None:
    report = sample_report()
    text = render_json(report)
    assert text.endswith("}\n")
    data = json.loads(text)
    assert data == json.loads(json.dumps(report.to_dict()))
    assert set(data) >= CONTRACT
    assert data["schema_version"] == 1
    assert set(data["tool"]) >= {"name", "version"}
    assert set(data["server"]) >= {"name", "version", "protocol_version", "era"}
    assert set(data["subscores"]) >= {"happy", "edge", "lint", "effect"}
    assert set(data["grade_cap"]) >= {"enabled", "capped", "cap", "uncapped_grade", "reasons", "note"}
    assert set(data["stats"]) >= {"calls", "examples", "server_starts", "duration_s"}
    for result in data["results"]:
        assert set(result) >= {"id", "kind", "check", "tool", "status", "rule", "confidence", "basis",
                               "message", "fix", "reproduction"}
        if result["reproduction"] is not None:
            assert set(result["reproduction"]) >= {"calls", "fresh_server"}
            assert all(set(call) == {"tool", "arguments"} for call in result["reproduction"]["calls"])
    smoke = data["smoke"]
    assert set(smoke) >= {"executed", "reason", "call_all", "summary", "coverage", "checks"}
    assert set(smoke["summary"]) == {"passed", "failed", "skipped"}
    assert set(smoke["coverage"]) == {"tools_called", "tools_total"}
    assert all(set(c) >= {"check_id", "tool_name", "verdict", "message", "details"} for c in smoke["checks"])
    assert [Result.from_dict(r) for r in data["results"]] == report.results


def test_json_keeps_unicode() -> None:
    report = sample_report(server={"name": "notas-servidor-ñ", "version": "1", "protocol_version": "x",
                                   "era": "legacy"})
    assert "notas-servidor-ñ" in render_json(report)


def test_load_report(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text(render_json(sample_report()), encoding="utf-8")
    assert load_report(path)["grade"] == "C"


@pytest.mark.parametrize(("content", "expected"), [
    (None, "report file not found"),
    ("{not json", "is not valid JSON (line 1"),
    ("[1, 2]", "is not a hypothesis-mcp report"),
    ('{"grade": "A"}', "is not a hypothesis-mcp report"),
    ('{"schema_version": 2}', "has schema_version 2"),
])
def test_load_report_errors(tmp_path: Path, content: str | None, expected: str) -> None:
    path = tmp_path / "report.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(UsageError, match=re.escape(expected)):
        load_report(path)


# Fixes -----------------------------------------------------------------------------------------

CONTRACT_RULES = [
    "probe-silent-noop", "probe-data-lost", "probe-write-not-observable", "probe-bound-exceeded",
    "probe-bound-short", "probe-slice-mismatch", "probe-paths-disagree", "probe-not-idempotent",
    "smoke_structured_content", "smoke_invalid_arguments", "smoke_unknown_tool",
    "happy-rejected-valid-input", "happy-output-schema", "edge-accepted-invalid-input", "scenario-failed",
    "server-crashed", "call-timeout", "protocol-violation",
]


@pytest.mark.parametrize("rule", CONTRACT_RULES)
def test_every_contract_rule_has_a_fix(rule: str) -> None:
    assert rule in FIXES
    assert fix_for(rule) == FIXES[rule] and fix_for(rule).endswith(".")


def test_unknown_rule_gets_the_generic_fix() -> None:
    assert "hypothesis-mcp replay" in fix_for("no-such-rule")


def test_top_issues_order() -> None:
    issues = top_issues(sample_report())
    assert [(r.kind, r.rule) for r in issues] == [
        ("incident", "server-crashed"), ("probe", "probe-silent-noop"),
        ("scenario", "edge-accepted-invalid-input"), ("smoke", "smoke_invalid_arguments"),
    ]


# Partial runs, waivers, ids, numbers -------------------------------------------------------------


def _partial() -> Report:
    return sample_report(partial_reasons=["--max-time 2s reached: later checks did not run"])


def test_a_partial_run_says_so_in_every_format() -> None:
    report = _partial()
    reason = "PARTIAL RUN — --max-time 2s reached: later checks did not run"
    text = console_text(report)
    assert "MCP Scorecard: notes-server 1.1.0  —  PARTIAL" in text and reason in flat(text)
    md = render_markdown(report)
    assert md.startswith("## MCP Scorecard: notes-server 1.1.0 (PARTIAL)\n") and f"> **{reason}" in md
    assert render_badge_json(report)["message"] == "PARTIAL C (capped)"
    assert render_badge_json(report)["color"] == "lightgrey"
    assert reason in render_badge_svg(report)
    properties = {p.get("name"): p.get("value") for p in ET.fromstring(render_junit(report)).iter("property")}
    assert properties["partial"] == "true" and "--max-time" in properties["partial_reason"]
    data = json.loads(render_json(report))
    assert data["partial"] is True and data["partial_reason"].startswith("--max-time 2s")
    assert "PARTIAL" not in console_text(sample_report()) + render_markdown(sample_report())
    assert json.loads(render_json(sample_report()))["partial"] is False


def test_gates_a_partial_run_never_passes_ci() -> None:
    from hypothesis_mcp.gates import EXIT_BLOCKING, EXIT_OK, exit_code, gate_line

    clean = sample_report(results=[r for r in sample_report().results if r.status != "fail"],
                          smoke=Smoke(executed=False))
    assert exit_code(clean, None, ci=True) == EXIT_OK
    partial = dataclasses.replace(clean, partial_reasons=["interrupted"])
    assert exit_code(partial, None, ci=True) == EXIT_BLOCKING
    assert exit_code(partial, None, ci=False) == EXIT_OK
    assert gate_line(partial, None, None, ci=True) == "Gate failed — --ci: incomplete run (interrupted)"


def test_gates_a_blocking_failure_exits_1_with_or_without_ci_and_exit_zero_keeps_0() -> None:
    from hypothesis_mcp.gates import EXIT_BLOCKING, EXIT_OK, blocking, exit_code, gate_line

    report = dataclasses.replace(sample_report(), smoke=Smoke(executed=False))
    assert len(blocking(report)) == 2, "the sample report holds a sure probe failure and a crash"
    assert exit_code(report, None, ci=False) == exit_code(report, None, ci=True) == EXIT_BLOCKING
    assert exit_code(report, None, ci=False, exit_zero=True) == EXIT_OK
    assert exit_code(report, None, ci=True, exit_zero=True) == EXIT_OK
    named = "2 blocking failures: probe-silent-noop on create_note, server-crashed on sloppy"
    assert gate_line(report, None, None, ci=False) == f"Gate failed — {named}"
    assert gate_line(report, None, None, ci=True) == f"Gate failed — --ci: {named}"
    assert gate_line(report, None, None, ci=False, exit_zero=True) == \
        f"Gate failed, not enforced (--exit-zero) — {named}", "what failed is still named"
    interrupted = dataclasses.replace(report, interrupted=True)
    assert exit_code(interrupted, None, ci=False, exit_zero=True) == 130, "an interrupted run is never a pass"


def test_waived_results_in_every_format() -> None:
    results = sample_report().results
    place, sloppy = next((n, r) for n, r in enumerate(results) if r.rule == "edge-accepted-invalid-input")
    results[place] = dataclasses.replace(sloppy, status="waived", waiver={
        "rule": sloppy.rule, "tool": "sloppy", "source": "--ignore", "status": "fail"})
    report = sample_report(results=results)
    assert "Waived (1)" in console_text(report)
    assert "r004: edge-accepted-invalid-input on sloppy (was fail) — waived by --ignore" in flat(console_text(report))
    md = render_markdown(report)
    assert "### Waived (1)" in md and "waived by --ignore" in md
    assert "edge-accepted-invalid-input" not in md.split("### Failures")[1].split("###")[0]
    case = next(c for c in ET.fromstring(render_junit(report)).iter("testcase") if c.get("id") == "r004")
    skipped = case.find("skipped")
    assert skipped is not None and skipped.get("message", "").startswith("waived: r004")
    assert "1 waived: edge-accepted-invalid-input on sloppy" in render_badge_svg(report)


def test_a_score_that_is_not_whole_is_not_rounded_to_100() -> None:
    report = sample_report(score=99.8, grade="A", grade_cap=GradeCap())
    assert "Score 99.8%" in console_text(report)
    assert "Score 99.8%" in render_markdown(report)
    assert render_badge_json(report)["message"] == "A (99.8%)"


def test_markdown_leaves_out_a_seed_it_does_not_have() -> None:
    assert "seed" not in render_markdown(sample_report(seed=None))
    assert "seed `7`" in render_markdown(sample_report(seed=7))


def test_one_era_label_everywhere() -> None:
    from hypothesis_mcp.connection import ServerInfo
    from hypothesis_mcp.report.catalog import print_catalog

    label = "MCP 2026-07-28 (modern era, stateless)"
    assert label in console_text(sample_report(), verbose=True) and label in render_markdown(sample_report())
    console = Console(file=io.StringIO(), width=100, record=True, color_system=None)
    print_catalog(console, [], ServerInfo(name="notes-server", version="1.1.0", protocol_version="2026-07-28",
                                          era="modern"))
    assert label in console.export_text()


def test_long_reproductions_show_the_replay_command() -> None:
    long = Reproduction([Call("create_note", {"title": f"hm-{i}", "body": "x"}) for i in range(12)])
    results = [dataclasses.replace(r, reproduction=long) if r.rule == "probe-silent-noop" else r
               for r in sample_report().results]
    console = Console(file=io.StringIO(), width=100, record=True, color_system=None)
    render_console(sample_report(results=results), console, report_path="out/report.json")
    text = flat(console.export_text())
    assert "reproduction: 12 calls, starts from a fresh server; replay them with:" in text
    assert "hypothesis-mcp replay out/report.json --result 'r008'" in text
    assert '"hm-11"' not in text
    short = flat(console_text(sample_report()))
    assert 'server.call("search_notes", {"query": "hm1a2b-title"})' in short
    assert "hypothesis-mcp replay" not in short, "no command without a report file to replay from"


def test_result_ids_are_derived_from_what_the_result_is_about() -> None:
    from hypothesis_mcp.results import with_ids

    def made(tool: str, rule: str, kind: str = "probe", check: str = "bound") -> Result:
        return Result(kind=kind, check=check, tool=tool, status="warn", rule=rule, message="")  # type: ignore[arg-type]

    first = [made("list_notes", "probe-bound-exceeded"), made("list_notes", "probe-bound-exceeded"),
             made("search_notes", "probe-bound-short")]
    first = with_ids(first)
    assert [r.id for r in first] == ["probe/bound/probe-bound-exceeded/list_notes",
                                     "probe/bound/probe-bound-exceeded/list_notes#2",
                                     "probe/bound/probe-bound-short/search_notes"]
    more = [made("x", "smoke_unknown_tool", "smoke", "smoke_unknown_tool"), *[dataclasses.replace(r) for r in first]]
    more = with_ids(more)
    assert [r.id for r in more[1:]] == [r.id for r in first], "other results do not move an id"
