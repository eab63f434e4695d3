"""What a correct server's answer satisfies, one class per kind of expectation.

Every check that finds a failure and every replay of it judge through the same `holds`, so a
replay judges exactly what failed. An expectation about a read (the effect probes) is written
into the report as the dict `to_dict` makes, and read back by `from_dict`.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from jsonschema import exceptions as jsonschema_exceptions

from hypothesis_mcp.catalog import snake
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.results import Call, IncidentRule, RuleId
from hypothesis_mcp.rules.answers import (
    claimed_record,
    count_items,
    held_with,
    items_of,
    lines,
    numbers_in,
    records_holding,
    shaped_record,
    shown,
)
from hypothesis_mcp.rules.bindings import Rebinder, find_id, text_id
from hypothesis_mcp.rules.text_records import records_for, table_rows, text_records
from hypothesis_mcp.strategies.dialect import value_validator
from hypothesis_mcp.strategies.markers import MARKER

INCIDENT_RULES: dict[str, IncidentRule] = {
    "closed": "server-crashed", "timeout": "call-timeout", "protocol": "protocol-violation",
}
INVALID_PARAMS = -32602


@dataclass
class Finding:
    """Why one answer broke a rule: the rule, a message, and anything worth showing."""

    rule: RuleId
    message: str
    details: dict[str, Any] = field(default_factory=dict)


class Expectation:
    """A property of one answer (and, for a read judged against a full read, the answer before it)."""

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """The report's form of the expectation (effect probes write it under `details.expect`)."""
        return {}

    def written_by(self, arguments: list[dict[str, Any]]) -> bool:
        """Whether calls with these arguments (before the judged one, on a fresh server) could have
        stored what the expectation looks for; a read cannot be blamed for missing a value no call
        wrote."""
        return True

    def settled(self, steps: list[tuple[Call, Outcome]]) -> Expectation:
        """The expectation on a replay's own calls and answers (a count counts what the replay's
        writes made, not what the run's did)."""
        return self


# Expectations about a single call --------------------------------------------------------------


@dataclass(frozen=True)
class NoIncident(Expectation):
    """The server answers: it neither exits, nor hangs, nor breaks the protocol."""

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return answer.kind not in INCIDENT_RULES

    def breach(self, answer: Outcome) -> Finding | None:
        rule = INCIDENT_RULES.get(answer.kind)
        if rule is None:
            return None
        return Finding(rule, answer.summary(), {"returned": answer.summary()})


@dataclass(frozen=True)
class Served(Expectation):
    """Schema-valid arguments are served: no internal error, and no 'invalid params' (-32602).
    An isError result is not a breach: it may refuse a made-up value."""

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return self.breach(answer) is None

    def breach(self, answer: Outcome) -> str | None:
        if answer.kind == "error" and not answer.rejected:
            return f"internal error {answer.code} for schema-valid arguments"
        if answer.kind == "error" and answer.code == INVALID_PARAMS:
            return f"rejected schema-valid arguments as invalid params (-32602): {answer.message[:200]}"
        return None


@dataclass(frozen=True)
class Refused(Expectation):
    """Schema-invalid arguments are not served with a success result."""

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return not answer.ok


@dataclass(frozen=True)
class RefusedCleanly(Expectation):
    """Schema-invalid arguments are refused as bad input, not with an internal error."""

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return not (answer.kind == "error" and not answer.rejected)


@dataclass(frozen=True)
class UnknownToolRefused(Expectation):
    """A call to a tool that does not exist is a JSON-RPC error that refuses it."""

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return answer.protocol_refusal and answer.rejected


@dataclass(frozen=True)
class FailsAsError(Expectation):
    """A failure is answered as one: no success result whose content says the call failed."""

    key: ClassVar[str] = "fails_as_error"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return not answer.error_shaped

    def to_dict(self) -> dict[str, Any]:
        return {self.key: True}


@dataclass(frozen=True)
class Succeeds(Expectation):
    """The call is served with a success result."""

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return answer.ok


