"""The tool profile: what we believe of one tool before any call, each belief with its evidence.

Computed once per tool from the normalised input schema (`$ref` followed, `allOf` folded), the
output schema, the annotations, the name read by the vocabulary (the verb by its position) and
the description. Every entry is a guess; calibration (model.calibrate) turns some into facts shown
by calls.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.catalog import Bound, Tool
from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.strategies.dialect import dialect_of
from hypothesis_mcp.strategies.freetext import free_text
from hypothesis_mcp.strategies.normalise import Node, Resolver, Unsatisfiable, normalise
from hypothesis_mcp.vocabulary import (
    READ_ROLES,
    RoleClaim,
    bound_kind,
    is_cursor,
    names_identity,
    server_made_id,
)

SCALARS = frozenset({"string", "integer"})
COUNTS = frozenset({"integer", "number"})
"""Several servers type counts as `number`: either bounds a read."""
NESTING = 3
"""Objects and arrays of objects looked into for key fields, at most this deep."""


@dataclass(frozen=True)
class ToolProfile:
    """Candidate roles (the surest first), identity candidates, free-text fields, bounds, cursor and
    page parameters, and the members of an answer that carry a server-made id."""

    name: str
    roles: tuple[RoleClaim, ...]
    identity: tuple[str, ...]
    key_fields: tuple[str, ...]
    """Dotted paths of fields whose last word names a key (`entities[].name`, `meta.title`)."""
    free_text: tuple[str, ...]
    bounds: tuple[Bound, ...]
    cursors: tuple[str, ...]
    answer_ids: tuple[str, ...]
    required: tuple[str, ...]
    kinds: dict[str, frozenset[str] | None]
    """Each parameter's JSON types as the normalised schema allows them (None: any)."""

    @property
    def role(self) -> str:
        return self.roles[0].role

    @property
    def reads(self) -> bool:
        return self.role in READ_ROLES

    def evidence(self) -> str:
        return self.roles[0].evidence

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "role": self.role,
                "roles": [{"role": c.role, "evidence": c.evidence} for c in self.roles],
                "identity": list(self.identity), "key_fields": list(self.key_fields), "free_text": list(self.free_text),
                "bounds": [{"param": b.param, "kind": b.kind} for b in self.bounds],
                "cursors": list(self.cursors), "answer_ids": list(self.answer_ids)}


_PROFILES: dict[str, ToolProfile] = {}


def profile(tool: Tool) -> ToolProfile:
    """The profile of one tool, computed once per definition."""
    key = json.dumps(tool.to_dict(), sort_keys=True, default=repr)
    if key not in _PROFILES:
        _PROFILES[key] = _profile(tool)
    return _PROFILES[key]


def _profile(tool: Tool) -> ToolProfile:
    root = tool.input_schema
    node = _node(root)
    properties = node.properties if node is not None else tool.properties
    required = tuple(node.required) if node is not None else tuple(tool.required)
    fields = {field: _resolved(root, sub) for field, sub in properties.items()}
    scalars = [f for f, sub in fields.items() if sub is not None and sub.types is not None and sub.types & SCALARS]
    identity = sorted(scalars, key=lambda f: (not names_identity(f), f not in required, list(fields).index(f)))
    identity = [f for f in identity if f in required or names_identity(f)]
    cursors = tuple(f for f in fields if is_cursor(f))
    texts = tuple(f for f, sub in fields.items() if sub is not None and sub.types is not None
                  and "string" in sub.types and not sub.enum and f not in cursors
                  and free_text(f, properties.get(f), sub.max_length))
    out = _node(tool.output_schema) if tool.output_schema else None
    answer_ids = tuple(f for f in (out.properties if out is not None else {}) if server_made_id(f))
    bounds = tuple(b for f, sub in fields.items() if (b := _bound(root, f, sub, f in required)) is not None)
    keys = tuple(_key_paths(root, node, "", 0)) if node is not None else ()
    kinds = {f: sub.types if sub is not None else None for f, sub in fields.items()}
    return ToolProfile(tool.name, tuple(tool.reading.claims), tuple(identity), keys, texts, bounds, cursors,
                       answer_ids, required, kinds)


def _bound(root: Any, name: str, node: Node | None, required: bool) -> Bound | None:
    """An integer (or number) parameter named as a limit, head or tail, with its range; an optional
    one written `anyOf: [{integer}, {null}]` counts by its numeric option."""
    kind = bound_kind(name)
    if kind is None or node is None:
        return None
    numeric = node if node.types is not None and node.types & COUNTS else None
    for options in (*node.any_of, *node.one_of):
        if numeric is None:
            numeric = next((o for o in (_resolved(root, sub) for sub in options)
                            if o is not None and o.types is not None and o.types & COUNTS), None)
    if numeric is None:
        return None
    return Bound(param=name, kind=kind, required=required, minimum=_whole(numeric.minimum),
                 maximum=_whole(numeric.maximum))


def _whole(value: float | None) -> int | None:
    return int(value) if value is not None else None


def _key_paths(root: Any, node: Node, prefix: str, depth: int) -> Iterable[str]:
    """Fields whose last word names a key, looked for in nested objects and arrays of objects."""
    for name, sub in node.properties.items():
        inner = _resolved(root, sub)
        if inner is None:
            continue
        path = f"{prefix}{name}"
        if names_identity(name) and (inner.types is None or inner.types & SCALARS):
            yield path
        elif depth < NESTING and inner.types == frozenset({"array"}) and (items := _resolved(root, inner.items)):
            yield from _key_paths(root, items, f"{path}[].", depth + 1)
        elif depth < NESTING and inner.types == frozenset({"object"}):
            yield from _key_paths(root, inner, f"{path}.", depth + 1)


def _node(schema: Any) -> Node | None:
    if not isinstance(schema, dict):
        return None
    try:
        return normalise(schema, Resolver(schema), dialect_of(schema))
    except (Unsatisfiable, SchemaError):  # a schema the normaliser cannot read: the raw one is used
        return None


def _resolved(root: Any, schema: Any) -> Node | None:
    if schema is None:
        return None
    try:
        return normalise(schema, Resolver(root), dialect_of(root))
    except (Unsatisfiable, SchemaError):
        return None
