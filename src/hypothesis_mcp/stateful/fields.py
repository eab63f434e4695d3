"""Every field read back as written, of every type: a model-based state machine over the records
one write tool stored.

The round trip marks free text and judges what comes back of it; this machine draws every field
the write takes on purpose: booleans set and unset (true and false), each enum member, numbers with
decimals, integers at their bounds, arrays of 0 to 10 items, optional fields present or absent,
and nested objects as the schema allows them; the first batch's last record holds long free texts
(padded with plain letters), so a reader that cuts a text shows it whatever
the seed. Records (a Bundle) are read back through each reader
that showed the write's records (calibration, or the user's config), and fidelity.py judges each
shown field, so a normalisation stays a warning (1.50 read as 1.5 is no change, a set of labels
may come back in its own order). A field the record is shown without while the same answer shows
it on another record was lost: a listing that shows `due` on the record an update wrote and not on
the one a creation wrote. With replacing overwrites, a record is also written again under its own
key, so creation and update are both drawn. Every example starts a fresh server; `smaller` then
drops what the failure does not need.
"""

from __future__ import annotations

import json
import math
import string
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from hypothesis import event, target
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, multiple, rule

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.results import RuleId, cause_of
from hypothesis_mcp.rules.answers import records_holding, shown
from hypothesis_mcp.stateful.calibrate import REPLACES, Calibration
from hypothesis_mcp.stateful.context import ProbeContext, Record, get_path, set_path
from hypothesis_mcp.stateful.example import Example
from hypothesis_mcp.stateful.fidelity import Change, Enums, changes, dropped, each_field
from hypothesis_mcp.stateful.host import ProbeHost, ProbeOutput
from hypothesis_mcp.stateful.judge import ProbeFinding
from hypothesis_mcp.stateful.modelrun import marker_salt, run_model, surest
from hypothesis_mcp.stateful.readers import Reader, says_skipped, tokens
from hypothesis_mcp.stateful.shrink import smaller
from hypothesis_mcp.stateful.steps import ShownCall, shown_calls
from hypothesis_mcp.strategies import PLACEHOLDER, marked_arguments
from hypothesis_mcp.strategies.schemas import compiler_for, tool_schema

RULE: RuleId = "probe-value-changed"
STEPS = 8
"""Steps of one example: a few records and their reads; each example is a fresh server."""
SHRINK_RUNS = 12
"""Examples Hypothesis may run after a failure: each one starts a fresh server."""
MAX_ITEMS = 10
MAX_BATCH = 6
"""Records the first step writes, one per enum member of the widest enum: each a write and its reads."""
LONG_TEXT = 200
"""How long the batch's last record makes each marked free text, within its maxLength."""
SPAN = 1000
"""The range drawn for a number without bounds, either side of zero."""
WORDS = st.text(string.ascii_lowercase, min_size=2, max_size=8)


def enum_members(schema: Any) -> dict[str, list[Any]]:
    """Each field name of a schema (nested objects and array items too) with its enum members."""
    found: dict[str, list[Any]] = {}
    defs = (schema.get("$defs") or schema.get("definitions") or {}) if isinstance(schema, dict) else {}

    def resolved(sub: Any) -> dict[str, Any]:
        ref = sub.get("$ref") if isinstance(sub, dict) else None
        if isinstance(ref, str) and ref.rsplit("/", 1)[-1] in defs:
            return resolved(defs[ref.rsplit("/", 1)[-1]])
        return _plain(sub)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for name, sub in (node.get("properties") or {}).items():
                plain = resolved(sub)
                members = plain.get("enum", resolved(plain.get("items")).get("enum"))
                if isinstance(members, list):
                    found.setdefault(name, members)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return found


def _plain(schema: Any) -> dict[str, Any]:
    """An optional field's schema without its null branch (`anyOf: [{type: X}, {type: null}]`)."""
    if not isinstance(schema, dict):
        return {}
    branches = [b for b in schema.get("anyOf") or schema.get("oneOf") or [] if isinstance(b, dict)]
    kept = [b for b in branches if b.get("type") != "null"]
    if len(kept) == 1:
        return {**{k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}, **kept[0]}
    return schema


