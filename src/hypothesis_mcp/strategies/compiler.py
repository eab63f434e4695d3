"""JSON Schema -> Hypothesis strategy of values that validate (docs/architecture.md).

Each node is normalised (refs, allOf, dialect) and built from exact pieces: ranges, regexes,
fixed dictionaries with optional keys, lists. anyOf/oneOf branches and dependentSchemas become
`one_of` over merged variants. Only what cannot be built exactly (`not`, if/then/else, oneOf with
overlapping branches, crossed patternProperties) is filtered, with the node's compiled validator,
at that node, so rejections stay rare and local.
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st
from jsonschema.protocols import Validator

from hypothesis_mcp.strategies.dialect import Dialect, dialect_of, validator
from hypothesis_mcp.strategies.fastregex import regex_text
from hypothesis_mcp.strategies.normalise import (
    TYPES,
    Node,
    Resolver,
    Unsatisfiable,
    all_of,
    json_key,
    merge,
    normalise,
)
from hypothesis_mcp.strategies.regex import compiled
from hypothesis_mcp.strategies.scalars import ALPHABET, integers, numbers, regex_strings, strings

RECURSION = 2  # expansions of one $ref inside itself before values are kept minimal
MINIMAL_DEPTH = 6  # further expansions, in minimal mode, before a recursion counts as infinite
BRANCH_BUDGET = 256  # merged anyOf/oneOf variants built per schema before taking first fits only
EXTRA_KEYS = 3  # most extra properties drawn for an open object
DEFAULT_LIST = 8  # most items drawn beyond minItems when maxItems is absent
LONG_LIST = 64  # most items drawn one by one; longer lists repeat them

ANY_JSON: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(ALPHABET, max_size=20),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(ALPHABET, max_size=8), children, max_size=3)
    ),
    max_leaves=6,
)
IDENTIFIER_KEYS = regex_text(r"[a-z][a-z0-9_]{0,9}") | st.text(ALPHABET, max_size=8)


@dataclass(frozen=True)
class Ctx:
    """Where a node sits: the $refs expanded above it, and whether values must now be minimal."""

    stack: tuple[str, ...] = ()
    minimal: bool = False


Built = tuple[st.SearchStrategy[Any], bool]  # a strategy, and whether every value it draws is valid
Slot = tuple[st.SearchStrategy[str], Callable[[str], bool], st.SearchStrategy[Any]]  # extra keys: names, check, values
ALL_TYPES = frozenset({"null", "boolean", "number", "string", "array", "object"})


def accepts_everything(node: Node) -> bool:
    """A node with no assertion left: `{}`, `true`, or every type listed and nothing else."""
    bare = replace(node, refs=(), inexact=False)
    return bare == Node() or (bare.types is not None and bare.types >= ALL_TYPES and bare == Node(types=bare.types))


def _implied(node: Node, other: Node) -> bool:
    """Whether `node` already asserts everything `other` does (so `not other` leaves nothing)."""
    plain = replace(node, refs=(), inexact=False)
    return not node.inexact and replace(merge(plain, replace(other, refs=())), inexact=False) == plain


def _unique(values: list[Any]) -> bool:
    return len({json_key(v) for v in values}) == len(values)


def _first(pair: tuple[str, int]) -> str:
    return pair[0]


def _repeat(drawn: list[Any], size: int) -> list[Any]:
    return [copy.deepcopy(drawn[i % len(drawn)]) for i in range(size)]


def long_lists(
    item: st.SearchStrategy[Any], lo: int, hi: int, *, unique: bool = False
) -> st.SearchStrategy[list[Any]]:
    """Lists of lo..hi items; past LONG_LIST items the drawn ones repeat, so size costs linear time.

    Hypothesis spends a choice (and its bookkeeping) per item and gives up on very long lists;
    unique lists cannot repeat and stay item by item.
    """
    key = json_key if unique else None
    if unique or lo <= LONG_LIST:
        return st.lists(item, min_size=lo, max_size=hi, unique_by=key)
    return st.builds(_repeat, st.lists(item, min_size=1, max_size=LONG_LIST), st.integers(lo, hi))


class Compiler:
    """Builds strategies for the nodes of one (checked, pythonized) root schema."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.dialect: Dialect = dialect_of(root)
        self.resolver = Resolver(root)
        self.oracle: Validator = validator(root)
        self._cache: dict[tuple[int, Ctx], tuple[Any, st.SearchStrategy[Any]]] = {}
        self._budget = BRANCH_BUDGET

    # -- helpers ---------------------------------------------------------------------------------

    def check(self, schema: Any) -> Callable[[Any], bool]:
        """The oracle's verdict for one subschema (refs resolve against the root)."""
        return self.oracle.evolve(schema=schema).is_valid

    def normalise(self, schema: Any) -> Node:
        return normalise(schema, self.resolver, self.dialect)

    def enter(self, ctx: Ctx, refs: tuple[str, ...]) -> Ctx:
        """The context below a node that expanded `refs`; minimal once a ref recurses too often."""
        minimal = ctx.minimal
        for ref in refs:
            depth = ctx.stack.count(ref)
            if depth >= RECURSION + MINIMAL_DEPTH:
                raise Unsatisfiable("$ref", f"the recursive $ref {ref!r} has no finite value")
            minimal = minimal or depth >= RECURSION
        return Ctx(ctx.stack + refs, minimal)

    # -- entry -----------------------------------------------------------------------------------

    def compile(self, schema: Any, ctx: Ctx | None = None) -> st.SearchStrategy[Any]:
        """A strategy of values valid for `schema`; raises Unsatisfiable when there are none."""
        ctx = ctx or Ctx()
        key = (id(schema), ctx)
        cached = self._cache.get(key)
        if cached is not None and cached[0] is schema:
            return cached[1]
        node = self.normalise(schema)
        inner = self.enter(ctx, node.refs)
        strategy, exact = self.build(node, schema, inner)
        if not exact:
            strategy = strategy.filter(self.check(schema))
        examples = self._examples(schema)
        if examples:
            strategy = st.one_of(st.sampled_from(examples), strategy)
        self._cache[key] = (schema, strategy)
        return strategy

    def _examples(self, schema: Any) -> list[Any]:
        if not isinstance(schema, dict):
            return []
        found = ([schema["default"]] if "default" in schema else []) + (
            list(schema["examples"]) if isinstance(schema.get("examples"), list) else []
        )
        if not found:
            return []
        ok = self.check(schema)
        return list({json_key(v): v for v in found if ok(v)}.values())

    # -- combinators -----------------------------------------------------------------------------

    def build(self, node: Node, schema: Any, ctx: Ctx) -> Built:
        """Build one merged node; `schema` is the real schema it came from, for checks."""
        node = self._double_negations(node)
        if node.enum is not None:
            ok = self.check(schema)
            values = list({json_key(v): v for v in node.enum if ok(v)}.values())
            if not values:
                raise Unsatisfiable("enum", "no value of enum/const satisfies the rest of the schema")
            return st.sampled_from(values), True
        if node.any_of or node.one_of:
            return self._branches(node, schema, ctx)
        if node.conditionals:
            return self._conditional(node, schema, ctx)
        return self._typed_union(node, schema, ctx)

    def _double_negations(self, node: Node) -> Node:
        """`not: {not: X}` is X: merged in, so it is generated rather than filtered."""
        kept: list[Any] = []
        for negated in node.nots:
            try:
                neg = self.normalise(negated)
            except Unsatisfiable:
                continue
            if len(neg.nots) == 1 and replace(neg, nots=(), refs=(), inexact=False) == Node():
                node = merge(node, self.normalise(neg.nots[0]))
            else:
                kept.append(negated)
        return replace(node, nots=tuple(kept)) if len(kept) != len(node.nots) else node

    def _branches(self, node: Node, schema: Any, ctx: Ctx) -> Built:
        exclusive = not node.any_of
        group = node.any_of[0] if node.any_of else node.one_of[0]
        rest = replace(node, any_of=node.any_of[1:], one_of=node.one_of if node.any_of else node.one_of[1:])
        keyword = "oneOf" if exclusive else "anyOf"
        options: list[tuple[Node, Any]] = []
        written = len(group)
        if exclusive:  # a branch written twice matches twice: it can never be the only match
            counts = Counter(json_key(b) for b in group)
            group = tuple(b for b in group if counts[json_key(b)] == 1)
        alone = len(group) == written
        for branch in group:
            try:
                options.append((self.normalise(branch), branch))
            except Unsatisfiable:
                continue
        if exclusive and sum(1 for n, _ in options if accepts_everything(n)) > 1:
            raise Unsatisfiable("oneOf", "two oneOf branches accept everything, so every value matches both")
        if ctx.minimal:
            options.sort(key=lambda o: bool(o[0].refs))
        built: list[Built] = []
        last: Unsatisfiable | None = None
        for branch_node, _ in options:
            if built and (ctx.minimal or self._budget <= 0):
                break
            self._budget -= 1
            try:
                built.append(self.build(merge(rest, branch_node), schema, self.enter(ctx, branch_node.refs)))
            except Unsatisfiable as exc:
                last = exc
        if not built:
            raise Unsatisfiable(
                keyword, f"no branch of {keyword} can be satisfied" + (f" ({last.message})" if last else "")
            )
        exclusive_ok = alone and (len(options) == 1 or self._disjoint(options))
        exact = all(e for _, e in built) and (not exclusive or exclusive_ok)
        return st.one_of([s for s, _ in built]), exact

    def _disjoint(self, options: list[tuple[Node, Any]]) -> bool:
        """oneOf branches no value can satisfy twice: different types, or different constants."""
        nodes = [n for n, _ in options]
        types = [n.types for n in nodes]
        if all(t is not None for t in types):
            expanded = [t | {"integer"} if "number" in t else t for t in types if t is not None]
            if all(a.isdisjoint(b) for a, b in itertools.combinations(expanded, 2)):
                return True
        if all(n.enum is not None for n in nodes):
            keys = [{json_key(v) for v in n.enum or ()} for n in nodes]
            if all(a.isdisjoint(b) for a, b in itertools.combinations(keys, 2)):
                return True
        common = set.intersection(*(set(n.required) for n in nodes)) if nodes else set()
        for name in common:
            consts = [self._const_of(n.properties.get(name)) for n in nodes]
            if all(c is not None for c in consts) and len({json_key(c) for c in consts}) == len(consts):
                return True
        return False

    def _const_of(self, schema: Any) -> Any:
        try:
            node = self.normalise(schema) if schema is not None else None
        except Unsatisfiable:
            return None
        return node.enum[0] if node is not None and node.enum is not None and len(node.enum) == 1 else None

    def _conditional(self, node: Node, schema: Any, ctx: Ctx) -> Built:
        condition, then, otherwise = node.conditionals[0]
        rest = replace(node, conditionals=node.conditionals[1:])
        built: list[st.SearchStrategy[Any]] = []
        # then: the condition holds; else: it does not (as `not`, so types it names are removed).
        for parts, negated in (((condition, then), ()), ((otherwise,), (condition,))):
            try:
                merged = replace(rest, nots=rest.nots + negated)
                refs: tuple[str, ...] = ()
                for part in parts:
                    part_node = self.normalise(part)
                    merged = merge(merged, part_node)
                    refs += part_node.refs
                built.append(self.build(merged, schema, self.enter(ctx, refs))[0])
            except Unsatisfiable:
                continue
        if not built:
            raise Unsatisfiable("if", "neither the then nor the else branch can be satisfied")
        return st.one_of(built), False

    # -- types -----------------------------------------------------------------------------------

    def _types(self, node: Node) -> tuple[list[str], bool]:
        """The types to draw, best first, and whether `not` was fully honoured by removing types."""
        allowed = set(TYPES if node.types is None else node.types)
        if "number" in allowed:
            allowed.discard("integer")
        exact = True
        for negated in node.nots:
            try:
                neg = self.normalise(negated)
            except Unsatisfiable:
                continue
            if accepts_everything(neg) or _implied(replace(node, nots=()), neg):
                raise Unsatisfiable("not", "the schema under `not` accepts every value the rest allows")
            if neg.types is not None and neg == Node(types=neg.types):
                allowed -= neg.types | ({"integer"} if "number" in neg.types else set())
                exact = exact and not ("integer" in neg.types and "number" in allowed)
            else:
                exact = False
        hinted = {
            "object": node.object_keywords,
            "array": node.array_keywords,
            "string": node.string_keywords,
            "number": node.number_keywords,
            "integer": node.number_keywords,
        }
        order = sorted((t for t in TYPES if t in allowed), key=lambda t: not hinted.get(t, False))
        return order, exact

    def _typed_union(self, node: Node, schema: Any, ctx: Ctx) -> Built:
        types, exact = self._types(node)
        exact = exact and not node.inexact
        plain = node == Node(types=node.types, refs=node.refs, nots=node.nots, inexact=node.inexact)
        if plain and set(types) >= ALL_TYPES:
            return ANY_JSON, exact
        built: list[st.SearchStrategy[Any]] = []
        last: Unsatisfiable | None = None
        for kind in types:
            try:
                strategy, ok = self._typed(kind, node, schema, ctx)
            except Unsatisfiable as exc:
                last = exc
                continue
            built.append(strategy)
            exact = exact and ok
        if not built:
            raise last or Unsatisfiable("type", "no type is allowed")
        return st.one_of(built), exact

    def _typed(self, kind: str, node: Node, schema: Any, ctx: Ctx) -> Built:
        if kind == "null":
            return st.none(), True
        if kind == "boolean":
            return st.booleans(), True
        if kind == "integer":
            return integers(node), True
        if kind == "number":
            return numbers(node), True
        if kind == "string":
            return strings(node, self.oracle.FORMAT_CHECKER), True
        if kind == "array":
            return self._array(node, ctx)
        return self._object(node, schema, ctx)

    # -- arrays ----------------------------------------------------------------------------------

    def _array(self, node: Node, ctx: Ctx) -> Built:
        items_schema = (
            node.items
            if node.items is not None
            else (True if node.unevaluated_items is None else node.unevaluated_items)
        )
        prefix: list[st.SearchStrategy[Any]] = []
        for p in node.prefix_items:
            try:
                prefix.append(self.compile(p, ctx))
            except Unsatisfiable:
                break
        item: st.SearchStrategy[Any] | None = None
        if items_schema is not False and len(prefix) == len(node.prefix_items):  # else: no item past a gap
            try:
                item = self.compile(items_schema, ctx)
            except Unsatisfiable:
                item = None
        if node.contains is not None and node.max_contains is not None and node.min_contains > node.max_contains:
            raise Unsatisfiable(
                "maxContains", f"maxContains {node.max_contains} is below minContains {node.min_contains}"
            )
        contains = (
            node.contains
            if node.contains is not None and (node.min_contains > 0 or node.max_contains is not None)
            else None
        )
        # In 2020-12 an item matching `contains` is evaluated, so unevaluatedItems lets it through.
        evaluated = contains is not None and node.items is None and "prefixItems" in self.dialect.keywords
        lo, hi = node.min_items, node.max_items
        if item is None and not (evaluated and len(prefix) == len(node.prefix_items)):
            hi = len(prefix) if hi is None else min(hi, len(prefix))
        if hi is not None and lo > hi:
            raise Unsatisfiable("minItems", f"no array of at least {lo} items fits the item schemas")
        top = hi if hi is not None else lo + (0 if ctx.minimal else DEFAULT_LIST)
        if ctx.minimal:
            top = lo
        if not prefix and contains is None:
            if item is None:
                return st.just([]), True
            if node.unique_items:
                self._check_domain(items_schema, lo)
            return long_lists(item, lo, top, unique=node.unique_items), True
        exact = not (prefix and contains is not None)
        checks: list[Callable[[list[Any]], bool]] = []
        if node.unique_items:
            checks.append(_unique)
        if contains is not None:
            hits = True if evaluated else items_schema
            strategy = self._contains(node, contains, hits, prefix, item, lo, top, ctx, checks)
        else:
            strategy = self._prefixed(prefix, item, lo, top)
        if checks:
            strategy = strategy.filter(lambda v: all(c(v) for c in checks))
        return strategy, exact

    def _check_domain(self, items_schema: Any, needed: int) -> None:
        try:
            node = self.normalise(items_schema)
        except Unsatisfiable:
            return
        size = None
        if node.enum is not None:
            size = len({json_key(v) for v in node.enum})
        elif node.types is not None and node.types <= {"null", "boolean"}:
            size = len(node.types & {"null"}) + 2 * len(node.types & {"boolean"})
        if size is not None and size < needed:
            raise Unsatisfiable("uniqueItems", f"only {size} distinct items exist but minItems is {needed}")

    @staticmethod
    def _prefixed(
        prefix: list[st.SearchStrategy[Any]], item: st.SearchStrategy[Any] | None, lo: int, top: int
    ) -> st.SearchStrategy[list[Any]]:
        @st.composite
        def draw_array(draw: st.DrawFn) -> list[Any]:
            size = draw(st.integers(lo, top))
            head = [draw(s) for s in prefix[:size]]
            tail = [draw(item) for _ in range(size - len(head))] if item is not None else []
            return head + tail

        return draw_array()

    def _contains(
        self,
        node: Node,
        contains: Any,
        items_schema: Any,
        prefix: list[st.SearchStrategy[Any]],
        item: st.SearchStrategy[Any] | None,
        lo: int,
        top: int,
        ctx: Ctx,
        checks: list[Callable[[list[Any]], bool]],
    ) -> st.SearchStrategy[list[Any]]:
        """Arrays with the prefix items, then `contains` matches, then ordinary items."""
        least = node.min_contains
        most = node.max_contains if node.max_contains is not None else least + 2
        most = min(most, top - len(prefix))
        if least > most:
            raise Unsatisfiable("minContains", f"minContains {least} does not fit the array bounds")
        try:
            hit = self.compile(all_of(items_schema, contains), ctx)
        except Unsatisfiable:
            if least > 0:
                raise Unsatisfiable("contains", "no item can satisfy both items and contains") from None
            hit = st.nothing()
            most = 0
        if node.max_contains is not None:
            matches = self.check(contains)
            limit = node.max_contains
            checks.append(lambda v: sum(1 for x in v if matches(x)) <= limit)

        @st.composite
        def draw_array(draw: st.DrawFn) -> list[Any]:
            head = [draw(s) for s in prefix]
            count = draw(st.integers(least, most))
            hits = [draw(hit) for _ in range(count)]
            rest_lo = max(0, lo - count - len(head))
            rest_hi = max(rest_lo, top - count - len(head))
            rest = draw(long_lists(item, rest_lo, rest_hi)) if item is not None else []
            assume(rest_lo <= len(rest))
            return head + hits + rest

        return draw_array()

    # -- objects ---------------------------------------------------------------------------------

    def _object(self, node: Node, schema: Any, ctx: Ctx) -> Built:
        if node.dependent_schemas:
            return self._dependent_variants(node, schema, ctx)
        return ObjectBuilder(self, node, ctx).build()

    def _dependent_variants(self, node: Node, schema: Any, ctx: Ctx) -> Built:
        """One variant per set of present trigger properties, each with its schemas merged in."""
        base = replace(node, dependent_schemas={}, types=frozenset({"object"}))
        pending = dict(node.dependent_schemas)
        refs: tuple[str, ...] = ()
        changed = True
        while changed:
            changed = False
            for name in [n for n in pending if n in base.required]:
                extra = self.normalise(pending.pop(name))
                base, refs, changed = merge(base, extra), refs + extra.refs, True
        triggers = list(pending)
        if len(triggers) > 4:
            return self.build(base, schema, self.enter(ctx, refs))[0], False
        built: list[Built] = []
        sizes = [0] if ctx.minimal else range(len(triggers) + 1)
        for size in sizes:
            for present in itertools.combinations(triggers, size):
                variant = base
                variant_refs = refs
                try:
                    for name in triggers:
                        if name in present:
                            extra = self.normalise(pending[name])
                            variant = merge(variant, replace(extra, required=(*extra.required, name)))
                            variant_refs += extra.refs
                        else:
                            variant = merge(variant, Node(properties={name: False}))
                    built.append(self.build(variant, schema, self.enter(ctx, variant_refs)))
                except Unsatisfiable:
                    continue
        if not built:
            raise Unsatisfiable("dependentSchemas", "no combination of dependent schemas can be satisfied")
        return st.one_of([s for s, _ in built]), all(e for _, e in built)


