"""Identity variants: a new record whose identity is a variant of an existing one stays its own record.

Calibration shows which field tells a write's records apart (a second write sharing only that
field replaced the first). The machine writes records (a Bundle of them) and, between them, records
whose identity is a variant of an existing one: its case swapped, surrounding spaces, its Unicode
decomposed (NFD of an NFC text), or a shared prefix (one character more, one less). After each such
write, the reader that showed the first record is asked for it by its identity, then for the new
one by the variant. Both must show, each with its own values.

A server that folds a variant into the first record (case-insensitive, trimmed or NFC-normalised
keys) is shown to fold: a warning, since some stores mean to, and the model folds too, so the
record it merged is no data-loss alarm later. A record lost because another identity shares its
prefix (a write of "abc" that overwrites "ab", a get of "ab" that answers with "abc") is a failure.
Every example runs on a fresh server; each finding is shrunk by fresh replays (`smaller`).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from hypothesis import event, target
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, multiple, rule

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.results import RuleId
from hypothesis_mcp.rules.answers import shown
from hypothesis_mcp.stateful.calibrate import REPLACES, Calibration
from hypothesis_mcp.stateful.context import ProbeContext, Record, set_path
from hypothesis_mcp.stateful.continuation import page_full
from hypothesis_mcp.stateful.example import Example
from hypothesis_mcp.stateful.host import ProbeHost, ProbeOutput
from hypothesis_mcp.stateful.judge import ProbeFinding
from hypothesis_mcp.stateful.modelrun import marker_salt, run_model
from hypothesis_mcp.stateful.pages import paging_of
from hypothesis_mcp.stateful.readers import Reader, says_skipped, tokens
from hypothesis_mcp.stateful.shrink import smaller
from hypothesis_mcp.stateful.steps import shown_calls
from hypothesis_mcp.strategies import PLACEHOLDER, marked_arguments

FOLDED: RuleId = "probe-identity-folded"
PREFIX: RuleId = "probe-identity-prefix"
FOLDS = {"case": "its case swapped", "space": "surrounded by spaces", "nfd": "in Unicode NFD"}
"""Variants a store may mean to fold into one record: a warning when it does."""
PREFIXES = {"longer": "with one character more", "shorter": "with one character less"}
"""Variants that only share a prefix: two records always."""
KINDS = (*FOLDS, *PREFIXES)
VARIED = {**FOLDS, **{kind: f"{said} (a character the store drops or rewrites)" for kind, said in PREFIXES.items()}}
"""How a fold of each kind is said: a prefix variant folds where only the character that differed was
lost, and plain identities in the same relation stayed two records."""
ACCENT = "\u00e9"
"""Appended to a first record's identity (NFC) so that its NFD variant differs."""
STEPS = 8
SHRINK_RUNS = 12


def identities(finding: ProbeFinding, write: str, field: str) -> list[str]:
    """The identities the writes of a reproduction name, in order."""
    return [json.dumps(c.arguments.get(field)) for c in finding.calls if c.tool == write]


def folded(text: str) -> str:
    """What the FOLDS kinds of a text have in common: the key a store that folds identities files
    it under (trimmed, case-folded, one Unicode form)."""
    return unicodedata.normalize("NFKC", text).strip().casefold()


def variant(key: str, kind: str) -> str | None:
    """The identity `kind` makes of `key`, or None when it would be the same text."""
    made = {"case": key.swapcase(), "space": f" {key} ", "nfd": unicodedata.normalize("NFD", key),
            "longer": f"{key}x", "shorter": key[:-1]}[kind]
    return made if made and made != key else None


