"""A fleet's combined report: the leaderboard (console and Markdown), JUnit with one suite per
server and SARIF with one run per server.

The leaderboard reads the combined JSON document, so `test --all` and `merge` print the same table;
JUnit and SARIF need each server's whole report and are written by the run that graded it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from hypothesis_mcp.report.issues import percent
from hypothesis_mcp.report.junit import clean, properties, testcase
from hypothesis_mcp.report.sarif import INFORMATION_URI, SCHEMA, Location, render_sarif
from hypothesis_mcp.results import SAME_CAUSE, ServerGrade

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
GRADE_STYLES = {"A": "bold green", "B": "bold green", "C": "bold yellow", "D": "bold red", "F": "bold red"}


@dataclass(frozen=True)
class Row:
    """One leaderboard line, read from a server's entry of the combined JSON report."""

    name: str
    grade: str | None
    score: float | None
    failures: int
    calls: int
    seconds: float
    exit: int
    error: str | None

    @classmethod
    def of(cls, entry: dict[str, Any]) -> Row:
        report = entry.get("report") or {}
        failed = [r for r in report.get("results", []) if r.get("status") == "fail" and (
            r.get("kind") == "incident" or not {"incident", SAME_CAUSE} & set(r.get("details") or {}))]
        stats = report.get("stats") or {}
        return cls(str(entry["name"]), entry.get("grade"), entry.get("score"), len(failed),
                   int(stats.get("calls", 0)), float(stats.get("duration_s", 0.0)), int(entry["exit"]),
                   entry.get("error"))


def leaderboard(document: dict[str, Any]) -> list[Row]:
    """Best score first, ungraded servers last, ties by name."""
    rows = [Row.of(entry) for entry in document["servers"]]
    return sorted(rows, key=lambda r: (r.score is None, -(r.score or 0.0), r.name))


def _one_line(text: str) -> str:
    return " ".join(_CONTROL.sub(" ", text).split())


def render_fleet_console(document: dict[str, Any], console: Console) -> None:
    table = Table(title=f"MCP fleet: {len(document['servers'])} server(s)", title_justify="left")
    for column in ("#", "server", "grade", "score", "failures", "calls", "time", "exit"):
        table.add_column(column, justify="right" if column in ("#", "score", "failures", "calls", "time") else "left")
    rows = leaderboard(document)
    for place, row in enumerate(rows, 1):
        graded = row.grade is not None
        table.add_row(str(place), Text(_one_line(row.name)),
                      Text(row.grade or "-", style=GRADE_STYLES.get(row.grade or "", "dim")),
                      percent(row.score) if graded else "-", str(row.failures) if graded else "-",
                      str(row.calls), f"{row.seconds:.1f}s", str(row.exit))
    console.print(table)
    for row in rows:
        if row.error:
            console.print(Text(f"{_one_line(row.name)} (exit {row.exit}): {_one_line(row.error)}", style="red"))


def render_fleet_markdown(document: dict[str, Any]) -> str:
    rows = leaderboard(document)
    lines = [f"## MCP Fleet Scorecard: {len(rows)} server(s)", "",
             f"Worst exit code: **{document['exit']}**", "",
             "| # | Server | Grade | Score | Failures | Calls | Time | Exit |", "|---|---|---|---|---|---|---|---|"]
    for place, row in enumerate(rows, 1):
        graded = row.grade is not None
        lines.append(f"| {place} | {_cell(row.name)} | {row.grade or '-'} | {percent(row.score) if graded else '-'} "
                     f"| {row.failures if graded else '-'} | {row.calls} | {row.seconds:.1f} s | {row.exit} |")
    errors = [f"- **{_cell(row.name)}** (exit {row.exit}): {_cell(row.error)}" for row in rows if row.error]
    if errors:
        lines += ["", "### Not graded", "", *errors]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return _one_line(text).replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")


def render_fleet_junit(grades: list[ServerGrade]) -> str:
    """One suite per server, one case per result; a server with no report is one errored case."""
    root = ET.Element("testsuites", name="hypothesis-mcp")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    duration = 0.0
    for grade in sorted(grades, key=lambda g: g.name):
        suite = ET.SubElement(root, "testsuite", name=clean(f"hypothesis-mcp.{grade.name}"))
        if grade.report is None:
            counts = {"tests": 1, "failures": 0, "errors": 1, "skipped": 0}
            case = ET.SubElement(suite, "testcase", classname="server.start", name=clean(grade.name), time="0")
            ET.SubElement(case, "error", message=clean(grade.error or "not graded"), type=f"exit-{grade.exit}")
        else:
            report = grade.report
            duration += report.stats.duration_s
            suite.append(properties(report))
            cases = [testcase(r) for r in report.results]
            suite.extend(cases)
            counts = {"tests": len(cases), "failures": sum(c.find("failure") is not None for c in cases),
                      "errors": 0, "skipped": sum(c.find("skipped") is not None for c in cases)}
            suite.set("time", f"{report.stats.duration_s:.3f}")
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{duration:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def render_fleet_sarif(grades: list[ServerGrade], locate: Callable[[ServerGrade], Location | None],
                       version: str) -> dict[str, Any]:
    """One SARIF run per server, told apart by its automation id; a server with no report is a run
    whose invocation failed, with the reason as its notification."""
    runs = []
    for grade in sorted(grades, key=lambda g: g.name):
        if grade.report is not None:
            run = render_sarif(grade.report, locate(grade))["runs"][0]
        else:
            run = {"tool": {"driver": {"name": "hypothesis-mcp", "version": version,
                                       "informationUri": INFORMATION_URI, "rules": []}},
                   "invocations": [{"executionSuccessful": False, "exitCode": grade.exit,
                                    "toolExecutionNotifications": [{"level": "error",
                                                                    "message": {"text": grade.error or ""}}]}],
                   "results": [], "properties": {"target": grade.target}}
        run["automationDetails"] = {"id": f"hypothesis-mcp/{grade.name}/"}
        runs.append(run)
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": runs}