class ObjectBuilder:
    """Objects for one node: required keys, optional keys that shrink away, extra keys if allowed."""

    def __init__(self, compiler: Compiler, node: Node, ctx: Ctx) -> None:
        self.c, self.node, self.ctx = compiler, node, ctx
        self.additional = node.additional if node.additional is not None else node.unevaluated_properties
        self.names_ok = compiler.check(node.property_names) if node.property_names is not None else None
        self.patterns = list(node.pattern_properties)
        self.why: dict[str, Unsatisfiable] = {}

    def _value(self, name: str) -> st.SearchStrategy[Any] | None:
        if self.names_ok is not None and not self.names_ok(name):
            self.why[name] = Unsatisfiable("propertyNames", f"propertyNames rejects the name {name!r}")
            return None
        try:
            return self.c.compile(self._schema_for(name), self.ctx)
        except Unsatisfiable as exc:
            self.why[name] = exc
            return None

    def _schema_for(self, name: str) -> Any:
        """Like Node.schema_for, with unevaluatedProperties standing in for absent additionalProperties."""
        if name in self.node.properties or any(compiled(p).search(name) for p in self.patterns):
            return self.node.schema_for(name)
        return True if self.additional is None else self.additional

    def _closure(self, name: str) -> list[str]:
        seen = [name]
        for current in seen:
            seen.extend(d for d in self.node.dependent_required.get(current, ()) if d not in seen)
        return seen

    def build(self) -> Built:
        node = self.node
        names = list(
            dict.fromkeys(
                [
                    *node.properties,
                    *node.required,
                    *(d for deps in node.dependent_required.values() for d in deps),
                ]
            )
        )
        values = {n: s for n in names if (s := self._value(n)) is not None}
        required = list(dict.fromkeys(d for r in node.required for d in self._closure(r)))
        missing = [r for r in required if r not in values]
        if missing:
            cause = self.why.get(missing[0])
            keyword = "$ref" if cause is not None and cause.keyword == "$ref" else "required"
            raise Unsatisfiable(
                keyword,
                f"required property {missing[0]!r} can never be valid"
                + (f": {cause.message}" if cause is not None else ""),
            )
        optional = [
            n
            for n in node.properties
            if n not in required and n in values and all(d in values for d in self._closure(n))
        ]
        if self.ctx.minimal:
            optional = optional if node.min_properties > len(required) else []
        # Extra keys never take a declared name, nor one that would bring dependencies along.
        slots = self._extra_slots({*names, *node.dependent_required, *node.dependent_schemas})
        most = node.max_properties
        if most is not None and node.min_properties > most:
            raise Unsatisfiable("minProperties", f"minProperties {node.min_properties} exceeds maxProperties {most}")
        if most is not None and len(required) > most:
            raise Unsatisfiable("maxProperties", f"{len(required)} required properties exceed maxProperties {most}")
        if not slots and len(required) + len(optional) < node.min_properties:
            raise Unsatisfiable(
                "minProperties",
                f"at most {len(required) + len(optional)} properties can be "
                f"present but minProperties is {node.min_properties}",
            )
        exact = len(self.patterns) < 2
        simple = not node.dependent_required and most is None and not node.min_properties
        if simple and not slots:
            return st.fixed_dictionaries(
                {n: values[n] for n in required}, optional={n: values[n] for n in optional}
            ), exact
        return self._composite(values, required, optional, slots), exact

    def _extra_slots(self, declared: set[str]) -> list[Slot]:
        """(key strategy, key check, value strategy) for properties the schema does not name."""
        if self.ctx.minimal and not self.node.min_properties:
            return []
        slots: list[Slot] = []
        searches = [compiled(p).search for p in self.patterns]
        names_ok = self.names_ok or (lambda _: True)
        for pattern, search in zip(self.patterns, searches, strict=True):
            try:
                value = self.c.compile(self.node.pattern_properties[pattern], self.ctx)
            except Unsatisfiable:
                continue

            def fits(k: str, s: Callable[[str], Any] = search) -> bool:
                return k not in declared and bool(s(k)) and names_ok(k)

            slots.append((regex_strings(pattern).filter(fits), fits, value))
        if self.additional is not False:
            try:
                value = self.c.compile(True if self.additional is None else self.additional, self.ctx)
            except Unsatisfiable:
                return slots

            def free(k: str) -> bool:
                return k not in declared and not any(s(k) for s in searches) and names_ok(k)

            slots.append((self._additional_keys().filter(free), free, value))
        return slots

    def _additional_keys(self) -> st.SearchStrategy[str]:
        if self.node.property_names is None:
            return IDENTIFIER_KEYS
        try:
            return self.c.compile(all_of(self.node.property_names, {"type": "string"}), self.ctx)
        except Unsatisfiable:
            return st.nothing()

    def _composite(
        self,
        values: dict[str, st.SearchStrategy[Any]],
        required: list[str],
        optional: list[str],
        slots: list[Slot],
    ) -> st.SearchStrategy[dict[str, Any]]:
        least, most = self.node.min_properties, self.node.max_properties
        closure = {n: self._closure(n) for n in optional}
        # Extra keys never take a declared name, so only they can collide: drawn as a unique list.
        tagged = st.one_of([s[0].map(lambda k, i=i: (k, i)) for i, s in enumerate(slots)]) if slots else None  # type: ignore[misc]

        def extras(draw: st.DrawFn, tagged: st.SearchStrategy[tuple[str, int]], lo: int, hi: int) -> dict[str, Any]:
            if lo <= LONG_LIST:
                pairs = draw(st.lists(tagged, min_size=lo, max_size=hi, unique_by=_first))
                return {key: draw(slots[i][2]) for key, i in pairs}
            # Many keys: draw some, then number copies of them (kept when their slot accepts the name).
            drawn = [(k, i, draw(slots[i][2])) for k, i in draw(st.lists(tagged, min_size=1, max_size=LONG_LIST))]
            out: dict[str, Any] = {}
            size = draw(st.integers(lo, hi))
            for n in itertools.count():
                if len(out) >= size or n >= 2 * size:
                    break
                key, i, value = drawn[n % len(drawn)]
                name = key if n < len(drawn) else f"{key}_{n}"
                if name not in out and slots[i][1](name):
                    out[name] = copy.deepcopy(value)
            return out

        @st.composite
        def draw_object(draw: st.DrawFn) -> dict[str, Any]:
            out = {n: draw(values[n]) for n in required}
            cap = most if most is not None else max(least, len(out) + len(optional)) + EXTRA_KEYS
            room = cap - len(out)
            wanted = [n for n in optional if draw(st.booleans())]
            for name in wanted + [n for n in optional if n not in wanted]:
                needed = least > len(out) or name in wanted
                add = [d for d in closure[name] if d not in out]
                if not needed or len(add) > room:
                    continue
                for d in add:
                    out[d] = draw(values[d])
                room -= len(add)
            if tagged is not None and room > 0:
                need = max(0, least - len(out))
                out.update(extras(draw, tagged, min(need, room), min(room, need + EXTRA_KEYS)))
            assume(len(out) >= least)
            return out

        return draw_object()