@dataclass(frozen=True)
class ConformsTo(Expectation):
    """A success result carries structuredContent that validates against the outputSchema.
    Only a success is judged: an error result says nothing about the output schema."""

    schema: dict[str, Any]

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return self.breach(answer) is None

    def breach(self, answer: Outcome) -> Finding | None:
        if not answer.ok:
            return None
        if not answer.has_structured:
            return Finding(
                "smoke_structured_content",
                "declared outputSchema is not honored: the result carries no structuredContent",
                {"returned": answer.summary()},
            )
        error = jsonschema_exceptions.best_match(value_validator(self.schema).iter_errors(answer.structured))
        if error is None:
            return None
        path = "/" + "/".join(str(p) for p in error.absolute_path)
        return Finding(
            "smoke_structured_content",
            f"declared outputSchema is not honored: {error.message} (at {path})",
            {"returned": answer.summary(), "path": path, "keyword": error.validator},
        )


# Expectations about a read (effect probes) --------------------------------------------------
# A read that is not a success shows nothing to judge, so it holds.


@dataclass(frozen=True)
class ContainsAny(Expectation):
    """The read shows at least one of the tokens a write stored. With `answered`, the reader has
    shown such records before, so an isError answer ("not found") is no excuse either."""

    tokens: tuple[str, ...]
    answered: bool = False
    key: ClassVar[str] = "contains_any"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if not answer.ok:
            return not (self.answered and answer.kind == "result")
        text = shown(answer)
        return any(token in text for token in self.tokens)

    def to_dict(self) -> dict[str, Any]:
        return {self.key: list(self.tokens), **({"answered": True} if self.answered else {})}

    def written_by(self, arguments: list[dict[str, Any]]) -> bool:
        sent = json.dumps(arguments)
        return any(token in sent for token in self.tokens)


@dataclass(frozen=True)
class ShowsNone(Expectation):
    """The read shows none of these tokens (an error answer, "not found", shows none): a deleted
    record's, or the old values a search must no longer find a replaced record by."""

    tokens: tuple[str, ...]
    key: ClassVar[str] = "shows_none"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        text = shown(answer) if answer.ok else ""
        return not any(token in text for token in self.tokens)

    def to_dict(self) -> dict[str, Any]:
        return {self.key: list(self.tokens)}


@dataclass(frozen=True)
class FindsNothing(Expectation):
    """A keyed read of an identity no write stored answers a refusal ("not found"), as it does for
    one never written: a refused write's identity."""

    asked: str
    key: ClassVar[str] = "finds_nothing"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return not answer.ok

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.asked}


@dataclass(frozen=True)
class Finds(Expectation):
    """A keyed read of an identity an update answered as changed answers a success: the record is
    there (a record with no value to mark is told by its identity alone)."""

    asked: str
    key: ClassVar[str] = "finds"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return answer.ok

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.asked}


@dataclass(frozen=True)
class FieldEquals(Expectation):
    """The record the read shows (the object, or the text record, holding `marker`) has `field` equal
    to what was written."""

    field: str
    value: Any
    marker: str
    tokens: tuple[str, ...] = ()
    """The marked values the record held when it was judged: a call that sent one wrote to it."""
    key: ClassVar[str] = "field_equals"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if not answer.ok:
            return True
        shown_values = [r[self.field] for r in records_for(answer, self.marker) if self.field in r]
        return not shown_values or any(v == self.value for v in shown_values)

    def written_by(self, arguments: list[dict[str, Any]]) -> bool:
        """A call sent the value under the field to this record: one that carried a marked value the
        record holds, or no marker at all (a change named by a server-made id). A replay shrunk past
        the write that set it (an earlier update) expects a value none of its calls wrote to it, and
        another record's write of the same value is no such call."""
        own = {self.marker, *self.tokens} - {""}
        sent = (json.dumps(a, ensure_ascii=False) for a in arguments if self.field in a and a[self.field] == self.value)
        return any(any(t in text for t in own) or not MARKER.search(text) for text in sent)

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.field, "value": self.value, "marker": self.marker,
                **({"tokens": list(self.tokens)} if self.tokens else {})}


@dataclass(frozen=True)
class FieldShown(Expectation):
    """The record the read shows (the object, or the text record, holding `marker`) has `field`:
    a value written under it is not left out. `written`: the token the write of the field carried,
    where a later call gave the record `marker` (a move) and the write's own token left it."""

    field: str
    marker: str
    written: str = ""
    key: ClassVar[str] = "field_shown"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if not answer.ok:
            return True
        records = records_for(answer, self.marker)
        return not records or any(self.field in r for r in records)

    def written_by(self, arguments: list[dict[str, Any]]) -> bool:
        sent = [(a, json.dumps(a, ensure_ascii=False)) for a in arguments]
        return any(self.field in a and (self.written or self.marker) in text for a, text in sent) \
            and any(self.marker in text for _, text in sent)

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.field, "marker": self.marker, **({"written": self.written} if self.written else {})}