class VariantsExample(Example):
    """One example: records written, variants of their identities written and judged against them."""

    def __init__(self, ctx: ProbeContext, key_field: str, identity: Fact) -> None:
        super().__init__(ctx, key_field)
        self.identity = identity
        self.shown_by: dict[str, list[Reader]] = {}
        """The readers that showed each record of the model (by marker)."""
        self.folds: dict[str, ProbeFinding] = {}

    def put(self, drawn: dict[str, Any], key: str | None = None, accent: bool = False) -> Record | None:
        """Write a record (with identity `key`, if given) and find a reader that shows it by it."""
        if self.inert:
            return None
        assert self.ctx.key_path is not None
        marker, args = self.make_args(drawn)
        current = args.get(self.ctx.key_path)
        if key is None and not isinstance(current, str):
            return None
        key = key if key is not None else f"{current}{ACCENT}" if accent else current
        set_path(args, self.ctx.key_path, key)
        args, outcome = self.send(args, marker)
        if not outcome.ok or says_skipped(outcome):
            return None
        key_tokens = tokens({self.key_field: key}, marker)
        record = Record(key, marker, args, key_tokens, tokens(args, marker) - key_tokens)
        if not record.value_tokens:
            return None
        self.model[marker] = record
        return record

    def shows(self, reader: Reader, record: Record) -> Outcome:
        return self.call(reader.tool.name, self.reader_args(reader, record))

    def looked(self, reader: Reader, record: Record) -> Outcome | None:
        """The reader's answer for `record`, whole: a keyed read's own; a listing's that does not show
        it, asked again for its largest page where that is not full. None where the listing may be one
        page of more: a record a window leaves out is not shown to be folded into another."""
        answer = self.shows(reader, record)
        if not answer.ok or self.holds(answer, record) or self.keyed(reader, record):
            return answer
        whole = self.largest_page(reader, record, answer)
        if whole is None or (whole is answer and (paging_of(reader.tool) is not None
                                                  or page_full(reader.tool, answer))):
            return None
        return whole

    def witness(self, record: Record) -> bool:
        """The readers that show the new record when asked for it by its identity: each judges it."""
        showing = [r for r in self.ctx.readers if self.holds(self.shows(r, record), record)]
        if showing:
            self.shown_by[record.marker] = showing
        else:
            self.model.pop(record.marker, None)
        return bool(showing)

    @staticmethod
    def holds(outcome: Outcome | None, record: Record) -> bool:
        return outcome is not None and outcome.ok and any(t in shown(outcome) for t in record.value_tokens)

    def judge_variant(self, first: Record, kind: str, drawn: dict[str, Any]) -> Record | None:
        """Write a record whose identity is `kind` of `first`'s, then read both by their identities."""
        readers = self.shown_by.get(first.marker, [])
        key = variant(first.key, kind) if isinstance(first.key, str) else None
        if self.inert or not readers or first.marker not in self.model or key is None:
            return None
        if any(r.key == key for r in self.model.values()):
            return None  # the same identity again: an overwrite, judged elsewhere
        second = self.put(drawn, key)
        if second is None:
            return None
        event(f"identity variant: {kind}")
        for reader in readers:
            for missing, other in ((first, second), (second, first)):
                answer = self.looked(reader, missing)
                if answer is None or self.holds(answer, missing):
                    continue
                if self.holds(answer, other):
                    folded_before = kind in self.folds
                    self.fold(first, second, missing, kind, reader)
                    if not folded_before and self.vanish(drawn, {missing.marker}, reader):
                        del self.folds[kind]  # records vanish whatever their identities: no fold
                    elif kind in PREFIXES and (pair := self.prefix_pair(reader, kind, drawn)) is not None:
                        if not folded_before:
                            del self.folds[kind]
                        self.lost(*pair, kind, reader)
                self.model.pop(missing.marker, None)
                return None
        self.shown_by[second.marker] = readers
        return second

    def vanish(self, drawn: dict[str, Any], gone: set[str], reader: Reader) -> bool:
        """Whether a record of an identity unrelated to any held one makes a held record vanish (a
        store that drops its oldest records past a limit): then a record that vanished after a
        variant's write was lost to the write, not folded into the variant. Held records that did
        vanish leave the model. Also whether `reader`, a listing, leaves that new record out (it shows
        the oldest few): then it leaves out a variant's record whatever the store did with it."""
        assert self.ctx.key_path is not None
        plain = json.loads(json.dumps(drawn))
        set_path(plain, self.ctx.key_path, f"{PLACEHOLDER}-{self.ctx.key_path.rsplit('.', 1)[-1]}")
        held = [r for r in self.model.values() if r.marker not in gone and self.shown_by.get(r.marker)]
        new = self.put(plain)
        if new is None:
            return False
        lost = [r for r in held if not any(self.holds(self.shows(shower, r), r) for shower in self.shown_by[r.marker])]
        for record in lost:
            self.model.pop(record.marker, None)
        return bool(lost) or not (self.keyed(reader, new) or self.holds(self.looked(reader, new), new))

    def prefix_pair(self, reader: Reader, kind: str,
                    drawn: dict[str, Any]) -> tuple[Record, Record, Record, Record] | None:
        """Two new records whose identities are in the same relation as a pair that just made one
        record, but made only of the run's marker text, the text calibration showed the store keeps:
        if they make one record too, the store matches by prefix (their first, second, the one a read
        missed, the one it showed); if they stay two, it only dropped or rewrote the character that
        differed (a slug, a normalisation), a fold."""
        assert self.ctx.key_path is not None
        plain = json.loads(json.dumps(drawn))
        set_path(plain, self.ctx.key_path, f"{PLACEHOLDER}-{self.ctx.key_path.rsplit('.', 1)[-1]}")
        first = self.put(plain)
        if first is None or not self.holds(self.looked(reader, first), first):
            return None
        key = variant(first.key, kind) if isinstance(first.key, str) else None
        second = self.put(drawn, key) if key is not None else None
        if second is None:
            return None
        for missing, other in ((first, second), (second, first)):
            answer = self.looked(reader, missing)
            if answer is not None and not self.holds(answer, missing) and self.holds(answer, other):
                return first, second, missing, other
        return None

    def facts(self, first: Record, reader: Reader) -> tuple[Fact, ...]:
        write = self.ctx.write.name
        showed = fact_shown(f"{reader.tool.name} shows the record {write} wrote when asked for it by its "
                            f"{self.key_field}", marker=first.marker, tools=(write, reader.tool.name))
        return self.identity, showed

    def lost(self, first: Record, second: Record, missing: Record, other: Record, kind: str, reader: Reader) -> None:
        self.fail(PREFIX, f"after writes to {self.key_field} {first.key!r} and {second.key!r} (the "
                  f"second {PREFIXES[kind]}), {reader.tool.name} asked for {missing.key!r} shows the record of "
                  f"{other.key!r}, not its own: the store matched the two by their shared prefix, and a record "
                  "is lost", reader, {"contains_any": sorted(missing.value_tokens), "answered": True},
                  confidence="high", check="variants", facts=self.facts(first, reader))

    def fold(self, first: Record, second: Record, gone: Record, kind: str, reader: Reader) -> None:
        """`gone` (one of the two) merged into the other: kept once per kind as a warning; the caller
        folds the model too."""
        if kind in self.folds:
            return
        kept = second if gone is first else first
        write = self.ctx.write.name
        self.folds[kind] = ProbeFinding(
            FOLDED, write,
            f"{write} folds a {self.key_field} {VARIED[kind]} into the record it varies: after writes to "
            f"{first.key!r} and {second.key!r}, {reader.tool.name} asked for {gone.key!r} shows the record of "
            f"{kept.key!r}, not its own; two identities make one record",
            "medium", f"{self.key_field} told {write}'s records apart in calibration; its variant {VARIED[kind]} "
            "did not", calls=list(self.calls), expect={"contains_any": sorted(gone.value_tokens), "answered": True},
            check="variants", fresh=True, facts=(*self.facts(first, reader), *self.ctx.refusals),
        )


