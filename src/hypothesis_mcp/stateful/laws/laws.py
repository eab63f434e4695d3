"""The laws, each judged on one read's answer against the model of an example, and the rule of
the registry its breach maps to. A breach names the read that showed it (the last call of its
reproduction) and the expectation a replay judges that read by."""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.model.facts import Fact
from hypothesis_mcp.results import RuleId
from hypothesis_mcp.rules.answers import records_holding, shown
from hypothesis_mcp.rules.expectations import ContainsAny, Expectation, FieldEquals, NumberAt, SameAnswer, ShowsNone

ORDER: tuple[RuleId, ...] = (
    "probe-read-changed-state", "probe-refusal-changed-state", "probe-delete-kept", "probe-delete-took-other",
    "probe-silent-noop", "probe-data-lost", "probe-readers-disagree", "probe-value-changed", "probe-count-wrong")
"""Which breach of one check is reported when several show: the one nearest its cause first (a read
that consumed a record also makes every later reader miss it)."""


@dataclass
class Breach:
    rule: RuleId
    tool: str
    message: str
    expect: Expectation
    at: int
    """Index of the judged read among the example's calls."""
    facts: tuple[Fact, ...]
    confidence: str = "high"
    details: dict[str, Any] | None = None
    pinned: tuple[int, ...] = ()
    """Calls the law rests on (the record's write, the step that broke it): never shrunk away."""


def shows(answer: Outcome, tokens: tuple[str, ...]) -> bool:
    return answer.ok and any(t in shown(answer) for t in tokens)


def field_values(answer: Outcome, mark: str, name: str) -> list[Any]:
    return [r[name] for r in records_holding(answer, mark) if name in r] if answer.ok else []


def differing(answer: Outcome, mark: str | None, values: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """(field, written, shown) of each field the record shows with another value than last written.
    Only the object that holds the record's marker is read; a field it does not show is not judged."""
    if mark is None:
        return []
    found = []
    for name, value in values.items():
        seen = field_values(answer, mark, name)
        if seen and not any(same(v, value) for v in seen):
            found.append((name, value, seen[0]))
    return found


def same(shown_value: Any, written: Any) -> bool:
    """Equal, or equal up to a normalisation: the field probes report normalisations as warnings, so
    the machine judges only values that differ in substance."""
    if isinstance(written, bool) or isinstance(shown_value, bool):
        return shown_value is written
    if isinstance(written, list) and isinstance(shown_value, list) and len(written) == len(shown_value):
        return all(same(s, w) for s, w in zip(shown_value, written, strict=True))
    return bool(shown_value == written) or normalised(written, shown_value) or (written == "" and shown_value is None)


def normalised(written: Any, seen: Any) -> bool:
    """A text read back trimmed, case-folded, in another Unicode form or with its control characters
    stripped: a warning, not a loss."""
    if not (isinstance(written, str) and isinstance(seen, str)):
        return False
    forms = {written.strip(), unicodedata.normalize("NFKC", written), unicodedata.normalize("NFC", written),
             written.casefold(), unicodedata.normalize("NFKC", written).strip(), " ".join(written.split()),
             " ".join(written.splitlines()), written.replace("\n", " "),
             "".join(c for c in written if unicodedata.category(c) != "Cc")}
    return seen in forms or seen.casefold() in {f.casefold() for f in forms}


def field_breach(rule: RuleId, tool: str, reader: str, at: int, mark: str, diff: tuple[str, Any, Any],
                 facts: tuple[Fact, ...], what: str) -> Breach:
    name, written, seen = diff
    soft = rule == "probe-value-changed" and normalised(written, seen)
    return Breach(rule, tool, f"{what}: {reader} shows {name} as {short(seen)} where {short(written)} was last "
                  "written" + (" (normalised)" if soft else ""),
                  FieldEquals(name, written, mark), at, facts, "medium" if soft else "high",
                  {"field": name, "written": written, "read": seen})


def missing(rule: RuleId, tool: str, reader: str, at: int, tokens: tuple[str, ...], facts: tuple[Fact, ...],
            what: str) -> Breach:
    return Breach(rule, tool, f"{what}: {reader} no longer shows it" if rule != "probe-silent-noop"
                  else f"{what}: {reader} does not show it", ContainsAny(tokens, answered=True), at, facts)


def kept(rule: RuleId, tool: str, reader: str, at: int, tokens: tuple[str, ...], facts: tuple[Fact, ...],
         what: str) -> Breach:
    return Breach(rule, tool, f"{what}: {reader} still shows it", ShowsNone(tokens), at, facts)


def changed_by_read(tool: str, at: int, facts: tuple[Fact, ...]) -> Breach:
    return Breach("probe-read-changed-state", tool, f"{tool} answered the same read differently the second "
                  "time: the first call changed the record it read", SameAnswer(), at, facts)


def miscounted(tool: str, path: str, at: int, fresh: float, delta: int, seen: float, expected: float,
               facts: tuple[Fact, ...]) -> Breach:
    return Breach("probe-count-wrong", tool, f"{tool}'s {path} moved by {seen - (expected - delta):g} while the "
                  f"example added and removed {delta:+d} record(s) net", NumberAt(path, fresh + delta), at, facts,
                  details={"path": path, "expected_change": delta, "shown": seen, "expected": expected})


def first(breaches: list[Breach]) -> Breach | None:
    return min(breaches, key=lambda b: (ORDER.index(b.rule), b.at), default=None)


def short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."
