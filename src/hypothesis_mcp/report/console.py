"""The report for a terminal, most useful first: the grade, then each failure with its
reproduction, then one line of counts per check family; the command line prints the gate line
after it, once. `verbose` adds the per-kind tables and every smoke, resource and prompt check.

All server-provided text goes through `_text`, never through rich markup: brackets in a message
(`[tool]`, `[truncated]`) print as they are, and control characters (an escape sequence in a tool's
answer) cannot reach the terminal. On a terminal, prose wraps at its width; off a terminal (a CI
log, a file) nothing is wrapped, the viewer wraps, and no line ends in spaces.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import IO

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from hypothesis_mcp.gates import blocking
from hypothesis_mcp.report.issues import (
    cap_line,
    era_label,
    fix_of,
    partial_line,
    percent,
    ranked_failures,
    reproduction_origin,
    waived_line,
)
from hypothesis_mcp.results import SAME_CAUSE, Report, Result, Smoke
from hypothesis_mcp.snippet import program

SUBSCORES = ("happy", "edge", "lint", "effect")
GRADE_STYLES = {"A": "bold green", "B": "bold green", "C": "bold yellow", "D": "bold red", "F": "bold red"}
# The Report default is a code; the engine writes a sentence, shown as it is.
ISOLATION_NOTES = {"fresh-process": "Isolation: every stateful example ran on a fresh server process."}
STATUS_STYLES = {"fail": "bold red", "warn": "yellow", "pass": "green", "skip": "dim", "inconclusive": "dim",
                 "waived": "magenta"}
FAMILIES = (("scenario", "scenarios"), ("lint", "lint"), ("probe", "effect probes"), ("incident", "incidents"))
STATUS_WORDS = (("pass", "passed"), ("fail", "failed"), ("warn", "warned"), ("inconclusive", "inconclusive"),
                ("skip", "skipped"), ("waived", "waived"))
MAX_SHOWN_CALLS = 8
MAX_SHOWN_CHARS = 1500
"""A longer reproduction is shown as its replay command instead of every call."""
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
UNWRAPPED = 100_000
"""The width of a console that is no terminal: wide enough that a table is as wide as its cells."""


def report_console(*, stderr: bool = False) -> Console:
    """The console a report is printed on: a terminal's own width (a wider one would wrap every long
    line twice), or off a terminal (a pipe, a file, a CI log, with FORCE_COLOR or not) no width to
    wrap at."""
    stream = sys.stderr if stderr else sys.stdout
    if _is_tty(stream):
        return Console(highlight=False, stderr=stderr)
    return Console(highlight=False, stderr=stderr, width=UNWRAPPED)


def _is_tty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no such method, or a closed stream
        return False


def render_console(report: Report, console: Console, *, report_path: str | None = None, verbose: bool = False,
                   server_env: Mapping[str, str | None] | None = None) -> None:
    """Print the report; sections with nothing to show are left out. `report_path` is where the JSON
    report is written, for the replay commands; `server_env` is the environment the run gave the server (the
    report keeps only its names; a value of None is read from the environment), so reproductions
    and replay commands run as printed. Off a terminal nothing is wrapped: a log viewer wraps."""
    printer = _Printer(console, wrap=console.is_terminal, env=dict(server_env or {}))
    if console.is_terminal:
        printer.report(report, report_path=report_path, verbose=verbose)
        return
    with console.capture() as captured:
        printer.report(report, report_path=report_path, verbose=verbose)
    console.out("\n".join(line.rstrip() for line in captured.get().splitlines()), highlight=False)


class _Printer:
    def __init__(self, console: Console, *, wrap: bool, env: dict[str, str | None]) -> None:
        self.console = console
        self.wrap = wrap
        self.env = env

    def line(self, text: Text, indent: int = 0, *, paste: bool = False) -> None:
        """One line of the report; `paste` lines (calls, commands) are never wrapped."""
        shown = Text.assemble(" " * indent, text) if indent else text
        self.console.print(shown, soft_wrap=paste or not self.wrap)

    def report(self, report: Report, *, report_path: str | None, verbose: bool) -> None:
        for line in _headline(report):
            self.line(line)
        if verbose:
            self._details(report)
        self._failures(report, report_path, verbose=verbose)
        if waived := report.waived():
            self.line(_text(f"Waived ({len(waived)}): shown, never gating, not scored", style="bold"))
            for result in waived:
                self.line(_text(waived_line(result)), 2)
        self.line(_text("Checks" + ("" if verbose else " (each one with --verbose)"), style="bold"))
        for family in _family_lines(report):
            self.line(_text(family), 2)
        for note in report.notes:
            self.line(_text(note))

    def _details(self, report: Report) -> None:
        server = report.server
        era = era_label(server.get("era"), server.get("handshake"))
        self.line(_text(f"MCP {server.get('protocol_version') or '?'} ({era})", style="dim"))
        self.line(_text(ISOLATION_NOTES.get(report.isolation, f"Isolation: {report.isolation}"), style="dim"))
        for table in (_scenario_table(report), _lint_table(report), _probe_table(report), _incident_table(report)):
            if table is not None:
                self.console.print(table)
        if report.smoke.executed or report.smoke.reason != Smoke().reason:
            self.console.print(_smoke_section(report.smoke))
        if report.smoke.surfaces:
            self.console.print(_surface_section(report.smoke))

    def _failures(self, report: Report, report_path: str | None, *, verbose: bool) -> None:
        failures = ranked_failures(report)
        if not failures:
            self.line(_text("Failures: none — no check failed.", style="green"))
            return
        gating = {id(r) for r in blocking(report)}
        warned = sum(r.status == "warn" for r in failures)
        counts = ", ".join(p for p in (f"{len(failures) - warned} failed" if len(failures) > warned else "",
                                       f"{warned} warned" if warned else "") if p)
        self.line(_text(f"Failures, most severe first ({counts})", style="bold"))
        for number, result in enumerate(failures, 1):
            label = "BLOCKING" if id(result) in gating else result.status.upper()
            head = Text.assemble(_text(f"{number}. "), _text(label, style=STATUS_STYLES[result.status]),
                                 _text(f" {result.rule} on {result.subject}"),
                                 _text(f" ({result.confidence} confidence)", style="dim"))
            brief = result.status == "warn" and not verbose and not result.reproduction
            if brief:
                head.append_text(_text(f": {result.message}"))
                self.line(head)
                continue
            self.line(head)
            self.line(_text(result.message), 3)
            if reasons := because(result):
                self.line(_text(reasons, style="dim"), 3)
            self.line(_text(f"fix: {fix_of(result)}", style="cyan"), 3)
            if result.reproduction and result.reproduction.calls:
                self._reproduction(result, report.target, report_path)

    def _reproduction(self, result: Result, target: str, report_path: str | None) -> None:
        """The calls as Python to paste; a long one as the command that replays it from the JSON report."""
        assert result.reproduction is not None
        calls = result.reproduction.calls
        origin = reproduction_origin(result.reproduction.fresh_server)
        command = " ".join([f"hypothesis-mcp replay {report_path or 'REPORT.json'} --result '{result.id}'",
                            *(f"--env {shlex.quote(f'{name}={value}')}" for name, value in self.env.items()
                              if value is not None)])
        lines = program(result, target, note=f"the shrunk reproduction {origin}", env=self.env)
        if len(calls) <= MAX_SHOWN_CALLS and sum(map(len, lines)) <= MAX_SHOWN_CHARS:
            for line in lines:
                self.line(_text(line), 3, paste=True)
            if report_path:
                self.line(_text(f"replay: {command}", style="dim"), 3, paste=True)
            return
        where = "" if report_path else " (write the report with --json REPORT.json)"
        self.line(_text(f"reproduction: {len(calls)} calls, {origin}; replay them with:", style="dim"), 3)
        self.line(_text(f"{command}{where}"), 5, paste=True)


def _headline(report: Report) -> list[Text]:
    server = report.server
    title = " ".join(p for p in (server.get("name") or "unnamed server", server.get("version", "")) if p)
    names = [*SUBSCORES, *(k for k in report.subscores if k not in SUBSCORES)]
    subscores = "  |  ".join(f"{k} {percent(report.subscores.get(k))}" for k in names)
    partial = "  —  PARTIAL" if report.partial else ""
    lines = [Text.assemble(_text(f"MCP Scorecard: {title}{partial}   ", style="bold"), ("Grade ", "bold"),
                           (report.grade, GRADE_STYLES.get(report.grade, "bold")),
                           f"   Score {percent(report.score)}", (f"   ({subscores})", "dim"))]
    if capped := cap_line(report.grade_cap):
        lines.append(_text(capped, style="yellow"))
    if warning := partial_line(report):
        lines.append(_text(warning, style="bold yellow"))
    return lines


def _family_lines(report: Report) -> list[str]:
    """One line of counts per check family; the ones that did not pass are named."""
    lines = []
    for kind, label in FAMILIES:
        results = [r for r in report.results if r.kind == kind]
        if results:
            counts = Counter[str](r.status for r in results)
            lines.append(f"{label}: {_counts(counts)}")
    smoke = report.smoke
    if smoke.executed:
        scope = "every tool called" if smoke.call_all else "read-only tools only, see --call-all"
        lines.append(f"smoke: {smoke.passed} passed, {smoke.failed} failed, {smoke.skipped} skipped "
                     f"({smoke.tools_called} of {smoke.tools_total} tools called, {scope})")
    elif smoke.reason != Smoke().reason:
        lines.append(f"smoke: not run — {smoke.reason}")
    if smoke.surfaces:
        surfaces = smoke.surface_summary()
        lines.append("resources and prompts: " + _counts(Counter[str](
            {"pass": surfaces["passed"], "fail": surfaces["failed"], "warn": surfaces["warned"],
             "skip": surfaces["skipped"]})))
    return lines


def _counts(counts: Counter[str]) -> str:
    return ", ".join(f"{counts[status]} {word}" for status, word in STATUS_WORDS if counts[status])


def _text(text: str, style: str = "") -> Text:
    return Text(_CONTROL.sub("\ufffd", text), style=style)


def _indent(renderable: RenderableType, left: int) -> Padding:
    return Padding(renderable, (0, 0, 0, left), expand=False)


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
        if reasons := because(result):
            detail += f"; {reasons}"
        table.add_row(_text(result.check), _text(result.tool or "server"), _status(result),
                      _text(result.confidence), _text(detail))
    return table


def because(result: Result) -> str:
    """`because <fact> (shown by calls N–M), and <fact> (guessed from …)`, from `details.rests_on`."""
    facts = result.details.get("rests_on") if isinstance(result.details, dict) else None
    if not isinstance(facts, list) or not facts:
        return ""
    phrases = []
    for fact in facts:
        calls = fact.get("calls") or []
        if fact.get("evidence") != "shown":
            phrases.append(f"{fact.get('what')} (guessed from {fact.get('source')})")
        elif calls and all(isinstance(c, int) for c in calls):
            span = str(calls[0]) if len(calls) == 1 else f"{calls[0]}\u2013{calls[-1]}"
            phrases.append(f"{fact.get('what')} (shown by call{'s' if len(calls) > 1 else ''} {span})")
        elif calls:
            said = f"{len(calls)} call{'s' if len(calls) > 1 else ''} of {fact.get('source') or 'this run'}"
            phrases.append(f"{fact.get('what')} (shown by {said})")
        else:
            phrases.append(f"{fact.get('what')} ({fact.get('source') or 'shown'})")
    return "because " + ", and ".join(phrases)


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
        same = details.get(SAME_CAUSE) if isinstance(details, dict) else None
        message = f"see incident {incident}" if incident else f"see {same}" if same else check.get("message", "")
        checks.add_row(_text("FAIL" if verdict == "fail" else verdict, style=STATUS_STYLES.get(verdict, "")),
                       _text(f"{check.get('check_id', '')}{where}: {message}"))
        if incident or same:
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