def build_variants_machine(ctx: ProbeContext, identity: Fact,
                           folds: dict[str, ProbeFinding]) -> type[RuleBasedStateMachine]:
    """A state machine class bound to one write tool, its identity field and its readers; the
    shortest fold seen of each kind is kept in `folds`."""
    assert ctx.key_path is not None
    key_field = ctx.key_path
    drawing = shown_calls(ctx.write.name, marked_arguments(ctx.write, PLACEHOLDER, ctx.write_args or None))

    class VariantsMachine(RuleBasedStateMachine):
        records = Bundle("records")

        def __init__(self) -> None:
            super().__init__()
            self.example = VariantsExample(ctx, key_field, identity)

        def teardown(self) -> None:
            target(float(len(self.example.model)), label="records held")
            for kind, finding in self.example.folds.items():
                known = folds.get(kind)
                if known is None or len(finding.calls) < len(known.calls):
                    folds[kind] = finding
            self.example.close()

        @initialize(target=records, drawn=drawing, kinds=st.permutations(KINDS),
                    others=st.lists(drawing, min_size=len(KINDS), max_size=len(KINDS)))
        def first(self, drawn: dict[str, Any], kinds: list[str], others: list[dict[str, Any]]) -> Any:
            """Every example tries every kind of variant once, each on the newest record kept (an
            accented identity, where the store takes one, so that its NFD differs)."""
            record = self.example.put(drawn, accent=True) or self.example.put(drawn)
            if record is None or not self.example.witness(record):
                return multiple()
            made = [record]
            for kind, other in zip(kinds, others, strict=True):
                newest = [r for r in made if r.marker in self.example.model]
                if newest and (second := self.example.judge_variant(newest[-1], kind, other)) is not None:
                    made.append(second)
            return multiple(*(r for r in made if r.marker in self.example.model))

        @rule(target=records, drawn=drawing, accent=st.booleans())
        def write(self, drawn: dict[str, Any], accent: bool) -> Any:
            record = self.example.put(drawn, accent=accent)
            if record is None or not self.example.witness(record):
                return multiple()
            return record

        @rule(target=records, record=records, kind=st.sampled_from(KINDS), drawn=drawing)
        def vary(self, record: Record, kind: str, drawn: dict[str, Any]) -> Any:
            second = self.example.judge_variant(record, kind, drawn)
            return multiple() if second is None else second

    VariantsMachine.__name__ = f"Variants_{ctx.write.name}"
    return VariantsMachine