@dataclass(frozen=True)
class FieldKept(Expectation):
    """The record the read shows (the objects holding `marker`) has a value for `field` when the
    same answer shows one on the record holding `witness`: the reader shows the field."""

    field: str
    marker: str
    witness: str
    key: ClassVar[str] = "field_kept"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if not answer.ok:
            return True
        mine = records_holding(answer, self.marker)
        theirs = [r for r in records_holding(answer, self.witness) if r not in mine]
        lost = bool(mine) and all(r.get(self.field) is None for r in mine)
        return not (lost and any(r.get(self.field) is not None for r in theirs))

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.field, "marker": self.marker, "witness": self.witness}


@dataclass(frozen=True)
class AtMost(Expectation):
    """A bounded read returns at most `n` items (or lines)."""

    n: int
    unit: str
    key: ClassVar[str] = "max_items"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return not answer.ok or count_items(answer, self.unit)[0] <= self.n

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.n, "unit": self.unit}


@dataclass(frozen=True)
class Exactly(Expectation):
    """A bounded read returns no fewer than min(N, available) items: `n` is that minimum. A
    read may return more (up to its bound) when the read without the bound is itself paged."""

    n: int
    unit: str
    key: ClassVar[str] = "exact_items"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return not answer.ok or count_items(answer, self.unit)[0] >= self.n

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.n, "unit": self.unit}


@dataclass(frozen=True)
class ExactlyOf(Expectation):
    """A read bounded by `n` returns no fewer than min(n, what the full read before it returned)."""

    n: int
    unit: str
    key: ClassVar[str] = "exact_of"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if before is None or not (before.ok and answer.ok):
            return True
        return count_items(answer, self.unit)[0] >= min(self.n, count_items(before, self.unit)[0])

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.n, "unit": self.unit}


@dataclass(frozen=True)
class Lines(Expectation):
    """A read returns exactly these lines."""

    lines: tuple[str, ...]
    key: ClassVar[str] = "lines"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return not answer.ok or lines(answer) == list(self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {self.key: list(self.lines)}


@dataclass(frozen=True)
class Slice(Expectation):
    """A head/tail read returns the first/last `n` lines of the full read before it."""

    end: str
    n: int
    key: ClassVar[str] = "slice"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if before is None or not (before.ok and answer.ok):
            return True
        whole = lines(before)
        want = whole[:self.n] if self.end == "head" else (whole[-self.n:] if self.n else [])
        return lines(answer) == want

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.end, "n": self.n}


@dataclass(frozen=True)
class Agree(Expectation):
    """Two declared reads list the same items (`equal`) or the first's are among the second's."""

    relation: str
    left_field: str | None
    right_field: str | None
    key: ClassVar[str] = "agree"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if before is None or not (before.ok and answer.ok):
            return True
        return self.agrees(item_keys(before, self.left_field), item_keys(answer, self.right_field))

    def agrees(self, left: set[str], right: set[str]) -> bool:
        return left <= right if self.relation == "subset" else left == right

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.relation, "left_field": self.left_field, "right_field": self.right_field}


@dataclass(frozen=True)
class SameAnswer(Expectation):
    """A repeated read answers the same as the one before it, however long each took (an error
    after a success is another answer too)."""

    key: ClassVar[str] = "same_as_previous"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return before is None or same_answer(before, answer)

    def to_dict(self) -> dict[str, Any]:
        return {self.key: True}


@dataclass(frozen=True)
class InOrder(Expectation):
    """A listing shows these records (by their markers) in this order, as it did before a read; a
    record it does not show is not judged."""

    markers: tuple[str, ...]
    key: ClassVar[str] = "in_order"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        text = shown(answer) if answer.ok else ""
        at = [i for m in self.markers if (i := text.find(m)) >= 0]
        return at == sorted(at)

    def to_dict(self) -> dict[str, Any]:
        return {self.key: list(self.markers)}


