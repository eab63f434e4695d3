"""What a probe concluded, and how a replay can tell whether it still holds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.connection import Connection, Outcome
from hypothesis_mcp.results import Call
from hypothesis_mcp.stateful.readers import count_items, lines, shown


@dataclass
class ProbeFinding:
    """A violated effect property, with the calls (from a fresh server) that show it.

    `expect` is what a correct server's last answer in `calls` would satisfy; a replay checks it.
    """

    rule: str
    tool: str
    message: str
    confidence: str
    basis: str
    calls: list[Call] = field(default_factory=list)
    expect: dict[str, Any] = field(default_factory=dict)
    check: str = "round-trip"
    fresh: bool = True


class ProbeFailure(AssertionError):
    def __init__(self, finding: ProbeFinding) -> None:
        super().__init__(finding.message)
        self.finding = finding


def reproduces(finding: ProbeFinding, conn: Connection) -> bool:
    """Replay the calls on `conn` (a fresh server) and see the last answer break the property."""
    outcome: Outcome | None = None
    for call in finding.calls:
        outcome = conn.call(call.tool, call.arguments)
    return outcome is not None and outcome.ok and not holds(finding.expect, outcome)


def holds(expect: dict[str, Any], outcome: Outcome) -> bool:
    """True when `outcome` satisfies the expectation a probe recorded."""
    if "contains_any" in expect:
        text = shown(outcome)
        return any(token in text for token in expect["contains_any"])
    unit = expect.get("unit", "auto")
    if "max_items" in expect:
        return count_items(outcome, unit)[0] <= expect["max_items"]
    if "exact_items" in expect:
        return count_items(outcome, unit)[0] == expect["exact_items"]
    if "lines" in expect:
        return lines(outcome) == expect["lines"]
    return True
