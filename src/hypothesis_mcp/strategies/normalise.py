"""One schema node in one shape: `$ref` followed, `allOf` folded in, old spellings made 2020-12's.

The compiler and the mutator both read a `Node`, so neither cares whether a tool wrote draft-04
booleans, draft-07 `dependencies` or 2020-12 `prefixItems`. Subschemas stay raw JSON Schema
(a merge of two is `{"allOf": [a, b]}`) and are normalised only when compiled, which keeps
recursive schemas finite.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import reduce
from typing import Any
from urllib.parse import unquote

from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.strategies.dialect import Dialect
from hypothesis_mcp.strategies.regex import compiled

TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "$defs",
        "definitions",
        "$comment",
        "$anchor",
        "$dynamicAnchor",
        "$recursiveAnchor",
        "$vocabulary",
        "title",
        "description",
        "default",
        "examples",
        "readOnly",
        "writeOnly",
        "deprecated",
        "contentMediaType",
        "contentEncoding",
        "contentSchema",
        "then",
        "else",
        "additionalItems",
        "minContains",
        "maxContains",
    }
)
HANDLED = frozenset(
    {
        "type",
        "enum",
        "const",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "items",
        "prefixItems",
        "contains",
        "minItems",
        "maxItems",
        "uniqueItems",
        "unevaluatedItems",
        "properties",
        "required",
        "additionalProperties",
        "patternProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "dependencies",
        "dependentRequired",
        "dependentSchemas",
        "unevaluatedProperties",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "allOf",
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
    }
)


class Unsatisfiable(Exception):
    """No value satisfies this node; the keyword says which constraint ran out of room."""

    def __init__(self, keyword: str, message: str) -> None:
        super().__init__(message)
        self.keyword = keyword
        self.message = message


def json_key(value: Any) -> str:
    """Equality as JSON Schema sees it: 1 == 1.0, True != 1, key order irrelevant."""
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"))


def _plain(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def is_trivial(schema: Any) -> bool:
    return schema is True or schema is None or schema == {}


def all_of(*schemas: Any) -> Any:
    """The conjunction of raw schemas, as small as it can be written."""
    parts: list[Any] = []
    seen: set[str] = set()
    for schema in schemas:
        if schema is False:
            return False
        if is_trivial(schema):
            continue
        inner = schema["allOf"] if isinstance(schema, dict) and list(schema) == ["allOf"] else [schema]
        for part in inner:
            key = json.dumps(part, sort_keys=True)
            if key not in seen:
                seen.add(key)
                parts.append(part)
    if not parts:
        return True
    return parts[0] if len(parts) == 1 else {"allOf": parts}


@dataclass(frozen=True)
class Node:
    """The assertions one schema node makes, merged and in 2020-12 vocabulary."""

    types: frozenset[str] | None = None
    enum: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    exclusive_maximum: float | None = None
    multiple_of: tuple[float, ...] = ()
    min_length: int = 0
    max_length: int | None = None
    patterns: tuple[str, ...] = ()
    formats: tuple[str, ...] = ()
    prefix_items: tuple[Any, ...] = ()
    items: Any = None
    contains: Any = None
    min_contains: int = 1
    max_contains: int | None = None
    min_items: int = 0
    max_items: int | None = None
    unique_items: bool = False
    unevaluated_items: Any = None
    properties: dict[str, Any] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    additional: Any = None
    pattern_properties: dict[str, Any] = field(default_factory=dict)
    property_names: Any = None
    min_properties: int = 0
    max_properties: int | None = None
    dependent_required: dict[str, tuple[str, ...]] = field(default_factory=dict)
    dependent_schemas: dict[str, Any] = field(default_factory=dict)
    unevaluated_properties: Any = None
    any_of: tuple[tuple[Any, ...], ...] = ()
    one_of: tuple[tuple[Any, ...], ...] = ()
    nots: tuple[Any, ...] = ()
    conditionals: tuple[tuple[Any, Any, Any], ...] = ()
    refs: tuple[str, ...] = ()
    inexact: bool = False

    def allows(self, kind: str) -> bool:
        if self.types is None:
            return True
        return kind in self.types or (kind == "integer" and "number" in self.types)

    @property
    def object_keywords(self) -> bool:
        return bool(
            self.properties
            or self.required
            or self.additional is not None
            or self.pattern_properties
            or self.property_names is not None
            or self.min_properties
            or self.max_properties is not None
            or self.dependent_required
            or self.dependent_schemas
            or self.unevaluated_properties is not None
        )

    @property
    def array_keywords(self) -> bool:
        return bool(
            self.prefix_items
            or self.items is not None
            or self.contains is not None
            or self.min_items
            or self.max_items is not None
            or self.unique_items
            or self.unevaluated_items is not None
        )

    @property
    def string_keywords(self) -> bool:
        return bool(self.min_length or self.max_length is not None or self.patterns or self.formats)

    @property
    def number_keywords(self) -> bool:
        return any(
            v is not None for v in (self.minimum, self.maximum, self.exclusive_minimum, self.exclusive_maximum)
        ) or bool(self.multiple_of)

    def schema_for(self, name: str) -> Any:
        """The raw schema a property called `name` must satisfy in this node."""
        if name in self.properties:
            return all_of(self.properties[name], *self._pattern_schemas(name))
        matched = self._pattern_schemas(name)
        if matched:
            return all_of(*matched)
        return True if self.additional is None else self.additional

    def _pattern_schemas(self, name: str) -> list[Any]:
        return [s for p, s in self.pattern_properties.items() if compiled(p).search(name)]

    def without_combinators(self) -> Node:
        return replace(self, any_of=(), one_of=(), nots=(), conditionals=())


class Resolver:
    """Local `$ref`s of one document: JSON pointers, `$anchor`s and the document's own `$id`."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.base = root.get("$id", "").split("#")[0] if isinstance(root, dict) else ""
        self.anchors: dict[str, Any] = {}
        self._scan(root)

    def _scan(self, schema: Any) -> None:
        if isinstance(schema, dict):
            for key in ("$anchor", "$dynamicAnchor"):
                if isinstance(schema.get(key), str):
                    self.anchors.setdefault(schema[key], schema)
            legacy = schema.get("$id") or schema.get("id")
            if isinstance(legacy, str) and legacy.startswith("#") and len(legacy) > 1:
                self.anchors.setdefault(legacy[1:], schema)
            for key, value in schema.items():
                if key not in ("enum", "const", "default", "examples"):
                    self._scan(value)
        elif isinstance(schema, list):
            for item in schema:
                self._scan(item)

    def resolve(self, ref: str) -> tuple[str, Any]:
        """The target of a reference, with a stable key naming it."""
        uri, _, fragment = ref.partition("#")
        if uri and uri != self.base:
            raise SchemaError(
                f"cannot resolve $ref {ref!r}: only references inside the schema are followed", keyword="$ref"
            )
        fragment = unquote(fragment)
        if fragment and not fragment.startswith("/"):
            if fragment in self.anchors:
                return "#" + fragment, self.anchors[fragment]
            raise SchemaError(f"cannot resolve $ref {ref!r}: no anchor {fragment!r}", keyword="$ref")
        target: Any = self.root
        for token in fragment.split("/")[1:]:
            token = token.replace("~1", "/").replace("~0", "~")
            if isinstance(target, dict) and token in target:
                target = target[token]
            elif isinstance(target, list) and token.isdigit() and int(token) < len(target):
                target = target[int(token)]
            else:
                raise SchemaError(f"cannot resolve $ref {ref!r}: nothing at {fragment!r}", keyword="$ref")
        return "#" + fragment, target