@dataclass(frozen=True)
class PagesDisjoint(Expectation):
    """Two pages of one walk show no record in common: of the written records (by their markers),
    none the page before showed is on this page too."""

    markers: tuple[str, ...]
    key: ClassVar[str] = "pages_disjoint"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if before is None or not (before.ok and answer.ok):
            return True
        earlier, text = shown(before), shown(answer)
        return not any(m in earlier and m in text for m in self.markers)

    def to_dict(self) -> dict[str, Any]:
        return {self.key: list(self.markers)}


@dataclass(frozen=True)
class PagesCover(Expectation):
    """A walk's last two pages show every record (by its marker) no earlier page showed, once the
    last page ends the walk: it names no next cursor (under one of `following`, in its JSON or its
    text lines), or, paged by offset or number, it is empty. A page that leads on is no end, so
    nothing is judged."""

    markers: tuple[str, ...]
    following: tuple[str, ...] = ()
    walked: bool = False
    """The call before the last is the walk's page before it: where it shows no items (or, walked by
    a cursor, names none) it was no page, and the walk is not judged (a reproduction without its
    first page shows nothing)."""
    key: ClassVar[str] = "pages_cover"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if not answer.ok or (self.walked and (before is None or not before.ok or not (
                page_items(before) or (self.following and self.leads_on(before))))):
            return True
        if self.leads_on(answer) if self.following else bool(page_items(answer)):
            return True
        text = shown(answer) + (shown(before) if before is not None and before.ok else "")
        return all(m in text for m in self.markers)

    def leads_on(self, answer: Outcome) -> bool:
        names = tuple(snake(n) for n in self.following)  # as find_id compares them: `nextCursor` too
        return (find_id(answer, names) or text_id(answer, names)) is not None

    def to_dict(self) -> dict[str, Any]:
        return {self.key: list(self.markers), **({"following": list(self.following)} if self.following else {}),
                **({"walked": True} if self.walked else {})}

    def written_by(self, arguments: list[dict[str, Any]]) -> bool:
        sent = json.dumps(arguments, ensure_ascii=False)
        return all(m in sent for m in self.markers)


@dataclass(frozen=True)
class Replaced(Expectation):
    """A read after a replacing write shows the record's old values or its new ones, never both
    (an old entry listed beside the new, a stale copy): fails only when one of `old` and one of
    `new` show together, so a reproduction without either write cannot fail."""

    old: tuple[str, ...]
    new: tuple[str, ...]
    key: ClassVar[str] = "replaced"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if not answer.ok:
            return True
        text = shown(answer)
        return not (any(t in text for t in self.old) and any(t in text for t in self.new))

    def to_dict(self) -> dict[str, Any]:
        return {self.key: list(self.old), "new": list(self.new)}


@dataclass(frozen=True)
class ListedOnce(Expectation):
    """A listing shows the record of one identity (`token`) in one item at most (in one line, for a
    text answer)."""

    token: str
    key: ClassVar[str] = "listed_once"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if not answer.ok:
            return True
        items = items_of(answer)
        parts = [json.dumps(i, ensure_ascii=False) for i in items] if items is not None else lines(answer)
        return sum(self.token in p for p in parts) <= 1

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.token}


@dataclass(frozen=True)
class Moved(Expectation):
    """After a call that gave the record of identity `old` the identity `new` (a call carrying
    both), the read shows every one of `tokens` in the record of `new` (`carried`), or none of them
    in a record of `old` (not `carried`). `whole`: the read asked for one record, so its whole
    answer is that record. Before such a call, a read is not judged."""

    old: str
    new: str
    tokens: tuple[str, ...]
    carried: bool
    whole: bool
    key: ClassVar[str] = "moved"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if self.carried:
            return answer.kind != "result" or set(self.tokens) <= held_with(answer, self.new, self.tokens, self.whole)
        return not held_with(answer, self.old, self.tokens, self.whole, besides=self.new)

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.old, "new": self.new, "tokens": list(self.tokens), "carried": self.carried,
                "whole": self.whole}

    def written_by(self, arguments: list[dict[str, Any]]) -> bool:
        sent = [json.dumps(a, ensure_ascii=False) for a in arguments]
        return any(self.old in a and self.new in a for a in sent) and all(any(t in a for a in sent)
                                                                          for t in self.tokens)


