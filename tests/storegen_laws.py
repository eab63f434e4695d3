"""Grading a tester's reports on a storegen bug server and its correct twin, by the law the bug breaks.

storegen (../shared/storegen, see tests/storegen_truth.py) injects one bug per server, each of a class
that breaks one law any store keeps. A bug counts as *found* when the buggy server's report holds a
finding (a fail or warn that is not lint) whose rule names that law, on a tool the bug shows on, that
the twin's report does not also hold (same rule, same tool). *Looser*: any finding on such a tool the
twin lacks. Every finding on a twin is a false alarm; error-as-success on a twin is kept apart (its
refusal styles are judged elsewhere, issue #45).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ERROR_AS_SUCCESS = "error-as-success"

LAW_RULES: dict[str, frozenset[str]] = {
    # "every field written is read back": a read that shows another value or none of the write.
    "field-dropped": frozenset({"probe-value-changed", "probe-write-not-observable"}),
    # "every value is read back exactly as written".
    "value-mangled": frozenset({"probe-value-changed", "probe-write-not-observable"}),
    # "a write answered as a success is visible to the readers": a success that stored nothing, or a
    # replace whose old values stay.
    "write-ignored": frozenset({"probe-silent-noop", "probe-write-not-observable", "probe-overwrite-kept-old"}),
    # "a partial update changes only the fields it names": the fields it left out are lost.
    "update-lost-fields": frozenset({"probe-data-lost"}),
    # "after a successful delete no reader shows the record".
    "delete-noop": frozenset({"probe-delete-kept"}),
    # "every reader agrees with the latest writes": readers that disagree, a stale reader still showing a
    # deleted record, old values, or an old number.
    "reader-stale": frozenset({"probe-readers-disagree", "probe-paths-disagree", "probe-delete-kept",
                               "probe-overwrite-kept-old", "probe-count-wrong"}),
    # "counts equal the records the readers show".
    "count-drift": frozenset({"probe-count-wrong"}),
    # "a refused write changes nothing".
    "refusal-side-effect": frozenset({"probe-refusal-changed-state"}),
    # "reads change nothing": a read that changed the store, or a repeated read that answers otherwise.
    "read-mutates": frozenset({"probe-read-changed-state", "probe-not-idempotent"}),
    # "walking the pages yields every record exactly once".
    "page-skip": frozenset({"probe-pages-skip", "probe-pages-repeat"}),
    # "distinct keys name distinct records".
    "key-fold": frozenset({"probe-identity-folded"}),
    # "no record is lost without a stated limit": a write that took records it did not target.
    "evicts-silently": frozenset({"probe-data-lost"}),
    # "a rename changes only the key".
    "rename-drops": frozenset({"probe-rename-lost-fields"}),
    # "a failed operation is answered as a failure": a refusal, a missing record's read or a write that
    # stored nothing, each answered as a success.
    "error-as-success": frozenset({ERROR_AS_SUCCESS, "read-missing-as-success", "probe-silent-noop"}),
}
"""Each storegen bug class (its README's table) by the rules whose finding names the law it breaks.
A finding of another rule on the bug's tools is counted only as a looser find: the point is that the
report says what is wrong, not merely that something is."""

CONFIDENCES = ("high", "medium", "low")


def findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    """A report's findings: fail or warn results that are not lint."""
    return [r for r in report["results"] if r["status"] in ("fail", "warn") and r["kind"] != "lint"]


def load(path: Path) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return report


@dataclass(frozen=True)
class Pair:
    """One bug server and its twin, judged."""

    seed: int
    bug_class: str
    found: tuple[str, ...]
    """`rule@tool` of each finding that names the law on a bug tool, not on the twin."""
    looser: tuple[str, ...]
    alarms: tuple[tuple[str, str, str], ...]
    """Each twin finding as (rule, tool, confidence)."""


def judge(seed: int, bug: dict[str, Any], buggy: dict[str, Any], twin: dict[str, Any],
          names: dict[str, str] | None = None) -> Pair:
    """`bug`: `--describe`'s bug object. `names`: each real tool name by the name the reports use (a
    name-blind run's `t1`, `t2`…); by default the reports use the real names."""
    real = names or {}
    alarms = [(r["rule"], real.get(r["tool"], r["tool"]), r["confidence"]) for r in findings(twin)]
    on_twin = {(rule, tool) for rule, tool, _ in alarms}
    on_bug = [(r["rule"], real.get(r["tool"], r["tool"])) for r in findings(buggy)]
    new = sorted({(rule, tool) for rule, tool in on_bug if tool in bug["tools"] and (rule, tool) not in on_twin})
    law = LAW_RULES[bug["class"]]
    return Pair(seed, bug["class"], tuple(f"{rule}@{tool}" for rule, tool in new if rule in law),
                tuple(f"{rule}@{tool}" for rule, tool in new), tuple(sorted(alarms)))


@dataclass
class ClassRow:
    """The pairs of one bug class, summed."""

    servers: int = 0
    found: int = 0
    looser: int = 0
    alarms: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CONFIDENCES, 0))
    error_as_success: int = 0

    def add(self, pair: Pair) -> None:
        self.servers += 1
        self.found += bool(pair.found)
        self.looser += bool(pair.looser)
        for rule, _, confidence in pair.alarms:
            if rule == ERROR_AS_SUCCESS:
                self.error_as_success += 1
            else:
                self.alarms[confidence] += 1


def by_class(pairs: Iterable[Pair]) -> dict[str, ClassRow]:
    rows: dict[str, ClassRow] = {}
    for pair in pairs:
        rows.setdefault(pair.bug_class, ClassRow()).add(pair)
    return dict(sorted(rows.items()))


def serious_alarms(pairs: Iterable[Pair]) -> list[str]:
    """Every twin finding of medium or high confidence, error-as-success aside, said."""
    return [f"seed {p.seed} {p.bug_class} twin: {rule}@{tool} ({confidence})" for p in pairs
            for rule, tool, confidence in p.alarms if confidence != "low" and rule != ERROR_AS_SUCCESS]
