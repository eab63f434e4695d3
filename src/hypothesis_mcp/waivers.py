"""Waivers: `--ignore RULE[:TOOL]` and a config's `ignore:` list.

A waived result keeps its row with status `waived` (and the status it had), never gates and never
counts in the score, so a team can adopt a check in CI while a known finding is being fixed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.results import Result, RuleId
from hypothesis_mcp.rules.registry import RULES
from hypothesis_mcp.suggest import closest

WAIVABLE = ("fail", "warn")


@dataclass(frozen=True)
class Waiver:
    rule: RuleId
    tool: str | None
    source: str
    """Where it was given: `--ignore` or the config file's path."""

    @property
    def text(self) -> str:
        return f"{self.rule}:{self.tool}" if self.tool else self.rule

    def matches(self, result: Result) -> bool:
        """By rule, or by smoke check id (`smoke_invalid_arguments` judges by an edge rule)."""
        return self.rule in (result.rule, result.check) and (self.tool is None or result.tool == self.tool)


def parse_waiver(text: Any, source: str) -> Waiver:
    """`RULE` or `RULE:TOOL` (rule ids hold no colon, so a tool name may)."""
    if not isinstance(text, str) or not text.strip():
        raise UsageError(f"{source}: a waiver is RULE or RULE:TOOL, not {text!r}")
    rule, colon, tool = text.strip().partition(":")
    if not rule.strip() or (colon and not tool.strip()):
        raise UsageError(f"{source}: a waiver is RULE or RULE:TOOL, not {text!r}")
    if rule.strip() not in RULES:
        raise UsageError(f"{source}: no rule {rule.strip()!r}{closest(rule.strip(), RULES)}")
    return Waiver(RULES[rule.strip()].id, tool.strip() or None, source)


def apply_waivers(results: list[Result], waivers: list[Waiver]) -> tuple[list[Result], list[dict[str, Any]]]:
    """The results with matching failures and warnings waived, and what each waiver matched, for
    every format."""
    results = list(results)
    summary = []
    for waiver in waivers:
        matched = []
        for place, result in enumerate(results):
            if result.status in WAIVABLE and waiver.matches(result):
                results[place] = replace(result, status="waived", waiver={
                    "rule": waiver.rule, "tool": waiver.tool, "source": waiver.source, "status": result.status})
                matched.append(result.id)
        summary.append({"rule": waiver.rule, "tool": waiver.tool, "source": waiver.source, "matched": matched})
    return results, summary
