"""Invalid values: a valid value with one deliberate fault, labelled with the keyword it breaks.

A `Mutation` is a fault that certainly breaks its node (a keyword of the node itself is violated),
so nesting it inside an object property or an array item breaks the parent too. Faults that need
no valid base value also come as deterministic `samples`: they prove at construction time that a
schema has invalid values at all, and they are what anyOf/oneOf branches contribute (checked
against the whole node first, since another branch might accept them).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from hypothesis_mcp.strategies.compiler import Compiler
from hypothesis_mcp.strategies.formats import BROKEN
from hypothesis_mcp.strategies.normalise import Node, Unsatisfiable, all_of, json_key
from hypothesis_mcp.strategies.regex import compiled
from hypothesis_mcp.strategies.scalars import ALPHABET, is_multiple

Path = tuple[str | int, ...]
Candidate = tuple[Any, str, Path, str]  # value, keyword, path, description

MAX_DEPTH = 5  # how deep inside properties and items faults are planted
PAIRS = 6  # most pairs of oneOf branches tried for a value both accept
TYPE_SAMPLES: dict[str, tuple[Any, ...]] = {
    "null": (None,),
    "boolean": (True, False),
    "integer": (0, 7),
    "number": (1.5,),
    "string": ("text", ""),
    "array": ([], ["text"]),
    "object": ({}, {"key": "text"}),
}
GENERIC: tuple[Any, ...] = (None, True, 0, -1, 1.5, "", "text", [], [None], {}, {"key": None})
# Strings tried against a pattern; those it does not match become `pattern` faults.
PATTERN_PROBES = (*" !0aA-_\n/é", "", "zz", "not matching", "0" * 20, "a b")
EXTRA_NAMES = ("unexpected_property", "zz_unexpected", "x-unexpected", "_unexpected_", "UNEXPECTED", "§")


def where(path: Path) -> str:
    return "the value" if not path else "/" + "/".join(str(p) for p in path)


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


@dataclass
class Mutation:
    """One kind of fault: deterministic samples, and a strategy that also varies the value."""

    keyword: str
    samples: list[Candidate] = field(default_factory=list)
    strategy: st.SearchStrategy[Candidate] | None = None

    def combined(self) -> st.SearchStrategy[Candidate]:
        parts = ([st.sampled_from(self.samples)] if self.samples else []) + (
            [self.strategy] if self.strategy is not None else []
        )
        return st.one_of(parts)


def _pool(samples: list[Candidate]) -> list[Mutation]:
    """Deterministic faults, one Mutation per keyword so each keyword weighs the same."""
    by_keyword: dict[str, list[Candidate]] = {}
    for sample in samples:
        by_keyword.setdefault(sample[1], []).append(sample)
    return [Mutation(k, v) for k, v in by_keyword.items()]


class Mutator:
    """Plants faults in the values of one compiled schema."""

    def __init__(self, compiler: Compiler) -> None:
        self.c = compiler

    def mutations(
        self,
        schema: Any,
        path: Path = (),
        depth: int = 0,
        *,
        objects_only: bool = False,
        base: st.SearchStrategy[Any] | None = None,
    ) -> list[Mutation]:
        """Every fault this node can carry; `objects_only` keeps the value itself an object."""
        try:
            node = self.c.normalise(schema)
        except Unsatisfiable:
            values = [v for v in GENERIC if isinstance(v, dict) or not objects_only]
            return _pool([(v, "false", path, f"{where(path)} is not allowed at all") for v in values])
        ok = self.c.check(schema)
        out: list[Mutation] = []
        if not objects_only:
            out += self._types(node, path)
            if node.enum is not None:
                out += self._enum(node, schema, ok, path)
            else:
                out += self._strings(node, path) + self._numbers(node, path)
                out += self._arrays(node, schema, path, depth)
        if node.enum is None:
            out += self._objects(node, schema, path, depth, base)
        out += self._nots(node, path, objects_only)
        out += self._branches(node, ok, path, depth, objects_only)
        out += self._applicators(schema, path, objects_only)
        if not out:
            out += self._generic(ok, path, objects_only)
        return out

    # -- scalars ---------------------------------------------------------------------------------

    def _types(self, node: Node, path: Path) -> list[Mutation]:
        if node.types is None:
            return []
        wanted = " or ".join(sorted(node.types))
        samples = [
            (v, "type", path, f"{where(path)} is {type_name(v)}, the schema wants {wanted}")
            for kind, values in TYPE_SAMPLES.items()
            if not node.allows(kind)
            for v in values
        ]
        return _pool(samples)

    def _enum(self, node: Node, schema: Any, ok: Callable[[Any], bool], path: Path) -> list[Mutation]:
        keyword = "const" if isinstance(schema, dict) and "const" in schema and "enum" not in schema else "enum"
        known = {json_key(v) for v in node.enum or ()}
        near: list[Any] = []
        for v in node.enum or ():
            if isinstance(v, str):
                near += [v + "-x", v.upper() if v.upper() != v else v.lower(), ""]
            elif isinstance(v, bool):
                near.append(not v)
            elif isinstance(v, int | float):
                near += [v + 1, v - 1]
        near += ["not-in-enum", 123456, None, False]
        samples = [
            (v, keyword, path, f"{where(path)} is {v!r}, not one of the allowed values")
            for v in dict((json_key(v), v) for v in near).values()
            if json_key(v) not in known and node.allows(_kind(v)) and not ok(v)
        ]
        return _pool(samples)

    def _strings(self, node: Node, path: Path) -> list[Mutation]:
        if not node.allows("string"):
            return []
        out = []
        lo, hi = node.min_length, node.max_length
        if lo > 0:
            out.append(
                Mutation(
                    "minLength",
                    [("a" * (lo - 1), "minLength", path, f"{where(path)} is shorter than minLength {lo}")],
                    st.text(ALPHABET, max_size=lo - 1).map(
                        lambda s: (s, "minLength", path, f"{where(path)} is shorter than minLength {lo}")
                    ),
                )
            )
        if hi is not None:
            out.append(
                Mutation(
                    "maxLength",
                    [("x" * (hi + 1), "maxLength", path, f"{where(path)} is longer than maxLength {hi}")],
                    st.text(ALPHABET, max_size=8).map(
                        lambda s: (
                            s + "x" * (hi + 1),
                            "maxLength",
                            path,
                            f"{where(path)} is longer than maxLength {hi}",
                        )
                    ),
                )
            )
        for pattern in node.patterns:
            search = compiled(pattern).search
            text = f"{where(path)} does not match the pattern {pattern!r}"
            misses = [p for p in PATTERN_PROBES if not search(p)]
            fitting = [p for p in misses if lo <= len(p) <= (hi if hi is not None else len(p))] or misses
            if fitting:
                out.append(
                    Mutation(
                        "pattern",
                        [(p, "pattern", path, text) for p in fitting],
                        st.text(ALPHABET, min_size=lo, max_size=hi if hi is None or hi >= lo else None)
                        .filter(lambda s, f=search: not f(s))  # type: ignore[arg-type]
                        .map(lambda s, t=text: (s, "pattern", path, t)),  # type: ignore[misc]
                    )
                )
        checker = self.c.oracle.FORMAT_CHECKER
        for fmt in node.formats:
            if fmt in checker.checkers:
                broken = [v for v in BROKEN.get(fmt, ()) if not checker.conforms(v, fmt)]
                out += _pool([(v, "format", path, f"{where(path)} is not a valid {fmt}") for v in broken])
        return out

    def _numbers(self, node: Node, path: Path) -> list[Mutation]:
        if not node.allows("integer"):
            return []
        integral = not node.allows("number")
        out: list[Mutation] = []
        bounds = (
            ("minimum", node.minimum, -1, "below the minimum"),
            ("exclusiveMinimum", node.exclusive_minimum, -1, "not above the exclusive minimum"),
            ("maximum", node.maximum, 1, "above the maximum"),
            ("exclusiveMaximum", node.exclusive_maximum, 1, "not below the exclusive maximum"),
        )
        for keyword, bound, direction, words in bounds:
            if bound is None:
                continue
            edge = _edge(bound, direction, keyword.startswith("exclusive"), integral)
            text = f"{where(path)} is {{}}, {words} {bound}"
            sample = (edge, keyword, path, text.format(edge))
            far = (
                (st.integers(max_value=edge) if direction < 0 else st.integers(min_value=edge))
                if isinstance(edge, int)
                else st.just(edge)
            )
            out.append(Mutation(keyword, [sample], far.map(lambda v, k=keyword, t=text: (v, k, path, t.format(v)))))  # type: ignore[misc]
        for m in node.multiple_of:
            misses = [v for v in _off_multiples(m, integral) if not is_multiple(v, m)]
            out += _pool([(v, "multipleOf", path, f"{where(path)} is {v}, not a multiple of {m}") for v in misses])
        return out

    # -- arrays ----------------------------------------------------------------------------------

    def _base(self, schema: Any, kind: str, extra: dict[str, Any] | None = None) -> st.SearchStrategy[Any] | None:
        try:
            return self.c.compile(all_of(schema, {"type": kind, **(extra or {})}))
        except Unsatisfiable:
            return None

    def _arrays(self, node: Node, schema: Any, path: Path, depth: int) -> list[Mutation]:
        if not node.allows("array") or not node.array_keywords:
            return []
        base = self._base(schema, "array")
        if base is None:
            return []
        out: list[Mutation] = []
        lo, hi = node.min_items, node.max_items
        if lo > 0:
            text = f"{where(path)} has fewer than minItems {lo} items"
            out.append(
                Mutation(
                    "minItems",
                    [([], "minItems", path, text)] if lo == 1 else [],
                    base.map(lambda a: (a[: lo - 1], "minItems", path, text)),
                )
            )
        item_schema = node.items if node.items is not None else node.unevaluated_items
        item = self._item_strategy(item_schema)
        if hi is not None and item is not None:
            text = f"{where(path)} has more than maxItems {hi} items"
            out.append(
                Mutation(
                    "maxItems",
                    [],
                    st.lists(item, min_size=1, max_size=3).map(
                        lambda a: ((a * (hi + 1))[: hi + 1], "maxItems", path, text)
                    ),
                )
            )
        if node.unique_items and item is not None:
            keep = max(0, (hi if hi is not None else 2) - 2)
            text = f"{where(path)} has a duplicate item where uniqueItems is true"
            out.append(
                Mutation(
                    "uniqueItems",
                    [],
                    st.tuples(base, item).map(lambda t: ([*t[0][:keep], t[1], t[1]], "uniqueItems", path, text)),
                )
            )
        if node.contains is not None and node.min_contains > 0:
            text = f"{where(path)} has no item matching contains"
            out += _pool([([], "contains", path, text)])
        if node.contains is not None and not node.prefix_items:
            out += self._contains_counts(node, path)
        if node.prefix_items and node.items is False:
            full = self._base(schema, "array", {"minItems": len(node.prefix_items)})
            n = len(node.prefix_items)
            text = f"{where(path)} has more items than the {n} its prefixItems allow"
            if full is not None:
                out.append(Mutation("items", [], full.map(lambda a: ([*a[:n], None], "items", path, text))))
        if depth < MAX_DEPTH:
            out += self._nested_items(node, schema, path, depth)
        return out

    def _contains_counts(self, node: Node, path: Path) -> list[Mutation]:
        """One matching item too few for minContains, one too many for maxContains."""
        items = True if node.items is None else node.items
        try:
            hit = self.c.compile(all_of(items, node.contains))
        except Unsatisfiable:
            return []
        try:
            miss: st.SearchStrategy[Any] | None = self.c.compile(all_of(items, {"not": node.contains}))
        except Unsatisfiable:
            miss = None
        lo, hi = node.min_items, node.max_items
        out = []
        counts = [("minContains", node.min_contains - 1, "fewer", node.min_contains)] if node.min_contains > 1 else []
        if node.max_contains is not None:
            counts.append(("maxContains", node.max_contains + 1, "more", node.max_contains))
        for keyword, count, words, bound in counts:
            fill = max(0, lo - count)
            if (fill and miss is None) or (hi is not None and count > hi):
                continue
            text = f"{where(path)} has {words} than {keyword} {bound} items matching contains"
            others = st.lists(miss, min_size=fill, max_size=fill) if miss is not None else st.just([])
            out.append(
                Mutation(
                    keyword,
                    [],
                    st.tuples(st.lists(hit, min_size=count, max_size=count), others).map(
                        lambda t, k=keyword, tx=text: ([*t[0], *t[1]], k, path, tx)  # type: ignore[misc]
                    ),
                )
            )
        return out

    def _item_strategy(self, schema: Any) -> st.SearchStrategy[Any] | None:
        if schema is False:
            return None
        try:
            return self.c.compile(True if schema is None else schema)
        except Unsatisfiable:
            return None

    def _nested_items(self, node: Node, schema: Any, path: Path, depth: int) -> list[Mutation]:
        out: list[Mutation] = []
        targets = list(enumerate(node.prefix_items))
        if node.items not in (None, True, False) and not node.prefix_items:
            targets.append((0, node.items))
        hi = node.max_items
        for index, item_schema in targets:
            base = self._base(schema, "array", {"minItems": index} if index else None)
            if base is None:
                continue
            for m in self.mutations(item_schema, (*path, index), depth + 1):
                out.append(
                    Mutation(
                        m.keyword,
                        [],
                        st.tuples(base, m.combined()).map(lambda t, i=index: (_put(t[0], i, t[1][0], hi), *t[1][1:])),  # type: ignore[misc]
                    )
                )
        return out

    # -- objects ---------------------------------------------------------------------------------

    def _objects(
        self, node: Node, schema: Any, path: Path, depth: int, base: st.SearchStrategy[Any] | None
    ) -> list[Mutation]:
        if not node.allows("object") or not node.object_keywords:
            return []
        if base is None:
            base = self._base(schema, "object")
        if base is None:
            return []
        out: list[Mutation] = []
        if node.required:
            names = list(node.required)
            out.append(
                Mutation(
                    "required",
                    [],
                    st.tuples(base, st.sampled_from(names)).map(
                        lambda t: (
                            {k: v for k, v in t[0].items() if k != t[1]},
                            "required",
                            path,
                            f"required property {t[1]!r} is missing from {where(path)}",
                        )
                    ),
                )
            )
        out += self._extra(node, base, path, depth)
        if node.min_properties > 0:
            text = f"{where(path)} has fewer than minProperties {node.min_properties} properties"
            out.append(Mutation("minProperties", [({}, "minProperties", path, text)]))
        if node.max_properties is not None:
            most = node.max_properties
            text = f"{where(path)} has more than maxProperties {most} properties"
            out.append(
                Mutation(
                    "maxProperties",
                    [],
                    base.map(
                        lambda o: (
                            {**o, **{f"extra_{i}": None for i in range(most + 1 - len(o))}},
                            "maxProperties",
                            path,
                            text,
                        )
                    ),
                )
            )
        out += self._property_names(node, base, path)
        for trigger, deps in node.dependent_required.items():
            value = self._item_strategy(node.schema_for(trigger))
            if value is None or not deps:
                continue
            text = f"{where(path)} has {trigger!r} but not {', '.join(map(repr, deps))}, which it requires"
            out.append(
                Mutation(
                    "dependentRequired",
                    [],
                    st.tuples(base, value).map(
                        lambda t, tr=trigger, ds=deps, tx=text: (  # type: ignore[misc]
                            {**{k: v for k, v in t[0].items() if k not in ds}, tr: t[1]},
                            "dependentRequired",
                            path,
                            tx,
                        )
                    ),
                )
            )
        if depth < MAX_DEPTH:
            for name in node.properties:
                for m in self.mutations(node.schema_for(name), (*path, name), depth + 1):
                    out.append(
                        Mutation(
                            m.keyword,
                            [],
                            st.tuples(base, m.combined()).map(lambda t, n=name: ({**t[0], n: t[1][0]}, *t[1][1:])),  # type: ignore[misc]
                        )
                    )
        return out

    def _extra(self, node: Node, base: st.SearchStrategy[Any], path: Path, depth: int) -> list[Mutation]:
        additional = node.additional if node.additional is not None else node.unevaluated_properties
        if additional is None or additional is True or additional == {}:
            return []
        keyword = "additionalProperties" if node.additional is not None else "unevaluatedProperties"
        names_ok = self.c.check(node.property_names) if node.property_names is not None else (lambda _: True)
        name = next(
            (
                n
                for n in EXTRA_NAMES
                if n not in node.properties
                and names_ok(n)
                and not any(compiled(p).search(n) for p in node.pattern_properties)
            ),
            None,
        )
        if name is None:
            return []
        if additional is False:
            text = f"{where(path)} has the property {name!r}, which the schema does not allow"
            return [Mutation(keyword, [], base.map(lambda o: ({**o, name: "text"}, keyword, path, text)))]
        if depth >= MAX_DEPTH:
            return []
        return [
            Mutation(
                m.keyword,
                [],
                st.tuples(base, m.combined()).map(lambda t: ({**t[0], name: t[1][0]}, *t[1][1:])),
            )
            for m in self.mutations(additional, (*path, name), depth + 1)
        ]

    def _property_names(self, node: Node, base: st.SearchStrategy[Any], path: Path) -> list[Mutation]:
        if node.property_names is None:
            return []
        ok = self.c.check(node.property_names)
        probes = [*PATTERN_PROBES, "x" * 300, *EXTRA_NAMES]
        bad = [p for p in probes if not ok(p) and p not in node.properties]
        if not bad:
            return []
        text = f"{where(path)} has a property name that propertyNames rejects"
        return [
            Mutation(
                "propertyNames",
                [],
                st.tuples(base, st.sampled_from(bad)).map(
                    lambda t: ({**t[0], t[1]: None}, "propertyNames", path, text)
                ),
            )
        ]

    # -- combinators -----------------------------------------------------------------------------

    def _nots(self, node: Node, path: Path, objects_only: bool) -> list[Mutation]:
        out = []
        for negated in node.nots:
            try:
                strategy = self.c.compile(all_of(negated, {"type": "object"}) if objects_only else negated)
            except Unsatisfiable:
                continue
            text = f"{where(path)} matches the schema under `not`"
            out.append(Mutation("not", [], strategy.map(lambda v, t=text: (v, "not", path, t))))  # type: ignore[misc]
        return out

    def _branches(
        self, node: Node, ok: Callable[[Any], bool], path: Path, depth: int, objects_only: bool
    ) -> list[Mutation]:
        if depth >= MAX_DEPTH:
            return []
        samples: dict[str, Candidate] = {}
        for group in node.any_of + node.one_of:
            for branch in group:
                for m in self.mutations(branch, path, depth + 1, objects_only=objects_only):
                    for sample in m.samples:
                        if not ok(sample[0]):
                            samples.setdefault(json_key(sample[0]), sample)
        return _pool(list(samples.values()))

    def _applicators(self, schema: Any, path: Path, objects_only: bool) -> list[Mutation]:
        """Values the rest of the schema accepts but a conditional or combinator as a whole rejects.

        Written as schemas (`if` and `not then`; every branch negated) and drawn by the compiler,
        for the keywords of this schema object itself.
        """
        if not isinstance(schema, dict):
            return []
        wanted: list[tuple[str, str, list[Any]]] = []  # keyword, description, schemas the value meets
        conditional = _without(schema, "if", "then", "else")
        if "if" in schema and "then" in schema:
            wanted.append(("then", "meets `if` but not `then`", [conditional, schema["if"], {"not": schema["then"]}]))
        if "if" in schema and "else" in schema:
            negated = [{"not": schema["if"]}, {"not": schema["else"]}]
            wanted.append(("else", "fails `if` and `else`", [conditional, *negated]))
        found = schema.get("dependentSchemas")
        dependents: dict[str, Any] = found if isinstance(found, dict) else {}
        for trigger, dependent in dependents.items():
            others = {k: v for k, v in dependents.items() if k != trigger}
            rest = {**_without(schema, "dependentSchemas"), **({"dependentSchemas": others} if others else {})}
            text = f"has {trigger!r} but breaks the schema it brings"
            wanted.append(("dependentSchemas", text, [rest, {"required": [trigger]}, {"not": dependent}]))
        for keyword in ("anyOf", "oneOf"):
            branches = schema.get(keyword)
            if not isinstance(branches, list) or not branches:
                continue
            rest = _without(schema, keyword)
            wanted.append((keyword, f"matches no branch of {keyword}", [rest, *({"not": b} for b in branches)]))
            if keyword == "oneOf":
                for a, b in list(itertools.combinations(branches, 2))[:PAIRS]:
                    wanted.append((keyword, "matches two branches of oneOf", [rest, a, b]))
        out = []
        for keyword, words, parts in wanted:
            try:
                strategy = self.c.compile(all_of(*parts, {"type": "object"} if objects_only else True))
            except Unsatisfiable:
                continue
            text = f"{where(path)} {words}"
            out.append(Mutation(keyword, [], strategy.map(lambda v, k=keyword, t=text: (v, k, path, t))))  # type: ignore[misc]
        return out

    def _generic(self, ok: Callable[[Any], bool], path: Path, objects_only: bool) -> list[Mutation]:
        values = [v for v in GENERIC if (isinstance(v, dict) or not objects_only) and not ok(v)]
        return _pool([(v, "schema", path, f"{where(path)} is {v!r}, which the schema rejects") for v in values])


def _without(schema: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k not in keys}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    return "string" if isinstance(value, str) else "array" if isinstance(value, list) else "object"


def _edge(bound: float, direction: int, exclusive: bool, integral: bool) -> float:
    """The nearest value just outside a bound, an integer when only integers are allowed."""
    if exclusive:
        if not integral:
            return bound
        return math.floor(bound) if direction < 0 else math.ceil(bound)
    if integral:
        return math.ceil(bound) - 1 if direction < 0 else math.floor(bound) + 1
    step = 1 if float(bound).is_integer() else abs(bound) / 2 or 0.5
    return bound - step if direction < 0 else bound + step


def _off_multiples(m: float, integral: bool) -> list[float]:
    if integral:
        step = max(1, math.ceil(m))
        return [step + 1, 2 * step + 1, 1]
    return [m * 1.5, m / 2, m * 2.5]


def _put(values: list[Any], index: int, item: Any, most: int | None) -> list[Any]:
    """The list with `item` at `index`, kept within maxItems."""
    out = [*values[:index], item, *values[index + 1 :]]
    return out[:most] if most is not None and len(out) > most and index < most else out
