"""What a probe concluded, and how a replay can tell whether it still holds."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.connection import Connection, Outcome
from hypothesis_mcp.results import Call
from hypothesis_mcp.stateful.readers import count_items, items_of, lines, shown


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
    outcomes = [conn.call(call.tool, call.arguments) for call in finding.calls]
    previous = outcomes[-2] if len(outcomes) > 1 else None
    return bool(outcomes) and outcomes[-1].ok and not holds(finding.expect, outcomes[-1], previous)


def holds(expect: dict[str, Any], outcome: Outcome, previous: Outcome | None = None) -> bool:
    """True when `outcome` satisfies the expectation a probe recorded. Bounded reads in a state
    machine are judged against the full read just before them (`previous`), so the expectation
    still means the same after a reproduction is made smaller."""
    if "agree" in expect and previous is not None:
        return agrees(expect["agree"], item_keys(previous, expect.get("left_field")),
                      item_keys(outcome, expect.get("right_field")))
    if expect.get("same_as_previous") and previous is not None:
        return same_answer(previous, outcome)
    if "slice" in expect and previous is not None:
        whole, n = lines(previous), expect["n"]
        want = whole[:n] if expect["slice"] == "head" else (whole[-n:] if n else [])
        return lines(outcome) == want
    if "exact_of" in expect and previous is not None:
        unit = expect.get("unit", "auto")
        return count_items(outcome, unit)[0] == min(expect["exact_of"], count_items(previous, unit)[0])
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


def item_keys(outcome: Outcome, fld: str | None) -> set[str]:
    """The items a call returned, each by its `fld` value when given, as comparable text."""
    return {json.dumps(i.get(fld) if fld and isinstance(i, dict) else i, sort_keys=True)
            for i in items_of(outcome) or []}


def agrees(expect: str, left: set[str], right: set[str]) -> bool:
    return left <= right if expect == "subset" else left == right


def same_answer(first: Outcome, second: Outcome) -> bool:
    """Two answers to the same call are the same, however long each took."""
    return first.to_dict() | {"elapsed_s": 0} == second.to_dict() | {"elapsed_s": 0}