def normalise(schema: Any, resolver: Resolver, dialect: Dialect, seen: tuple[str, ...] = ()) -> Node:
    """The merged node of a raw schema; raises Unsatisfiable when it is plainly empty."""
    if schema is True:
        return Node()
    if schema is False:
        raise Unsatisfiable("false", "the schema is `false`")
    if not isinstance(schema, dict):
        raise SchemaError(f"a schema is an object or a boolean, not {schema!r}", keyword="type")
    keywords = dialect.keywords
    ref = next(
        (
            schema[k]
            for k in ("$ref", "$dynamicRef", "$recursiveRef")
            if k in keywords and isinstance(schema.get(k), str)
        ),
        None,
    )
    parts: list[Node] = []
    if ref is not None:
        key, target = resolver.resolve(ref)
        if key in seen:
            raise SchemaError(f"$ref {ref!r} refers to itself without any keyword in between", keyword="$ref")
        target_node = normalise(target, resolver, dialect, (*seen, key))
        target_node = replace(target_node, refs=(key, *target_node.refs))
        if dialect.legacy_ref:
            return target_node
        parts.append(target_node)
    parts.insert(0, _own(schema, dialect))
    for key in ("allOf", "anyOf", "oneOf"):
        subs = schema.get(key)
        if key in keywords and isinstance(subs, list) and (key == "allOf" or len(subs) == 1):
            parts.extend(normalise(sub, resolver, dialect, seen) for sub in subs)
    merged = reduce(merge, parts)
    if len(parts) > 1 and any(
        p.unevaluated_properties is not None or p.unevaluated_items is not None for p in parts[1:]
    ):
        # A nested unevaluated* sees only its own subschema's annotations: approximate, then filter.
        merged = replace(merged, inexact=True)
    return merged


