"""What one example of the laws machine did: each record it wrote under its own marker, the values
it last wrote, and whether it was removed or refused. Every law is judged against this model."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.stateful.fidelity import is_number
from hypothesis_mcp.stateful.laws.edges import fits
from hypothesis_mcp.stateful.watch import answer_values, number_of, number_trials, tokens_of

LIVE, REMOVED, REFUSED = "live", "removed", "refused"


@dataclass
class Held:
    """One record of the example. `values` are the fields last written; `tokens` the marked texts it
    holds now, by field; `stale` the tokens an update replaced; `shown` the readers that showed it."""

    tool: str
    args: dict[str, Any]
    answer: Outcome
    marker: str
    tokens: dict[str, str]
    values: dict[str, Any]
    state: str = LIVE
    stale: set[str] = field(default_factory=set)
    shown: set[str] = field(default_factory=set)
    relisted: set[str] = field(default_factory=set)
    """Listings that showed it as last written after a series' writes left their windows unknown."""
    agreed: set[str] = field(default_factory=set)
    """The readers that showed every field as last written."""
    fields: dict[str, tuple[frozenset[str], int]] = field(default_factory=dict)
    """Per reader, the written fields it last showed on the record, and where that read is among the
    example's calls: a field it showed that a later read leaves out was lost, not never displayed."""
    ids: list[tuple[str, Any]] = field(default_factory=list)
    at: int = 0
    """Where the write that made it (or was refused) is among the example's calls."""
    removed: tuple[str, int] | None = None
    """The tool that removed it, and where that call is."""
    before: dict[str, Any] = field(default_factory=dict)
    """The fields the last update named, as they were before it."""
    shared: set[str] = field(default_factory=set)
    """Its tokens another record holds (a reference to it): they show where that record shows."""
    amends: bool = False
    """A refused call on a record already held (an update, or a write under its identity): stored
    after all, it changed that record and made none."""

    @staticmethod
    def written(tool: str, args: dict[str, Any], marker: str, answer: Outcome, state: str = LIVE) -> Held:
        tokens = marks(args, marker)
        ids = answer_values(answer, args) if answer.ok else []
        return Held(tool, args, answer, marker, tokens, dict(args), state, ids=ids)

    @property
    def live(self) -> bool:
        return self.state == LIVE

    def token_list(self) -> tuple[str, ...]:
        return tuple(sorted(self.tokens.values()))

    def value_of(self, name: str) -> Any:
        """The record's value for a reader's or actor's argument: a field written, else a member of
        the write's answer (a server-made id)."""
        if name in self.args:
            return self.args[name]
        return next((v for m, v in self.ids if m == name), None)

    def moved(self, field_: str, value: Any, sent_as: str) -> None:
        """The record after a move: `field_`, its identity, holds `value`, which the call sent as
        `sent_as` (no field of its own). A new dict: the write's call keeps what it sent."""
        self.args = {**self.args, field_: value}
        if field_ in self.values:
            self.values[field_] = value
        self.values.pop(sent_as, None)

    def updated(self, args: dict[str, Any], marker: str, named: str) -> set[str]:
        """The model after an update that named these fields; the tokens it wrote."""
        fresh = marks(args, marker)
        for name, value in args.items():
            # A field written again holds only what this write sent: its old tokens are gone.
            if name != named:
                old, new = sent(self.values.get(name)), sent(value)
                for key, token in list(self.tokens.items()):
                    if token in old and token not in new:
                        self.stale.add(token)
                        del self.tokens[key]
        for name in fresh:
            if name in self.tokens:
                self.stale.add(self.tokens[name])
        self.tokens.update(fresh)
        self.values.update({k: v for k, v in args.items() if k != named})
        return set(fresh.values())

    def mark(self) -> str | None:
        """A token the record holds now (it finds the record's object in a structured answer)."""
        return next(iter(sorted(set(self.tokens.values()) - self.shared)), None)


