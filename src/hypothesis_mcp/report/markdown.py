"""A GitHub-flavoured Markdown summary, sized for `$GITHUB_STEP_SUMMARY` and pull-request comments."""

from __future__ import annotations

import re
from typing import Any

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
from hypothesis_mcp.results import SAME_CAUSE, Report, Smoke

SUBSCORES = ("happy", "edge", "lint", "effect")
MAX_ROWS = 50
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def render_markdown(report: Report) -> str:
    """Grade line, failures table, smoke summary and the top issue's reproduction."""
    server = report.server
    title = " ".join(p for p in (server.get("name") or "unnamed server", server.get("version", "")) if p)
    # The console's order: the four subscores, then what else the score stands on (exercised).
    names = [*SUBSCORES, *(k for k in report.subscores if k not in SUBSCORES)]
    subscores = " · ".join(f"{k} {percent(report.subscores.get(k))}" for k in names)
    partial = " (PARTIAL)" if report.partial else ""
    lines = [f"## MCP Scorecard: {_inline(title)}{partial}", "", f"**Grade {report.grade}** · Score "
             f"{percent(report.score)} · {subscores}", ""]
    if warning := partial_line(report):
        lines += [f"> **{_inline(warning)}**", ""]
    if capped := cap_line(report.grade_cap):
        lines += [f"> {_inline(capped)}", ""]
    seed = f" · seed `{report.seed}`" if report.seed is not None else ""
    era = era_label(server.get("era"), server.get("handshake"))
    lines += [f"MCP {server.get('protocol_version') or '?'} ({era}) · profile "
              f"`{report.profile}`{seed} · {report.stats.calls} calls in {report.stats.duration_s:.1f} s", ""]
    lines += _failures(report)
    lines += _waived(report)
    lines += _smoke(report.smoke)
    lines += _top_reproduction(report)
    return "\n".join(lines).rstrip() + "\n"


def _failures(report: Report) -> list[str]:
    failures = report.failures()
    if not failures:
        return ["No check failed.", ""]
    lines = [f"### Failures ({len(failures)})", "", "| Kind | Tool | Rule | Confidence | Finding | Fix |",
             "|---|---|---|---|---|---|"]
    ordered = top_issues(report, limit=len(failures))
    for result in ordered[:MAX_ROWS]:
        lines.append(
            f"| {result.kind} | {_cell(result.subject)} | `{result.rule}` | {result.confidence} "
            f"| {_cell(result.message)} | {_cell(fix_of(result))} |"
        )
    if len(ordered) > MAX_ROWS:
        lines.append(f"\n…and {len(ordered) - MAX_ROWS} more in the JSON report.")
    return [*lines, ""]


def _waived(report: Report) -> list[str]:
    waived = report.waived()
    if not waived:
        return []
    return [f"### Waived ({len(waived)})", "", "Shown, never gating, not scored.", "",
            *(f"- {_inline(waived_line(r))}" for r in waived), ""]


def _smoke(smoke: Smoke) -> list[str]:
    if not smoke.executed:
        requested = smoke.reason != Smoke().reason
        return ["### Smoke checks", "", f"Not run: {smoke.reason}", ""] if requested else []
    scope = "every tool called (`--call-all`)" if smoke.call_all else "only `readOnlyHint: true` tools called"
    lines = ["### Smoke checks", "",
             f"{smoke.passed} passed, {smoke.failed} failed, {smoke.skipped} skipped · tools called "
             f"{smoke.tools_called} of {smoke.tools_total} · {scope}", ""]
    failed = [_smoke_line(c) for c in smoke.checks if c.get("verdict") == "fail" and not _covered(c)]
    lines = [*lines, *failed, ""] if failed else lines
    if smoke.surfaces:
        counts = smoke.surface_summary()
        lines += [f"Resources and prompts: {counts['passed']} passed, {counts['failed']} failed, "
                  f"{counts['warned']} warned, {counts['skipped']} skipped", ""]
        shown = [_smoke_line(c) for c in smoke.surfaces if c.get("verdict") in ("fail", "warn")]
        lines += [*shown, ""] if shown else []
    return lines


def _covered(check: dict[str, Any]) -> bool:
    details = check.get("details")
    return isinstance(details, dict) and ("incident" in details or SAME_CAUSE in details)


def _smoke_line(check: dict[str, Any]) -> str:
    tool = check.get("tool_name") or (check.get("details") or {}).get("subject")
    where = f" [{_inline(str(tool))}]" if tool else ""
    verdict = str(check.get("verdict", "fail")).upper()
    return f"- **{verdict}** `{check.get('check_id')}`{where}: {_inline(str(check.get('message', '')))}"


def _top_reproduction(report: Report) -> list[str]:
    issue = next((r for r in top_issues(report) if r.reproduction and r.reproduction.calls), None)
    if issue is None or issue.reproduction is None:
        return []
    calls = [format_call(i, call) for i, call in enumerate(issue.reproduction.calls, 1)]
    fence = "````" if any("```" in c for c in calls) else "```"
    return [
        "### Reproduction of the top issue", "",
        f"`{issue.tool or 'server'}`: {_inline(issue.message)} (`{issue.rule}`, id `{issue.id}`) — "
        f"{reproduction_origin(issue.reproduction.fresh_server)}", "",
        f"{fence}text", *calls, fence, "",
    ]


def _inline(text: str) -> str:
    """One line of text that cannot open HTML, carry control characters or break the layout."""
    return " ".join(_CONTROL.sub("\ufffd", text).split()).replace("<", "&lt;").replace(">", "&gt;")


def _cell(text: str) -> str:
    return _inline(text).replace("|", "\\|")
