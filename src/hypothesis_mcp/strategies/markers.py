"""Marked values for write probes: every free-text field carries `hm<8 hex>-<field>`.

A marker makes a written record recognisable when a read tool shows it (and later findable for
clean-up). Free text is a string without pattern, format, enum or const; it gets
`"{marker}-{field}"` followed by text drawn from the whole space the schema allows: other scripts,
combining marks, emoji, whitespace and control characters. About one text in ten is long, up to
maxLength (or a thousand characters when unbounded); the others are short. The only characters
left out are line breaks other than `\n`, so that a line-based read counts lines as every server
does. When maxLength is shorter than the prefix, the prefix is cut from its end: the field name
goes first, then the marker's tail (a field capped under 10 characters cannot carry a whole
marker, so probes cannot find it). Arrays get one to a few marked items within minItems/maxItems,
objects their required and free-text fields with their other fields present or absent;
everything else keeps ordinary schema-valid values, so every result validates. Every draw
shrinks towards the plain marker.
"""

from __future__ import annotations

import json
import random
import re
import string
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.strategies.compiler import Compiler
from hypothesis_mcp.strategies.freetext import free_text, locating
from hypothesis_mcp.strategies.normalise import Node, Unsatisfiable, json_key, merge
from hypothesis_mcp.strategies.schemas import compiler_for, tool_schema
from hypothesis_mcp.strategies.tools import OverridesLike, fixed_values, with_tool

MARKER = re.compile(r"(?<![0-9A-Za-z])hm[0-9a-f]{8}(?![0-9a-f])")
SUFFIX = 24  # most generated characters after a marker
TAIL = st.lists(st.text(string.ascii_letters + string.digits + " ", max_size=3), max_size=6).map("\n".join)
"""Readable text after a marker; several short lines, so line-based reads have something to cut."""
LINE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
ANY_CHAR = st.characters(codec="utf-8", exclude_characters=LINE_BREAKS)
"""Any character JSON carries (surrogates excluded), apart from line breaks other than `\n`."""
OTHER_LETTER = st.characters(codec="utf-8", min_codepoint=0x80, categories=["L"])
UNBOUNDED = 1000  # longest text drawn for a field without maxLength
LONG_ODDS = 10
"""One marked text in this many may be long: long values find cuts, but cost every call they ride on."""
EXTRA_ITEMS = 3  # most items an array gets beyond its least
MAX_DEPTH = 4  # nesting of objects and arrays that still get markers


def _token(bits: int) -> str:
    return f"hm{bits & 0xFFFFFFFF:08x}"


PLACEHOLDER = _token(0)
"""Stands in drawn arguments for the marker a probe gives each write once it is made."""


def with_marker(drawn: Any, marker: str) -> Any:
    """Drawn arguments with the placeholder replaced by the write's own marker."""
    return json.loads(json.dumps(drawn).replace(PLACEHOLDER, marker))


def new_marker(rng_or_seed: random.Random | int | None = None) -> str:
    """A fresh `hm<8 hex>` token; give a seed or a Random for a reproducible one."""
    rng = rng_or_seed if isinstance(rng_or_seed, random.Random) else random.Random(rng_or_seed)
    return _token(rng.getrandbits(32))


def salted_marker(salt: int, count: int) -> str:
    """The `count`th marker of a probe: its 16-bit `salt` then the count, so two probes' markers differ."""
    return _token((salt & 0xFFFF) << 16 | count & 0xFFFF)


def leading_marker(text: str) -> str | None:
    """The marker a marked value starts with (`hm1234abcd-title…` gives `hm1234abcd`)."""
    found = MARKER.match(text)
    return found.group() if found is not None and text[found.end():found.end() + 1] == "-" else None


def find_markers(blob: Any, marker: str | None = None) -> list[str]:
    """Every marker occurrence in a text or a JSON-like value (one entry per occurrence).

    With `marker`, only that one is counted; without, any `hm<8 hex>` token.
    """
    text = blob if isinstance(blob, str) else json.dumps(blob, ensure_ascii=False, default=str)
    pattern = MARKER if marker is None else re.compile(rf"(?<![0-9A-Za-z]){re.escape(marker)}(?![0-9a-f])")
    return pattern.findall(text)