def _type(schema: dict[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    return kind if isinstance(kind, str) else None


def _range(schema: dict[str, Any]) -> tuple[float, float]:
    lo = schema.get("minimum", schema.get("exclusiveMinimum", -SPAN))
    hi = schema.get("maximum", schema.get("exclusiveMaximum", SPAN))
    return float(lo), float(hi)


def typed_value(schema: Any) -> st.SearchStrategy[Any] | None:
    """A strategy aimed at what a store may lose of a field of this schema; None for free text
    and objects (the marked draw already covers them)."""
    return None if (column := typed_column(schema, 1)) is None else column.map(lambda values: values[0])


def typed_column(schema: Any, count: int) -> st.SearchStrategy[list[Any]] | None:
    """`count` values of one field for a batch of records that together show its kinds: every enum
    member and both booleans (in a drawn order), an integer's bounds, an array's longest and
    shortest lengths, then drawn values. None for free text and objects."""
    plain = _plain(schema)
    members = plain.get("enum")
    if members is None and _type(plain) == "boolean":
        members = [False, True]
    if members is not None:
        return st.permutations(list(members)).map(lambda order: [order[i % len(order)] for i in range(count)]) \
            if members else None
    kind = _type(plain)
    lo, hi = _range(plain)
    if kind == "integer" and math.ceil(lo) <= math.floor(hi):
        low, high = math.ceil(lo), math.floor(hi)
        return _edged([st.just(low), st.just(high)], st.integers(low, high), count)
    if kind == "number" and math.ceil(lo * 8) < math.floor(hi * 8):
        # Odd eighths are exact in binary and never whole: a value read back changed is the store's
        # doing, not the float's, and a decimal cut off shows.
        eighths = st.integers(math.ceil(lo * 8) // 2, (math.floor(hi * 8) - 1) // 2).map(lambda n: (2 * n + 1) / 8)
        return st.lists(eighths.filter(lambda v: lo < v < hi), min_size=count, max_size=count)
    if kind == "array":
        items = _plain(plain.get("items"))
        if _type(items) in ("array", "object", None) and items.get("enum") is None:
            return None
        item = WORDS if _type(items) == "string" and items.get("enum") is None else typed_value(items)
        least = int(plain.get("minItems", 0))
        most = min(MAX_ITEMS, int(plain.get("maxItems", MAX_ITEMS)))
        if item is None or least > most:
            return None

        def sized(lo_items: int, hi_items: int) -> st.SearchStrategy[list[Any]]:
            return st.lists(item, min_size=lo_items, max_size=hi_items, unique_by=json.dumps)

        return _edged([sized(most, most), sized(least, least)], sized(least, most), count)
    return None


def _edged(edges: list[st.SearchStrategy[Any]], drawn: st.SearchStrategy[Any],
           count: int) -> st.SearchStrategy[list[Any]]:
    """The edges first (as many as `count` allows), then drawn values."""
    parts = [*edges[:count], *[drawn] * max(0, count - len(edges))]
    return st.tuples(*parts).map(list)


class Drawing:
    """A write's marked arguments with each other field drawn by its type. The key and the user's
    values stay as the marked draw makes them."""

    def __init__(self, tool: Tool, given: dict[str, Any], key: str | None) -> None:
        self.tool = tool
        self.marked = marked_arguments(tool, PLACEHOLDER, given or None)
        self.key = key
        self.schemas = {name: schema for name, schema in tool.properties.items()
                        if name not in given and name != key and typed_column(schema, 1) is not None}
        compiler = compiler_for(tool_schema(tool))
        self.valid = compiler.check(compiler.root)

    def _merged(self, drawn: dict[str, Any], chosen: dict[str, Any]) -> dict[str, Any]:
        return {**{k: v for k, v in drawn.items() if k not in self.schemas}, **chosen}

    def one(self) -> st.SearchStrategy[dict[str, Any]]:
        """One record, each optional typed field present or absent."""
        typed = {n: s for n, schema in self.schemas.items() if (s := typed_value(schema)) is not None}
        required = set(self.tool.required)
        overlay = st.fixed_dictionaries({n: s for n, s in typed.items() if n in required},
                                        optional={n: s for n, s in typed.items() if n not in required})
        return st.tuples(self.marked, overlay).map(lambda parts: self._merged(*parts)).filter(self.valid)

    def lengthened(self, drawn: dict[str, Any]) -> dict[str, Any]:
        """The record with each marked free text but the key padded with plain letters to LONG_TEXT
        characters (or its maxLength), where the schema still admits it: a reader that cuts a text
        shows it on every seed."""
        longer = dict(drawn)
        for name, value in drawn.items():
            schema = self.tool.properties.get(name)
            if (name == self.key or not isinstance(value, str) or PLACEHOLDER not in value
                    or not isinstance(schema, dict) or "pattern" in schema or "format" in schema):
                continue
            bound = schema.get("maxLength")
            size = min(LONG_TEXT, bound) if isinstance(bound, int) and not isinstance(bound, bool) else LONG_TEXT
            longer[name] = value + (string.ascii_lowercase * (size // 26 + 1))[:max(0, size - len(value))]
        return longer if self.valid(longer) else drawn

    def batch(self) -> st.SearchStrategy[list[dict[str, Any]]]:
        """Records that together show every kind of each typed field, optional ones present: one
        record per enum member (at most MAX_BATCH), and at least two, the last with long texts."""
        widest = max([len(_plain(s).get("enum") or ()) for s in self.schemas.values()] + [2])
        count = min(MAX_BATCH, widest)
        columns = st.fixed_dictionaries({n: c for n, schema in self.schemas.items()
                                         if (c := typed_column(schema, count)) is not None})

        def rows(parts: tuple[list[dict[str, Any]], dict[str, list[Any]]]) -> list[dict[str, Any]]:
            drawn, chosen = parts
            return [self._merged(d, {n: values[i] for n, values in chosen.items()}) for i, d in enumerate(drawn)]

        drawn = st.lists(self.marked, min_size=count, max_size=count).map(
            lambda records: [*records[:-1], self.lengthened(records[-1])])
        return st.tuples(drawn, columns).map(rows).filter(
            lambda records: all(self.valid(r) for r in records))


def described(value: Any) -> str:
    """What a drawn value is, for the run's statistics (Hypothesis events)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "decimal" if value != int(value) else "whole number"
    if isinstance(value, list):
        return f"{len(value)} item(s)"
    return type(value).__name__


class FieldsExample(Example):
    """One example: records written and each read back through one reader, field by field."""

    def __init__(self, ctx: ProbeContext, key_field: str | None, enums: Enums) -> None:
        super().__init__(ctx, key_field)
        self.enums = enums
        self.longest = 0
        self.created: set[str] = set()
        """Markers of records a write made new (not under an earlier record's key)."""

    def put(self, drawn: dict[str, Any], key: Any = None) -> Record | None:
        """A write (under `key`, an earlier record's, when given), kept in the model by its key."""
        if self.inert:
            return None
        marker, args = self.make_args(drawn)
        if key is not None and self.ctx.key_path:
            set_path(args, self.ctx.key_path, key)
        args, outcome = self.send(args, marker)
        if not outcome.ok or says_skipped(outcome):
            return None
        if key is None:
            self.created.add(marker)
        for name, value in args.items():
            event(f"{name}: {described(value)}")
            if isinstance(value, list):
                self.longest = max(self.longest, len(value))
        written = get_path(args, self.ctx.key_path) if self.ctx.key_path else marker
        key_tokens = tokens({self.key_field: written}, marker) if self.key_field else set()
        record = Record(written, marker, args, key_tokens, tokens(args, marker) - key_tokens)
        if not record.evidence:
            return None
        self.model[json.dumps(written, sort_keys=True)] = record
        return record

    def judge(self, reader: Reader, record: Record) -> None:
        """The reader's answer for the record: each written field as written, and none left out
        that the same answer shows on another record."""
        current = self.model.get(json.dumps(record.key, sort_keys=True))
        if self.inert or current is not record:
            return
        answer = self.call(reader.tool.name, self.reader_args(reader, record))
        if not answer.ok or not any(t in shown(answer) for t in record.evidence):
            return
        found = [c for c in changes(record.args, answer, record.value_tokens, self.enums)
                 if c.loss or not self.free_text(c.field) or added(c)]
        if found:
            first, *_ = [self.report(reader, record, change, {"field_equals": change.field, "value": change.written,
                                                              "marker": change.token}, stop=False)
                         for change in each_field(found)]
            self.stopped(first)
        for other in self.model.values():
            if other is record or not other.value_tokens:
                continue
            lost = dropped(record.args, answer, sorted(record.value_tokens), sorted(other.value_tokens))
            if lost:
                change = lost[0]
                witness = next(t for t in sorted(other.value_tokens) if records_holding(answer, t))
                shows_field = fact_shown(f"{reader.tool.name} shows {change.field!r} with a value on another record "
                                         f"of {self.ctx.write.name}", marker=other.marker,
                                         tools=(self.ctx.write.name, reader.tool.name))
                unset = (self.reads_as_unset(reader, record, other, change)
                         if change.loss and other.marker in self.created else None)
                if unset is not None:
                    change = replace(change, loss=False, message=f"{change.message}; a record written without "
                                     f"{change.field!r} reads the same, so the store took the value for unset")
                    self.call(reader.tool.name, self.reader_args(reader, record))
                self.report(reader, record, change, {"field_kept": change.field, "marker": change.token,
                                                     "witness": witness}, shows_field, *filter(None, [unset]))

    def free_text(self, name: str) -> bool:
        """A text field with no enumeration: the round trip's to judge, here only for a loss (a cut
        text or a store's addition, see `added`), so a normalisation of drawn characters (stripped
        controls) is one finding, not a second one that shows only on the draws that hold them."""
        schema = _plain(self.ctx.write.properties.get(name))
        return _type(schema) == "string" and "enum" not in schema

    def reads_as_unset(self, reader: Reader, record: Record, other: Record, change: Change) -> Fact | None:
        """A record written as `record` was but without the optional field `change` names, read
        through the same reader: when it shows the field left out as well, while `other`, also made
        new, shows it, the store keeps the field at creation and read this value as unset (a
        default it shows as nothing), a normalisation; a field every creation drops stays a loss."""
        if change.field in profile(self.ctx.write).required or change.field == self.key_field:
            return None
        drawn = json.loads(json.dumps(record.args).replace(record.marker, PLACEHOLDER))
        drawn.pop(change.field, None)
        start = len(self.calls)
        control = self.put(drawn)
        if control is None or not control.value_tokens:
            return None
        answer = self.call(reader.tool.name, self.reader_args(reader, control))
        alike = dropped({**control.args, change.field: change.written}, answer, sorted(control.value_tokens),
                        sorted(other.value_tokens))
        if not any(c.field == change.field for c in alike):
            return None
        return fact_shown(f"{reader.tool.name} shows a record of {self.ctx.write.name} written without "
                          f"{change.field!r} as it shows this one", calls=self.calls[start:], source="this example")

    def report(self, reader: Reader, record: Record, change: Change, expect: dict[str, Any],
               *facts: Fact, stop: bool = True) -> ProbeFinding:
        return self.fail(RULE, f"a read by {reader.tool.name} shows the record with key {record.key!r} but "
                         f"{change.message}", reader, expect, confidence="high" if change.loss else "medium",
                         check="fields", details={"field": change.field, "written": change.written,
                                                  "read": change.read},
                         facts=(self.showed(reader.tool.name, record.marker), *facts), stop=stop)


def build_fields_machine(ctx: ProbeContext, drawing: Drawing, enums: Enums,
                         rewrites: bool) -> type[RuleBasedStateMachine]:
    """A state machine class bound to one write tool and its readers; `rewrites`: a record may be
    written again under its own key (calibration showed such a write replaces it)."""
    drawing_calls = shown_calls(ctx.write.name, drawing.one())
    batches = drawing.batch().map(lambda batch: [ShownCall(ctx.write.name, drawn) for drawn in batch])
    key_field = ctx.key_path.replace("[]", "").split(".")[-1] if ctx.key_path else None

    class FieldsMachine(RuleBasedStateMachine):
        records = Bundle("records")

        def __init__(self) -> None:
            super().__init__()
            self.example = FieldsExample(ctx, key_field, enums)

        def teardown(self) -> None:
            # Once per example (one observation per label): toward fuller stores and longer arrays.
            target(float(len(self.example.model)), label="records held")
            target(float(self.example.longest), label="longest array")
            self.example.close()

        @initialize(target=records, batch=batches, again=drawing_calls)
        def first(self, batch: list[dict[str, Any]], again: dict[str, Any]) -> Any:
            """Even the shortest example shows every kind of each field, and (where a write under a
            record's key replaces it) a record both created and updated, each read back through
            every reader."""
            stored = [r for r in (self.example.put(drawn) for drawn in batch) if r is not None]
            if rewrites and stored and (updated := self.example.put(again, stored[0].key)) is not None:
                stored[0] = updated
            for record in stored:
                for reader in ctx.readers:
                    self.example.judge(reader, record)
            return multiple(*stored)

        @rule(target=records, drawn=drawing_calls)
        def write(self, drawn: dict[str, Any]) -> Any:
            record = self.example.put(drawn)
            return multiple() if record is None else record

        @rule(target=records, record=records, drawn=drawing_calls)
        def rewrite(self, record: Record, drawn: dict[str, Any]) -> Any:
            written = self.example.put(drawn, record.key) if rewrites else None
            return multiple() if written is None else written

        @rule(reading=st.sampled_from(ctx.readers), record=records)
        def read(self, reading: Reader, record: Record) -> None:
            self.example.judge(reading, record)

    FieldsMachine.__name__ = f"Fields_{ctx.write.name}"
    return FieldsMachine


def fields_probe(run: ProbeHost, tool: Tool, readers: list[Reader], key_path: str | None,
                 given: dict[str, Any], calibration: Calibration,
                 known: list[ProbeFinding] | None = None) -> Iterator[ProbeOutput]:
    """The invariant for one write tool, through the readers shown to show its records: a finding
    per field it broke, verified and shrunk, or nothing (the round trip reports the write's own
    pass). A field the round trip already found lost (`known`, high) is not reported again, but it
    hides no other field: one field's loss is one finding. A change the round trip took for a
    normalisation (it does not know enum members) is judged again by type here, and may be a loss
    (`D` stored as `C`). Not run for a write that carries a list of
    records (a key under an array): they share the write's one marker, so a read could not say which
    of them it shows, and each field would be compared with another record's."""
    shown_readers = [r for r in readers if r.fact is not None]
    batched = key_path is not None and "[]" in key_path
    reported = {cause_of(k.details) for k in known or [] if k.rule == RULE and k.confidence == "high"}
    if not shown_readers or batched or run.stop():
        return
    examples = max(2, run.profile.probe_examples // 4)
    ctx = ProbeContext(
        pool=run.pool, write=tool, readers=shown_readers, key_path=key_path,
        base_args={r.tool.name: run.base(r.tool) for r in shown_readers}, write_args=given,
        salt=marker_salt(run, "fields", tool),
        shrink_runs=SHRINK_RUNS, stop=run.stop, warm_shrink=False, open_many=False,
    )
    key = key_path.split(".")[0].replace("[]", "") if key_path else None
    rewrites = calibration.overwrite == REPLACES and key_path is not None
    run.pool.expect(examples, together=True)
    machine = build_fields_machine(ctx, Drawing(tool, given, key), enum_members(tool.input_schema), rewrites)
    error = run_model(run, ctx, machine, examples, STEPS, "fields", tool)
    candidates = [c for c in ctx.candidates if cause_of(c.details) not in reported]
    found = surest(candidates)
    shrunk = smaller(found, tool.name, run.reproduces) if found is not None else None
    if shrunk is not None and (shrunk is not found or run.reproduces(shrunk)):
        yield shrunk  # a smaller failure was replayed; the one Hypothesis found is replayed here
        yield from run.other_causes(candidates, shrunk, tool.name)
    elif found is not None:
        yield run.result(tool.name, "fields", "inconclusive", RULE, f"{found.message}, but a replay on a fresh "
                         "server did not show it again", confidence="low")
    elif error is not None:
        yield run.result(tool.name, "fields", "inconclusive", RULE, f"the fields probe could not run: {error}",
                         confidence="low")


def added(change: Change) -> bool:
    """A free text read back longer than written (a line break or space the store appends): the
    store's own addition, shown whatever was drawn and by a reader the round trip may not judge
    with, so kept; one that strips or folds drawn characters is the round trip's."""
    return isinstance(change.written, str) and isinstance(change.read, str) and len(change.read) > len(change.written)
