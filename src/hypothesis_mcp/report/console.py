"""The scorecard for a terminal: header, per-kind tables, smoke lines, and the issues to fix first.

All server-provided text goes through `_text`, never through rich markup: brackets in a message
(`[tool]`, `[truncated]`) print as they are, and control characters (an escape sequence in a tool's
answer) cannot reach the terminal.
"""

from __future__ import annotations

import re
from collections import defaultdict

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from hypothesis_mcp.report.issues import (
    cap_line,
    era_label,
    fix_of,
    format_call,
    partial_line,
    percent,
    reproduction_origin,
    top_issues,
    waived_line,
)
from hypothesis_mcp.results import Report, Result, Smoke

SUBSCORES = ("happy", "edge", "lint", "effect")
GRADE_STYLES = {"A": "bold green", "B": "bold green", "C": "bold yellow", "D": "bold red", "F": "bold red"}
# The Report default is a code; the engine writes a sentence, shown as it is.
ISOLATION_NOTES = {"fresh-process": "Isolation: every stateful example ran on a fresh server process."}
STATUS_STYLES = {"fail": "bold red", "warn": "yellow", "pass": "green", "skip": "dim", "inconclusive": "dim",
                 "waived": "magenta"}
MAX_SHOWN_CALLS = 8
MAX_SHOWN_CHARS = 1500
"""A longer reproduction is shown as its replay command instead of every call."""
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def render_console(report: Report, console: Console, *, report_path: str | None = None) -> None:
    """Print the whole report; sections with nothing to show are left out. `report_path` is where
    the JSON report is written, for the replay commands of long reproductions."""
    console.print(_header(report))
    tables = (_scenario_table(report), _lint_table(report), _probe_table(report), _incident_table(report))
    for table in tables:
        if table is not None:
            console.print(table)
    if report.smoke.executed or report.smoke.reason != Smoke().reason:
        console.print(_smoke_section(report.smoke))
    if report.smoke.surfaces:
        console.print(_surface_section(report.smoke))
    if waived := report.waived():
        console.print(Group(_text(f"Waived ({len(waived)}): shown, never gating, not scored", style="bold"),
                            *(_indent(_text(waived_line(r)), 2) for r in waived)))
    console.print(_top_issues(report, report_path))
    for note in report.notes:
        console.print(_text(note))
    if partial := partial_line(report):
        console.print(_text(partial, style="bold yellow"))


def _text(text: str, style: str = "") -> Text:
    return Text(_CONTROL.sub("\ufffd", text), style=style)


def _indent(renderable: RenderableType, left: int) -> Padding:
    return Padding(renderable, (0, 0, 0, left), expand=False)


def _header(report: Report) -> Panel:
    server = report.server
    title = " ".join(p for p in (server.get("name") or "unnamed server", server.get("version", "")) if p)
    lines = [
        _text(f"MCP Scorecard: {title}" + ("  —  PARTIAL" if report.partial else ""), style="bold"),
        Text.assemble("Grade ", (report.grade, GRADE_STYLES.get(report.grade, "bold")),
                      f"   Score {percent(report.score)}"),
    ]
    if partial := partial_line(report):
        lines.append(_text(partial, style="bold yellow"))
    if capped := cap_line(report.grade_cap):
        lines.append(_text(capped, style="yellow"))
    names = [*SUBSCORES, *(k for k in report.subscores if k not in SUBSCORES)]
    lines.append(_text("  |  ".join(f"{k} {percent(report.subscores.get(k))}" for k in names)))
    era = era_label(server.get("era"), server.get("handshake"))
    lines.append(_text(f"MCP {server.get('protocol_version') or '?'} ({era})"))
    lines.append(_text(ISOLATION_NOTES.get(report.isolation, f"Isolation: {report.isolation}"), style="dim"))
    return Panel(Text("\n").join(lines), expand=False)


def _table(title: str, columns: tuple[str, ...]) -> Table:
    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column, overflow="fold")
    return table


def _status(result: Result) -> Text:
    label = "FAIL" if result.status == "fail" else result.status
    return _text(label, style=STATUS_STYLES.get(result.status, ""))


def _of_kind(report: Report, kind: str) -> list[Result]:
    return [r for r in report.results if r.kind == kind]


def _scenario_table(report: Report) -> Table | None:
    cells: dict[str, dict[str, list[Result]]] = defaultdict(lambda: defaultdict(list))
    for result in _of_kind(report, "scenario"):
        cells[result.tool or "server"][result.check].append(result)
    if not cells:
        return None
    table = _table("Scenarios", ("Tool", "happy", "edge"))
    for tool, by_check in cells.items():
        table.add_row(_text(tool), *(_scenario_cell(by_check.get(check, [])) for check in ("happy", "edge")))
    return table


def _scenario_cell(results: list[Result]) -> Text:
    """'pass', or 'FAIL 2/5' when some failed, or the status that stands for the rest."""
    if not results:
        return _text("-", style="dim")
    failed = sum(r.status == "fail" for r in results)
    if failed:
        return _text(f"FAIL {failed}/{len(results)}", style=STATUS_STYLES["fail"])
    if any(r.check == "happy" and r.status == "inconclusive" for r in results):
        return _text("not exercised (no success)", style=STATUS_STYLES["inconclusive"])
    for status in ("warn", "waived", "pass", "inconclusive", "skip"):
        if any(r.status == status for r in results):
            return _text(status, style=STATUS_STYLES[status])
    return _text(results[0].status)


