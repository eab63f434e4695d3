"""The laws, each judged on one read's answer against the model of an example, and the rule of
the registry its breach maps to. A breach names the read that showed it (the last call of its
reproduction) and the expectation a replay judges that read by."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.model.facts import Fact
from hypothesis_mcp.results import Call, RuleId
from hypothesis_mcp.rules.answers import shown
from hypothesis_mcp.rules.expectations import (
    ContainsAny,
    Expectation,
    FieldEquals,
    NoRecordFor,
    NumberAt,
    SameAnswer,
    ShowsNone,
)
from hypothesis_mcp.rules.text_records import Plain, records_for
from hypothesis_mcp.stateful.fidelity import Change, Enums, change
from hypothesis_mcp.strategies.markers import MARKER

ORDER: tuple[RuleId, ...] = (
    "probe-read-changed-state", "probe-refusal-changed-state", "probe-delete-kept", "read-missing-as-success",
    "probe-delete-took-other", "probe-delete-again-succeeded",
    "probe-silent-noop", "probe-identity-folded", "probe-identity-prefix", "probe-data-lost",
    "probe-rename-lost-fields",
    "probe-readers-disagree", "probe-value-changed",
    "probe-count-wrong", "probe-pages-repeat", "probe-pages-skip", "probe-reference-dangling")
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
    history: int = 0
    """Writes the warm server had answered as successes when the law broke: at most as many copies of
    the record's write go before a reproduction that a fresh server does not show (confirm.py)."""
    replay: tuple[Call, ...] = ()
    """The reproduction's calls where they are not the example's own up to its read: a law that judged
    records earlier writes of the run made gives their writes, then its own reads."""


def shows(answer: Outcome, tokens: tuple[str, ...]) -> bool:
    return answer.ok and any(t in shown(answer) for t in tokens)


def field_values(answer: Outcome, mark: str, name: str) -> list[Any]:
    return [r[name] for r in records_for(answer, mark) if name in r] if answer.ok else []


def differing(answer: Outcome, mark: str | None, values: dict[str, Any],
              typed: Enums | None = None) -> list[tuple[str, Any, Any, str]]:
    """(field, written, shown, confidence) of each field the record shows with another value than
    last written: high where every value shown lost it (stateful.fidelity's loss: cut, emptied,
    another number, flag or enum member); low where it was only normalised (whitespace, case, Unicode
    form: a correct store may mean to) or is another text as long or longer (a value the server
    derives, a date say), unless it holds another write's marker. A value reshaped
    (a text shown as the list of its parts) is no change, and a plain value of a text written with
    line breaks is not judged (the format cannot hold it). Only the record that holds the marker is
    read; a field it does not show is not judged."""
    if mark is None:
        return []
    found = []
    for name, value in values.items():
        seen = [v for v in field_values(answer, mark, name)
                if not (isinstance(v, Plain) and isinstance(value, str) and "\n" in value)]
        changes = [changed(name, value, str(v) if isinstance(v, Plain) else v, typed) for v in seen]
        if not seen or any(c is None for c in changes):
            continue
        lost = [(c is not None and c.loss) or another_writes(value, v) for c, v in zip(changes, seen, strict=True)]
        how = "high" if all(lost) else "low"
        found.append((name, value, seen[0], how))
    return found


def another_writes(written: Any, read: Any) -> bool:
    """A text read back holding a marker its written value does not hold is another write's value
    (an older one kept, or another record's), never the server's spelling of this one."""
    if not isinstance(written, str):
        return False
    own = set(MARKER.findall(written))
    return bool(own) and bool(set(MARKER.findall(str(read))) - own)


def changed(name: str, written: Any, read: Any, typed: Enums | None) -> Change | None:
    """How a field reads back otherwise (stateful.fidelity's change); a nested object's members each
    judged as a field, one left out of the object read back lost (a loss first): an object read back
    empty lost every member written."""
    if not (isinstance(written, dict) and isinstance(read, dict)):
        return change(name, written, read, typed)
    found: list[Change] = []
    for member, value in written.items():
        if value is None:
            continue
        if member not in read:
            found.append(Change(name, written, read, "", bool(value), f"{name}.{member} left out"))
            continue
        if (inner := changed(f"{name}.{member}", value, read[member], typed)) is not None:
            found.append(replace(inner, field=name, written=written, read=read))
    return min(found, key=lambda c: not c.loss, default=None)


def field_breach(rule: RuleId, tool: str, reader: str, at: int, mark: str, diff: tuple[str, Any, Any, str],
                 facts: tuple[Fact, ...], what: str, tokens: tuple[str, ...]) -> Breach:
    """A value lost is a failure; one only normalised or spelt another way a warning."""
    name, written, seen, confidence = diff
    how = "" if confidence == "high" else " (not lost: normalised or spelt another way)"
    return Breach(rule, tool, f"{what}: {reader} shows {name} as {short(seen)} where {short(written)} was last "
                  f"written{how}", FieldEquals(name, written, mark, tokens), at, facts,
                  confidence=confidence,
                  details={"field": name, "written": written, "read": seen})


def missing(rule: RuleId, tool: str, reader: str, at: int, tokens: tuple[str, ...], facts: tuple[Fact, ...],
            what: str) -> Breach:
    return Breach(rule, tool, f"{what}: {reader} no longer shows it" if rule != "probe-silent-noop"
                  else f"{what}: {reader} does not show it", ContainsAny(tokens, answered=True), at, facts)


def kept(rule: RuleId, tool: str, reader: str, at: int, tokens: tuple[str, ...], facts: tuple[Fact, ...],
         what: str) -> Breach:
    return Breach(rule, tool, f"{what}: {reader} still shows it", ShowsNone(tokens), at, facts)


def made_up(tool: str, at: int, asked: Any, facts: tuple[Fact, ...], members: tuple[str, ...] = (),
            flags: tuple[str, ...] = ()) -> Breach:
    return Breach("read-missing-as-success", tool, f"{tool} answered a read of a removed record with a record "
                  f"under {short(asked)} that holds none of its values: a failure answered as a success",
                  NoRecordFor((str(asked),), members, flags), at, facts, "medium")


def changed_by_read(tool: str, at: int, facts: tuple[Fact, ...]) -> Breach:
    return Breach("probe-read-changed-state", tool, f"{tool} answered the same read differently the second "
                  "time: the first call changed the record it read", SameAnswer(), at, facts)


def miscounted(tool: str, path: str, at: int, fresh: NumberAt, delta: int, seen: float, expected: float,
               facts: tuple[Fact, ...]) -> Breach:
    """A count that moved otherwise than the example's records; `fresh` is what a replay expects (the
    fresh number, moved by the replay's own accepted writes and removals)."""
    return Breach("probe-count-wrong", tool, f"{tool}'s {path} moved by {seen - (expected - delta):g} while the "
                  f"example added and removed {delta:+d} record(s) net", fresh, at, facts,
                  details={"path": path, "expected_change": delta, "shown": seen, "expected": expected})


def kept_count(count: Breach, remover: str, reader: str, path: str, removed: int, facts: tuple[Fact, ...]) -> Breach:
    """Law 4 seen on a count (`count`, law 5's breach of the same read): every record the example
    removed with success is still counted. Judged as law 5 judges it, by the number a replay expects."""
    return replace(count, rule="probe-delete-kept", tool=remover, facts=facts,
                   message=f"{removed} record(s) were removed with success by {remover}: {reader}'s {path} still "
                   "counts them: it stands as if none was removed")


def first(breaches: list[Breach]) -> Breach | None:
    return min(breaches, key=lambda b: (ORDER.index(b.rule), b.at), default=None)


def short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."