def variants_probe(run: ProbeHost, tool: Tool, readers: list[Reader], calibration: Calibration,
                   given: dict[str, Any]) -> Iterator[ProbeOutput]:
    """The invariant for one write tool whose calibration showed a text identity that a second write
    replaces by: a prefix failure and a fold warning per kind, each shrunk and replayed, or nothing."""
    field = calibration.identity
    schema = tool.properties.get(field) if field else None
    if (field is None or calibration.overwrite != REPLACES or calibration.identity_fact is None or field in given
            or not isinstance(schema, dict) or schema.get("type") != "string" or run.stop()):
        return
    shown_readers = [r for r in readers if r.tool.name in calibration.readers]
    if not shown_readers:
        return
    examples = max(2, run.profile.probe_examples // 4)
    ctx = ProbeContext(
        pool=run.pool, write=tool, readers=shown_readers, key_path=field,
        base_args={r.tool.name: run.base(r.tool) for r in shown_readers}, write_args=given,
        salt=marker_salt(run, "variants", tool),
        shrink_runs=SHRINK_RUNS, stop=run.stop, warm_shrink=False, open_many=False,
        refusals=tuple(fact for _, fact in run.refusal_facts()),
    )
    run.pool.expect(examples, together=True)
    folds: dict[str, ProbeFinding] = {}
    error = run_model(run, ctx, build_variants_machine(ctx, calibration.identity_fact, folds), examples, STEPS,
                      "variants", tool)

    def shrunk(finding: ProbeFinding) -> ProbeFinding:
        """`smaller`, where a candidate only drops calls: cut to bare markers, a variant would no
        longer vary its record's identity (or would become that identity, an overwrite)."""
        written = set(identities(finding, tool.name, field))

        def same_identities(candidate: ProbeFinding) -> bool:
            names = identities(candidate, tool.name, field)
            return set(names) <= written and len(names) == len(set(names))

        return smaller(finding, tool.name, lambda f: same_identities(f) and run.reproduces(f))

    failures = sorted(ctx.candidates, key=lambda f: len(f.calls))
    if failures:
        yield shrunk(failures[0])
    for kind in (k for k in KINDS if k in folds):
        if run.pool.shared or run.reproduces(folds[kind]):
            yield replace(shrunk(folds[kind]), details={"variant": kind})
    if error is not None and not failures:
        yield run.result(tool.name, "variants", "inconclusive", FOLDED, f"the identity variants could not run: {error}",
                         confidence="low")