def _lint_table(report: Report) -> Table | None:
    findings = [r for r in _of_kind(report, "lint") if r.status != "pass"]
    if not findings:
        return None
    table = _table("Lint findings", ("Tool", "Rule", "Severity", "Finding"))
    for result in findings:
        table.add_row(_text(result.tool or "server"), _text(result.rule), _status(result),
                      _text(result.message))
    return table


def _probe_table(report: Report) -> Table | None:
    probes = _of_kind(report, "probe")
    if not probes:
        return None
    table = _table("Effect probes", ("Probe", "Tool", "Result", "Confidence", "Detail"))
    for result in probes:
        detail = result.message if result.status == "pass" else f"{result.message} ({result.rule})"
        table.add_row(_text(result.check), _text(result.tool or "server"), _status(result),
                      _text(result.confidence), _text(detail))
    return table


def _incident_table(report: Report) -> Table | None:
    incidents = _of_kind(report, "incident")
    if not incidents:
        return None
    table = _table("Incidents", ("Incident", "Tool", "Detail"))
    for result in incidents:
        table.add_row(_text(result.rule, style="bold red"), _text(result.tool or "server"),
                      _text(result.message))
    return table


def _smoke_section(smoke: Smoke) -> RenderableType:
    if not smoke.executed:
        return _text(f"Smoke checks: not run — {smoke.reason}")
    scope = "every tool called (--call-all)." if smoke.call_all else \
        "only readOnlyHint: true tools called (see --call-all)."
    checks = Table.grid(padding=(0, 1))
    checks.add_column(no_wrap=True, min_width=4)
    checks.add_column()
    for check in smoke.checks:
        verdict = str(check.get("verdict", ""))
        tool = check.get("tool_name") or (check.get("details") or {}).get("subject")
        where = f" [{tool}]" if tool else ""
        details = check.get("details")
        incident = details.get("incident") if isinstance(details, dict) else None
        message = f"see incident {incident}" if incident else check.get("message", "")
        checks.add_row(_text("FAIL" if verdict == "fail" else verdict, style=STATUS_STYLES.get(verdict, "")),
                       _text(f"{check.get('check_id', '')}{where}: {message}"))
        if incident:
            continue
        returned = details.get("returned") if isinstance(details, dict) else None
        if isinstance(returned, str) and returned:
            checks.add_row("", _text(returned, style="dim"))
    return Group(
        _text(f"Smoke checks: {smoke.passed} passed, {smoke.failed} failed, "
             f"{smoke.skipped} skipped — {scope} Never counted in the score."),
        _indent(_text(f"Tools called: {smoke.tools_called} of {smoke.tools_total} (a tool counts as called "
                      "once the server answered a tools/call for it)"), 2),
        _indent(checks, 2),
    )


def _surface_section(smoke: Smoke) -> RenderableType:
    """Resource and prompt checks: their own lines, so the tool counts above keep their meaning."""
    counts = smoke.surface_summary()
    checks = Table.grid(padding=(0, 1))
    checks.add_column(no_wrap=True, min_width=4)
    checks.add_column()
    for check in smoke.surfaces:
        verdict = str(check.get("verdict", ""))
        subject = (check.get("details") or {}).get("subject")
        where = f" [{subject}]" if subject else ""
        checks.add_row(_text("FAIL" if verdict == "fail" else verdict, style=STATUS_STYLES.get(verdict, "")),
                       _text(f"{check.get('check_id', '')}{where}: {check.get('message', '')}"))
    return Group(
        _text(f"Resources and prompts (resources/read, prompts/get): {counts['passed']} passed, {counts['failed']} "
              f"failed, {counts['warned']} warned, {counts['skipped']} skipped — never counted in the score."),
        _indent(checks, 2),
    )


def _reproduction(result: Result, report_path: str | None) -> list[RenderableType]:
    """Every call, ready to paste; a long one as the command that replays it from the JSON report."""
    assert result.reproduction is not None
    calls = [format_call(i, call) for i, call in enumerate(result.reproduction.calls, 1)]
    origin = reproduction_origin(result.reproduction.fresh_server)
    command = f"hypothesis-mcp replay {report_path or 'REPORT.json'} --result '{result.id}'"
    if len(calls) <= MAX_SHOWN_CALLS and sum(map(len, calls)) <= MAX_SHOWN_CHARS:
        parts: list[RenderableType] = [_text(f"reproduction, {origin}:", style="dim")]
        parts.extend(_indent(_text(call), 2) for call in calls)
        if report_path:
            parts.append(_text(f"replay: {command}", style="dim"))
        return parts
    where = "" if report_path else " (write the report with --json REPORT.json)"
    return [_text(f"reproduction: {len(calls)} calls, {origin}; replay them with:", style="dim"),
            _indent(_text(command + where), 2)]


def _top_issues(report: Report, report_path: str | None = None) -> RenderableType:
    issues = top_issues(report)
    if not issues:
        return _text("Top issues to fix: none — no check failed.", style="green")
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column()
    for number, result in enumerate(issues, 1):
        parts: list[RenderableType] = [
            _text(f"{result.subject}  {result.message} ({result.rule})  [{result.id}]"),
            _text(f"-> {fix_of(result)}", style="cyan"),
        ]
        if result.reproduction and result.reproduction.calls:
            parts.extend(_reproduction(result, report_path))
        grid.add_row(_text(f"{number}."), Group(*parts))
    return Group(_text("Top issues to fix", style="bold"), _indent(grid, 2))