def numbered(tool: Tool, args: dict[str, Any], marker: str, keep: str | None, fixed: bool = False) -> dict[str, Any]:
    """`args` where no text carries the marker (every text has a pattern or a short length, or the
    record has none): the first number the write sets, but `keep` (the record's identity), holds the
    marker's number where the schema admits it, so every reader can still tell the record apart
    (Elle's unique values). Where no number takes it, a text with a pattern holds the marker bare
    (`bare`): the identity first, unless `fixed` (an update's identity names the record it changes).
    Where texts carry the marker only in fields the tool does not require, a required number takes
    it too: a store that drops an optional field then shows a value lost, not the record gone (never
    a bare text there: a record of law 9 that names this one by its identity would show the marker).
    Where only the identity carries it, a number takes it too (one inside an object among them), else
    another text spelt bare (`beside`): a write under a variant of the identity (law 8) holds the same
    marked text, and only that mark tells the two records apart. Where no field at the top takes it, one
    inside an object does. A text inside an object that carries the marker marks that object, not the
    record (a reader finds the object holding the marker): the record is marked at its top as though
    no text carried it, and left as it is where nothing at its top takes the marker. Unchanged where a
    required text at the top carries the marker, or nothing fits."""
    required = set(tool.input_schema.get("required") or ())
    top = {k: v for k, v in args.items() if not isinstance(v, dict)}
    placed = bool(tokens_of(top, marker))
    keyed = placed and not tokens_of({k: v for k, v in top.items() if k != keep}, marker)
    if placed and not keyed and (not required or marked_in(top, marker, required)):
        return args
    mark = number_of(marker)
    # A required field first, in the schema's order; only required ones where a text already carries the marker.
    order = [n for n in sorted(args, key=lambda n: (n not in required, list(tool.properties).index(n)
                                                    if n in tool.properties else len(tool.properties)))
             if n in required or not placed or keyed]
    for name in order:
        if name == keep or not is_number(args[name]):
            continue
        for number in spellings(tool, name, mark):
            if fits(tool, trial := {**args, name: number}):
                return trial
    if keyed and keep is not None:
        return beside(tool, args, keep, marker) or args
    if placed:
        return args
    first = [keep] if keep is not None and keep in args and not fixed else []
    for name in dict.fromkeys(first + order):
        if isinstance(args[name], str) and not (fixed and name == keep):
            for spelt in bare(marker):
                if fits(tool, trial := {**args, name: spelt}):
                    return (beside(tool, trial, keep, marker, spelt) or trial) if name == keep else trial
    return args if tokens_of(args, marker) else beside(tool, args, keep or "", marker) or args


def beside(tool: Tool, args: dict[str, Any], skip: str, marker: str, taken: str | None = None) -> dict[str, Any] | None:
    """`args` with the marker in one field but `skip` (the identity) where none holds it yet: a number
    (at the top or inside an object), else a patterned or short text (inside an object too) spelt bare,
    in another spelling than `taken` (the identity's). A record marked only in its identity shares that
    mark with a write under a variant of it (law 8), and one whose numbers and texts sit inside objects
    is otherwise told apart by nothing. None where no field takes it."""
    trials = number_trials(tool, args, skip, number_of(marker)) + [
        t for spelt in bare(marker) if spelt != taken for t in text_trials(tool, args, skip, spelt)]
    return next((t for t in trials if fits(tool, t)), None)


def text_trials(tool: Tool, args: dict[str, Any], skip: str, text: str) -> list[dict[str, Any]]:
    """`args` with `text` set in one text field the write may set, `skip` aside: one at its top, or
    one an object's schema names (as watch.number_trials does for numbers)."""
    trials = []
    for name, schema in tool.properties.items():
        if name == skip or not isinstance(schema, dict):
            continue
        if schema.get("type") == "string":
            trials.append({**args, name: text})
        elif schema.get("type") == "object" and isinstance(members := schema.get("properties"), dict):
            inner = args[name] if isinstance(args.get(name), dict) else {}
            trials += [{**args, name: {**inner, member: text}} for member, sub in members.items()
                       if isinstance(sub, dict) and sub.get("type") == "string"]
    return trials


FRACTION = 0.125
"""Added to the marker's number in a field that takes any number: three decimal places (exact in
binary), so a store that keeps fewer, or takes the field for an integer, shows a value changed, while
the number's whole part still finds the record."""


def spellings(tool: Tool, name: str, mark: int) -> tuple[float, ...]:
    """The marker's number as a field may hold it: with a fraction first where the schema takes any
    number (a whole number there would never show what the store does with a fraction)."""
    schema = tool.properties.get(name)
    return (mark + FRACTION, mark) if isinstance(schema, dict) and schema.get("type") == "number" else (mark,)


def marked_in(args: dict[str, Any], marker: str, names: set[str]) -> bool:
    """A text under one of `names` (at any depth) carries the marker."""
    return any(tokens_of({n: args[n]}, marker) for n in names if n in args)


def bare(marker: str) -> tuple[str, ...]:
    """The marker spelt with no field name, in the alphabets patterned texts (keys, codes) commonly
    admit: as it is (`hm` and lower hex), as its number (digits alone), in lower letters alone (each
    digit a letter past `f`), and each of these in upper case. Each is as unique as the marker."""
    letters = marker[:2] + marker[2:].translate(str.maketrans("0123456789", "ghijklmnop"))
    return tuple(dict.fromkeys((marker, str(number_of(marker)), letters, marker.upper(), letters.upper())))


def marks(args: dict[str, Any], marker: str) -> dict[str, str]:
    """The tokens a write placed, by field: its marked texts, and its marker's number or bare
    spelling where `numbered` put it."""
    found = {t.removeprefix(f"{marker}-"): t for t in tokens_of(args, marker)}
    mark, spelt = number_of(marker), bare(marker)
    found.update({name: str(mark) for name, value in args.items()
                  if any(is_number(v) and v in (mark, mark + FRACTION)
                         for v in (value.values() if isinstance(value, dict) else [value]))})
    found.update({name: text for name, value in args.items()
                  for text in (value.values() if isinstance(value, dict) else [value])
                  if isinstance(text, str) and text in spelt})
    return found


def sent(args: Any) -> str:
    return json.dumps(args, ensure_ascii=False, sort_keys=True)