@dataclass(frozen=True)
class NumberAt(Expectation):
    """The number an answer shows at `path` (rules.answers.numbers_in) is `value`: a count equals
    the number of records the writes before it made."""

    path: str
    value: float
    adds: tuple[str, ...] = ()
    """Tools each of whose calls that a replay's server accepts makes one record the number counts:
    `value` is then the number before any call, and the replay's accepted calls move it (`settled`).
    A refused call counts none, so a reproduction expects what the calls it keeps made."""
    keys: tuple[str, ...] = ()
    """For each of `adds`, the argument naming the record it writes ("" where none does): an accepted
    call under a name an earlier accepted call wrote replaces that record and makes none."""
    takes: tuple[str, ...] = ()
    """Tools each of whose accepted calls removes one record the number counts."""
    key: ClassVar[str] = "number_at"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return not answer.ok or numbers_in(answer).get(self.path, self.value) == self.value

    def to_dict(self) -> dict[str, Any]:
        moves = {"adds": list(self.adds), "keys": list(self.keys), "takes": list(self.takes)} \
            if self.adds or self.takes else {}
        return {self.key: self.path, "value": self.value, **moves}

    def settled(self, steps: list[tuple[Call, Outcome]]) -> Expectation:
        if not self.adds and not self.takes:
            return self
        named = dict(zip(self.adds, self.keys, strict=False))
        live: set[tuple[str, str]] = set()
        gone: set[str] = set()
        net = 0
        for call, outcome in steps[:-1]:
            if not outcome.ok:
                continue
            if call.tool in named:
                arg = named[call.tool]
                value = call.arguments.get(arg) if arg else None
                name = None if value is None else (call.tool, json.dumps(value, sort_keys=True))
                net += name is None or name not in live
                live.update({name} if name is not None else set())
                gone -= {name[1]} if name is not None else set()
            elif call.tool in self.takes:
                sent = {json.dumps(v, sort_keys=True) for v in call.arguments.values()}
                taken = {n for n in live if n[1] in sent}
                # A removal naming a record this replay removed already, and no live one, takes none
                # (a correct server may answer it as a success); any other takes one (it may name
                # the record by an id its server made, which no write sent).
                net -= bool(taken or not sent & gone)
                live -= taken
                gone |= {n[1] for n in taken}
        return NumberAt(self.path, self.value + net)


@dataclass(frozen=True)
class Unjudged(Expectation):
    """What a report from another version recorded in a form this one does not know: it holds."""

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        return True


def from_dict(data: dict[str, Any]) -> Expectation:
    """The expectation a report's `details.expect` describes."""
    unit = data.get("unit", "auto")
    if Agree.key in data:
        return Agree(data[Agree.key], data.get("left_field"), data.get("right_field"))
    if data.get(SameAnswer.key):
        return SameAnswer()
    if Slice.key in data:
        return Slice(data[Slice.key], data["n"])
    if ExactlyOf.key in data:
        return ExactlyOf(data[ExactlyOf.key], unit)
    if InOrder.key in data:
        return InOrder(tuple(data[InOrder.key]))
    if PagesDisjoint.key in data:
        return PagesDisjoint(tuple(data[PagesDisjoint.key]))
    if PagesCover.key in data:
        return PagesCover(tuple(data[PagesCover.key]), tuple(data.get("following", ())), bool(data.get("walked")))
    if ShowsNone.key in data:
        return ShowsNone(tuple(data[ShowsNone.key]))
    if FindsNothing.key in data:
        return FindsNothing(str(data[FindsNothing.key]))
    if Finds.key in data:
        return Finds(str(data[Finds.key]))
    if data.get(FailsAsError.key):
        return FailsAsError()
    if Replaced.key in data:
        return Replaced(tuple(data[Replaced.key]), tuple(data.get("new", ())))
    if ListedOnce.key in data:
        return ListedOnce(str(data[ListedOnce.key]))
    if Moved.key in data:
        return Moved(str(data[Moved.key]), str(data.get("new", "")), tuple(data.get("tokens", ())),
                     bool(data.get("carried")), bool(data.get("whole")))
    if NumberAt.key in data:
        return NumberAt(str(data[NumberAt.key]), float(data.get("value", 0)), tuple(data.get("adds", ())),
                        tuple(data.get("keys", ())), tuple(data.get("takes", ())))
    if ContainsAny.key in data:
        return ContainsAny(tuple(data[ContainsAny.key]), bool(data.get("answered")))
    if FieldEquals.key in data:
        return FieldEquals(data[FieldEquals.key], data.get("value"), str(data.get("marker", "")),
                           tuple(data.get("tokens", ())))
    if NoRecordFor.key in data:
        return NoRecordFor(tuple(str(a) for a in data[NoRecordFor.key]), tuple(data.get("members", ())),
                           tuple(data.get("flags", ())))
    if FieldShown.key in data:
        return FieldShown(data[FieldShown.key], str(data.get("marker", "")), str(data.get("written", "")))
    if FieldKept.key in data:
        return FieldKept(data[FieldKept.key], str(data.get("marker", "")), str(data.get("witness", "")))
    if AtMost.key in data:
        return AtMost(data[AtMost.key], unit)
    if Exactly.key in data:
        return Exactly(data[Exactly.key], unit)
    if Lines.key in data:
        return Lines(tuple(data[Lines.key]))
    return Unjudged()