def _number(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _own(schema: dict[str, Any], dialect: Dialect) -> Node:
    """The node for a schema's own keywords, without `$ref` and `allOf`."""
    kw = dialect.keywords
    s = {k: v for k, v in schema.items() if k in kw}
    values: dict[str, Any] = {}
    inexact = any(k not in HANDLED for k in s)
    t = s.get("type")
    if isinstance(t, str):
        values["types"] = frozenset([t])
    elif isinstance(t, list):
        inexact = inexact or not all(isinstance(x, str) for x in t)
        values["types"] = frozenset(x for x in t if isinstance(x, str))
    if isinstance(s.get("enum"), list):
        values["enum"] = tuple(s["enum"])
    if "const" in s:
        values["enum"] = _meet_enum(values.get("enum"), (s["const"],))
    _own_numbers(schema, s, dialect, values)
    if isinstance(s.get("minLength"), int):
        values["min_length"] = s["minLength"]
    if isinstance(s.get("maxLength"), int):
        values["max_length"] = s["maxLength"]
    if isinstance(s.get("pattern"), str):
        values["patterns"] = (s["pattern"],)
    if isinstance(s.get("format"), str):
        values["formats"] = (s["format"],)
    _own_arrays(schema, s, dialect, values)
    _own_objects(s, values)
    for key, target in (("anyOf", "any_of"), ("oneOf", "one_of")):
        if isinstance(s.get(key), list) and len(s[key]) != 1:  # one branch is folded in like allOf
            values[target] = (tuple(s[key]),)
    if "not" in s:
        values["nots"] = (s["not"],)
    if "if" in s and ("then" in schema or "else" in schema):
        values["conditionals"] = ((s["if"], schema.get("then", True), schema.get("else", True)),)
    return Node(inexact=inexact, **values)


def _own_numbers(schema: dict[str, Any], s: dict[str, Any], dialect: Dialect, values: dict[str, Any]) -> None:
    lo, hi = _number(s.get("minimum")), _number(s.get("maximum"))
    if dialect.boolean_exclusive:
        if schema.get("exclusiveMinimum") is True and lo is not None:
            values["exclusive_minimum"], lo = lo, None
        if schema.get("exclusiveMaximum") is True and hi is not None:
            values["exclusive_maximum"], hi = hi, None
    else:
        for key, target in (
            ("exclusiveMinimum", "exclusive_minimum"),
            ("exclusiveMaximum", "exclusive_maximum"),
        ):
            if _number(s.get(key)) is not None:
                values[target] = s[key]
    if lo is not None:
        values["minimum"] = lo
    if hi is not None:
        values["maximum"] = hi
    m = _number(s.get("multipleOf"))
    if m is not None and m > 0:
        values["multiple_of"] = (m,)


def _own_arrays(schema: dict[str, Any], s: dict[str, Any], dialect: Dialect, values: dict[str, Any]) -> None:
    items = s.get("items")
    if isinstance(items, list):
        values["prefix_items"] = tuple(items)
        values["items"] = schema.get("additionalItems", True) if "additionalItems" in dialect.keywords else True
    elif "items" in s:
        values["items"] = items
    if isinstance(s.get("prefixItems"), list):
        values["prefix_items"] = tuple(s["prefixItems"])
    if "contains" in s:
        values["contains"] = s["contains"]
        if not dialect.legacy_ref:
            if isinstance(schema.get("minContains"), int):
                values["min_contains"] = schema["minContains"]
            if isinstance(schema.get("maxContains"), int):
                values["max_contains"] = schema["maxContains"]
    for key, target in (("minItems", "min_items"), ("maxItems", "max_items")):
        if isinstance(s.get(key), int):
            values[target] = s[key]
    values["unique_items"] = s.get("uniqueItems") is True
    if "unevaluatedItems" in s:
        values["unevaluated_items"] = s["unevaluatedItems"]


def _own_objects(s: dict[str, Any], values: dict[str, Any]) -> None:
    if isinstance(s.get("properties"), dict):
        values["properties"] = dict(s["properties"])
    if isinstance(s.get("required"), list):
        values["required"] = tuple(dict.fromkeys(r for r in s["required"] if isinstance(r, str)))
    if "additionalProperties" in s:
        values["additional"] = s["additionalProperties"]
    if isinstance(s.get("patternProperties"), dict):
        values["pattern_properties"] = dict(s["patternProperties"])
    if "propertyNames" in s:
        values["property_names"] = s["propertyNames"]
    for key, target in (("minProperties", "min_properties"), ("maxProperties", "max_properties")):
        if isinstance(s.get(key), int):
            values[target] = s[key]
    required: dict[str, tuple[str, ...]] = {}
    schemas: dict[str, Any] = {}
    for key in ("dependencies", "dependentRequired", "dependentSchemas"):
        for name, dep in (s.get(key) or {}).items():
            if isinstance(dep, list):
                required[name] = tuple(dict.fromkeys([*required.get(name, ()), *dep]))
            else:
                schemas[name] = all_of(schemas.get(name, True), dep)
    if required:
        values["dependent_required"] = required
    if schemas:
        values["dependent_schemas"] = schemas
    if "unevaluatedProperties" in s:
        values["unevaluated_properties"] = s["unevaluatedProperties"]


def _expand(types: frozenset[str] | None) -> frozenset[str] | None:
    return types | {"integer"} if types is not None and "number" in types else types


def _meet_enum(a: Iterable[Any] | None, b: Iterable[Any] | None) -> tuple[Any, ...] | None:
    if a is None:
        return tuple(b) if b is not None else None
    if b is None:
        return tuple(a)
    keys = {json_key(v) for v in b}
    return tuple(v for v in a if json_key(v) in keys)


def _high(x: float | None, y: float | None) -> float | None:
    return y if x is None else x if y is None else max(x, y)


def _low(x: float | None, y: float | None) -> float | None:
    return y if x is None else x if y is None else min(x, y)


def merge(a: Node, b: Node) -> Node:
    """The node both `a` and `b` assert; flags `inexact` where the result is only approximate."""
    ta, tb = _expand(a.types), _expand(b.types)
    types = ta if tb is None else tb if ta is None else ta & tb
    inexact = a.inexact or b.inexact
    contains, min_c, max_c = a.contains, a.min_contains, a.max_contains
    if b.contains is not None:
        inexact = inexact or a.contains is not None
        if a.contains is None:
            contains, min_c, max_c = b.contains, b.min_contains, b.max_contains
    objects = _merge_objects(a, b) if a.object_keywords and b.object_keywords else None
    if objects is None:
        donor = a if a.object_keywords else b
        objects = {f: getattr(donor, f) for f in _OBJECT_FIELDS}
    crossed = objects.pop("inexact", False)
    inexact = inexact or crossed
    return Node(
        types=types,
        enum=_meet_enum(a.enum, b.enum),
        minimum=_high(a.minimum, b.minimum),
        maximum=_low(a.maximum, b.maximum),
        exclusive_minimum=_high(a.exclusive_minimum, b.exclusive_minimum),
        exclusive_maximum=_low(a.exclusive_maximum, b.exclusive_maximum),
        multiple_of=a.multiple_of + b.multiple_of,
        min_length=max(a.min_length, b.min_length),
        max_length=_low(a.max_length, b.max_length),  # type: ignore[arg-type]
        patterns=a.patterns + tuple(p for p in b.patterns if p not in a.patterns),
        formats=a.formats + tuple(f for f in b.formats if f not in a.formats),
        prefix_items=tuple(
            all_of(_item_at(a, i), _item_at(b, i)) for i in range(max(len(a.prefix_items), len(b.prefix_items)))
        ),
        items=None if a.items is None and b.items is None else all_of(a.items, b.items),
        contains=contains,
        min_contains=min_c,
        max_contains=max_c,
        min_items=max(a.min_items, b.min_items),
        max_items=_low(a.max_items, b.max_items),  # type: ignore[arg-type]
        unique_items=a.unique_items or b.unique_items,
        unevaluated_items=_both(a.unevaluated_items, b.unevaluated_items),
        any_of=a.any_of + b.any_of,
        one_of=a.one_of + b.one_of,
        nots=a.nots + b.nots,
        conditionals=a.conditionals + b.conditionals,
        refs=a.refs + tuple(r for r in b.refs if r not in a.refs),
        inexact=inexact or (a.unevaluated_items is not None and b.unevaluated_items is not None),
        **objects,
    )


_OBJECT_FIELDS = (
    "properties",
    "required",
    "additional",
    "pattern_properties",
    "property_names",
    "min_properties",
    "max_properties",
    "dependent_required",
    "dependent_schemas",
    "unevaluated_properties",
)


def _both(x: Any, y: Any) -> Any:
    return None if x is None and y is None else all_of(x, y)


def _item_at(node: Node, i: int) -> Any:
    if i < len(node.prefix_items):
        return node.prefix_items[i]
    return True if node.items is None else node.items


def _merge_objects(a: Node, b: Node) -> dict[str, Any]:
    names = list(a.properties) + [n for n in b.properties if n not in a.properties]
    patterns = dict(a.pattern_properties)
    for p, s in b.pattern_properties.items():
        patterns[p] = all_of(patterns[p], s) if p in patterns else s
    crossed = any(
        x.pattern_properties and (y.additional is not None or set(y.pattern_properties) != set(x.pattern_properties))
        for x, y in ((a, b), (b, a))
    )
    dep_required = dict(a.dependent_required)
    for k, v in b.dependent_required.items():
        dep_required[k] = tuple(dict.fromkeys([*dep_required.get(k, ()), *v]))
    dep_schemas = dict(a.dependent_schemas)
    for k, v in b.dependent_schemas.items():
        dep_schemas[k] = all_of(dep_schemas.get(k, True), v)
    return {
        "properties": {n: all_of(a.schema_for(n), b.schema_for(n)) for n in names},
        "required": a.required + tuple(r for r in b.required if r not in a.required),
        "additional": _both(a.additional, b.additional),
        "pattern_properties": patterns,
        "property_names": _both(a.property_names, b.property_names),
        "min_properties": max(a.min_properties, b.min_properties),
        "max_properties": _low(a.max_properties, b.max_properties),
        "dependent_required": dep_required,
        "dependent_schemas": dep_schemas,
        "unevaluated_properties": _both(a.unevaluated_properties, b.unevaluated_properties),
        "inexact": crossed or (a.unevaluated_properties is not None and b.unevaluated_properties is not None),
    }