def marked_text(marker: str, field: str, lo: int = 0, hi: int | None = None, *,
                long: bool = False) -> st.SearchStrategy[str]:
    """`{marker}-{field}` then generated text, within [lo, hi] code points; shrinks to the prefix.
    `long`: always a long text of numbered lines, at least half the longest allowed."""
    prefix = f"{marker}-{field}"
    if hi is not None and len(prefix) > hi:
        prefix = prefix[:hi]
    room = SUFFIX if hi is None else hi - len(prefix)
    least = max(0, lo - len(prefix))
    top = max(least, room)
    longest = max(least, UNBOUNDED - len(prefix) if hi is None else room)
    pad = "x" * least
    if long:
        return _long_lines(max(least, longest // 2), longest).map(lambda tail: prefix + tail)
    short = st.one_of(TAIL, st.text(ANY_CHAR, max_size=8)).map(lambda tail: (tail + pad)[:top])
    lengthy = _long_text(longest).map(lambda tail: (tail + pad)[:longest])
    return st.integers(0, LONG_ODDS - 1).flatmap(lambda n: lengthy if n == LONG_ODDS - 1 else short).map(
        lambda tail: prefix + tail)


def _long_text(longest: int) -> st.SearchStrategy[str]:
    """A text of any length up to `longest`: a short drawn unit repeated, so a long value costs
    one draw and shrinks by its length."""
    if longest <= 0:
        return st.just("")
    return st.tuples(st.text(ANY_CHAR, min_size=1, max_size=4), st.integers(0, longest)).map(
        lambda drawn: (drawn[0] * (drawn[1] // len(drawn[0]) + 1))[:drawn[1]])


def _long_lines(least: int, longest: int) -> st.SearchStrategy[str]:
    """Numbered lines of one drawn unit, `least` to `longest` characters: every line differs, so a
    read that cuts the text or returns the wrong lines of it shows on any of them. The unit holds
    a letter outside ASCII, so a store that mishandles other scripts meets one."""
    unit = st.tuples(OTHER_LETTER, st.text(ANY_CHAR, max_size=3)).map("".join)
    return st.tuples(unit, st.integers(least, longest)).map(
        lambda drawn: "".join(f"\n{drawn[0]}{i}" for i in range(drawn[1]))[:drawn[1]])


class MarkedBuilder:
    """Marked values for the nodes of one compiled schema; with `long`, long texts in every free-text
    field but those named in `short` (a record's key stays short, as a person would write it)."""

    def __init__(self, compiler: Compiler, marker: str, long: bool = False,
                 short: frozenset[str] = frozenset()) -> None:
        self.c = compiler
        self.marker = marker
        self.long = long
        self.short = short

    def value(self, schema: Any, field: str, depth: int = 0) -> st.SearchStrategy[Any]:
        try:
            node = self.c.normalise(schema)
        except Unsatisfiable:
            return st.nothing()
        return self._node(node, schema, field, depth)

    def _node(self, node: Node, schema: Any, field: str, depth: int) -> st.SearchStrategy[Any]:
        if node.enum is not None or node.nots or node.conditionals or depth > MAX_DEPTH:
            return self.c.compile(schema)
        if node.any_of or node.one_of:
            return self._branch(node, schema, field, depth)
        kinds = (
            node.types
            if node.types is not None
            else frozenset(k for k, on in (("object", node.object_keywords), ("array", node.array_keywords)) if on)
            or None
        )
        if kinds is None:
            return self.c.compile(schema)
        if "string" in kinds and not node.patterns and not node.formats:
            return marked_text(self.marker, field, node.min_length, node.max_length,
                               long=self.long and field not in self.short)
        if "object" in kinds and not (
            node.dependent_schemas or node.dependent_required or node.min_properties or node.property_names is not None
        ):
            return self._object(node, field, depth)
        if "array" in kinds and not node.prefix_items and node.contains is None:
            return self._array(node, field, depth)
        return self.c.compile(schema)

    def _branch(self, node: Node, schema: Any, field: str, depth: int) -> st.SearchStrategy[Any]:
        group = node.any_of[0] if node.any_of else node.one_of[0]
        rest = replace(node, any_of=node.any_of[1:], one_of=node.one_of if node.any_of else node.one_of[1:])
        for branch in group:
            try:
                merged = merge(rest, self.c.normalise(branch))
            except Unsatisfiable:
                continue
            if merged.types is not None and merged.types & {"string", "object", "array"}:
                return self._node(merged, schema, field, depth).filter(self.c.check(schema))
        return self.c.compile(schema)

    def _object(self, node: Node, field: str, depth: int) -> st.SearchStrategy[dict[str, Any]]:
        """Required and free-text fields always (they carry the marker); optional text fields that
        are not free text (a priority letter, an id, a query) never; the others present or absent."""
        texts = {n for n in node.properties if self._is_text(n, node)}
        free = {n for n in texts if self._is_free(n, node)}
        wanted = list(dict.fromkeys([*node.required, *(n for n in node.properties if n in free)]))
        optional = [n for n in node.properties if n not in wanted and n not in texts]
        return st.fixed_dictionaries({n: self._field(node, n, n in free or n not in texts, depth) for n in wanted},
                                     optional={n: self.c.compile(node.schema_for(n)) for n in optional})

    def _field(self, node: Node, name: str, free: bool, depth: int) -> st.SearchStrategy[Any]:
        """A required field that is not free text gets a bare marker where one fits (it names a
        record) and an ordinary value otherwise (code, one of a few words)."""
        schema = node.schema_for(name)
        if free:
            return self.value(schema, name, depth + 1)
        bare = f"{self.marker}-{name}"
        if locating(name) and self.c.check(schema)(bare):
            return st.just(bare)
        return self.c.compile(schema)

    def _is_free(self, name: str, node: Node) -> bool:
        schema = node.schema_for(name)
        try:
            child = self.c.normalise(schema)
        except Unsatisfiable:
            return False
        return free_text(name, schema, child.max_length)

    def _is_text(self, name: str, node: Node) -> bool:
        try:
            child = self.c.normalise(node.schema_for(name))
        except Unsatisfiable:
            return False
        if child.enum is not None or child.patterns or child.formats:
            return False
        kinds = set(child.types or ())
        for group in child.any_of + child.one_of:
            for branch in group:
                try:
                    kinds |= set(self.c.normalise(branch).types or ())
                except Unsatisfiable:
                    continue
        return "string" in kinds

    def _array(self, node: Node, field: str, depth: int) -> st.SearchStrategy[list[Any]]:
        size = max(1, node.min_items)
        most = size + EXTRA_ITEMS
        if node.max_items is not None:
            size, most = min(size, node.max_items), min(most, node.max_items)
        item = self.value(True if node.items is None else node.items, field, depth + 1)
        return st.lists(item, min_size=size, max_size=most, unique_by=json_key if node.unique_items else None)


def marked_arguments(tool: Tool, marker: str, overrides: OverridesLike = None, *, long: bool = False,
                     short: frozenset[str] = frozenset()) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments for a write whose free-text fields carry `marker`; the simplest draw is exactly
    `"{marker}-{field}"` in each of them (with `long`, a long text of numbered lines after it in
    each field not named in `short`). Overridden parameters take the user's values."""
    schema = tool_schema(tool)
    try:
        compiler = compiler_for(schema)
        strategy = MarkedBuilder(compiler, marker, long, short).value(compiler.root, "value")
    except SchemaError as exc:
        raise with_tool(tool, exc) from exc
    except Unsatisfiable as exc:
        raise SchemaError(exc.message, tool=tool.name, keyword=exc.keyword) from None
    fixed = fixed_values(tool, overrides)
    if fixed:
        strategy = strategy.map(lambda args: {**args, **fixed})
        root = compiler.normalise(compiler.root)
        if not all(compiler.check(root.schema_for(n))(v) for n, v in fixed.items()):
            return strategy  # the user's values break the schema: sent as given (the user wins)
    return strategy.filter(compiler.check(compiler.root))