def page_items(outcome: Outcome) -> list[Any]:
    """A page's items: the list its JSON holds, else its table's rows (a text page)."""
    found = items_of(outcome)
    return table_rows(outcome) if found is None else found


def item_keys(outcome: Outcome, fld: str | None) -> set[str]:
    """The items a call returned, each by its `fld` value when given, as comparable text."""
    return {json.dumps(i.get(fld) if fld and isinstance(i, dict) else i, sort_keys=True)
            for i in items_of(outcome) or []}


def same_answer(first: Outcome, second: Outcome) -> bool:
    """Two answers to the same call are the same, however long each took."""
    return first.to_dict() | {"elapsed_s": 0} == second.to_dict() | {"elapsed_s": 0}


def premise_refused(steps: list[tuple[Call, Outcome]], tool: str) -> bool:
    """A call of the judged tool refused before a read judges it: a probe's failure read after a
    write, update or delete rests on that call's success, so a replay in which the server refuses it
    shows nothing. A failure judged on the tool's own last answer (a second delete) may rest on a
    refusal before it, and is left to its expectation."""
    if not steps or steps[-1][0].tool == tool:
        return False
    return any(outcome.rejected for call, outcome in steps[:-1] if call.tool == tool)


def premise_unstored(steps: list[tuple[Call, Outcome]], expect: Expectation) -> bool:
    """A read judged to show what an earlier call wrote rests on that write's success: a replay whose
    first call to send the tokens it looks for (the write that made them: each write has a marker of
    its own, and a later call that sends them asks for them) was refused shows nothing (a write placed
    before it that took the same identity, say). A refused write whose values were stored all the same
    is judged by probe-refusal-changed-state, whose premise is the refusal: its callers leave it out."""
    if not isinstance(expect, ContainsAny):
        return False
    first = next((outcome for call, outcome in steps[:-1] if expect.written_by([call.arguments])), None)
    return first is not None and first.rejected


def rebound(expect: Expectation, rebinder: Rebinder) -> Expectation:
    """The expectation with each id a fresh server made anew in the replay's place (rules.bindings):
    a record made up under the id the run read is judged under the id the replay read. Only texts
    and tuples of texts are swapped: a number an expectation holds is a count or a bound, never an id."""
    if not dataclasses.is_dataclass(expect):
        return expect
    fresh = {f.name: rebinder.swapped(value) for f in dataclasses.fields(expect)
             if f.init and (isinstance(value := getattr(expect, f.name), str) or (
                 isinstance(value, tuple) and all(isinstance(v, str) for v in value)))}
    return dataclasses.replace(expect, **fresh)


@dataclass(frozen=True)
class NoRecordFor(Expectation):
    """A read of an id nobody wrote is refused or answers nothing: no success that shows a record
    carrying that id (a blank or default record made up on the spot). With `members`, the shape a
    stored record showed, a record in that shape counts however few members it holds
    (answers.shaped_record), in JSON or in text lines, unless one of `flags`, true in every stored
    record, is false in it."""

    asked: tuple[str, ...]
    members: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    key: ClassVar[str] = "no_record_for"

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if not answer.ok:
            return True
        if claimed_record(answer.value(), self.asked) is not None:
            return False
        return not self.members or not any(shaped_record(r, self.asked, self.members, self.flags) is not None
                                           for r in [answer.value(), *text_records(answer)])

    def to_dict(self) -> dict[str, Any]:
        return {self.key: list(self.asked), **({"members": list(self.members)} if self.members else {}),
                **({"flags": list(self.flags)} if self.flags else {})}
