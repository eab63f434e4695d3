"""The server's tools and what we infer about each: roles, key fields and bound parameters.

The heuristics follow the effect-probe rules: a verb in the name, overridden by annotations,
decides whether a tool may be called by probes, and field names decide keys and bounds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

READ_VERBS = frozenset(
    {"get", "list", "search", "read", "find", "query", "fetch", "show", "describe", "view",
     "lookup", "open", "browse", "retrieve", "inspect", "count", "stat", "check", "filter"}
)
WRITE_VERBS = frozenset(
    {"create", "add", "update", "write", "set", "save", "put", "insert", "upsert", "append",
     "edit", "modify", "store", "remember", "record", "complete", "close", "replace", "relate", "link",
     "mark"}
)
SENDING_VERBS = frozenset(
    {"delete", "remove", "send", "publish", "deploy", "drop", "destroy", "purge", "erase",
     "truncate", "wipe", "post", "email", "notify", "transfer", "pay", "kill", "terminate"}
)
KEY_WORDS = frozenset(
    {"name", "id", "key", "title", "path", "slug", "uri", "url", "filename", "email", "username"}
)
DESCRIBED_READS = frozenset(
    {"read", "reads", "list", "lists", "search", "searches", "fetch", "fetches", "show", "shows", "get", "gets",
     "return", "returns", "display", "displays", "filter", "filters"}
)
"""The first word of a description that says the tool reads (`Lists the newest notes.`)."""
DESCRIBED_WRITES = frozenset(
    {"keep", "keeps", "store", "stores", "save", "saves", "add", "adds", "create", "creates", "write", "writes",
     "record", "records", "append", "appends", "remember", "remembers"}
)
"""The first word of a description that says a tool without a verb in its name stores (`Keeps a note.`)."""
HEAD_TAIL = ("head", "tail")
LIMIT_NAMES = frozenset(
    {"limit", "max_results", "top_k", "top_n", "max_items", "page_size", "per_page", "n_results",
     "num_results", "first", "last", "max_count"}
)

READ, WRITE, DESTRUCTIVE, OTHER = "read", "write", "destructive", "other"


def words(name: str) -> list[str]:
    """Split snake_case, kebab-case, dotted and camelCase names into lower-case words."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]


def snake(name: str) -> str:
    """`taskId`, `task-id` and `task_id` alike: lower-case words joined by underscores."""
    return "_".join(words(name))


@dataclass(frozen=True)
class Bound:
    """An integer parameter that bounds how much a read returns."""

    param: str
    kind: str  # "head", "tail" or "limit"
    required: bool
    minimum: int | None = None
    maximum: int | None = None


@dataclass
class Tool:
    """One tool of the catalog, with the roles and fields the checks rely on."""

    name: str
    input_schema: dict[str, Any]
    description: str | None = None
    title: str | None = None
    output_schema: dict[str, Any] | None = None
    annotations: dict[str, Any] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tool:
        schema = data.get("inputSchema")
        return cls(
            name=str(data.get("name", "")),
            input_schema=dict(schema) if isinstance(schema, Mapping) else {},
            description=data.get("description"),
            title=data.get("title"),
            output_schema=dict(data["outputSchema"]) if isinstance(data.get("outputSchema"), Mapping) else None,
            annotations=dict(data.get("annotations") or {}),
            raw=dict(data),
        )

    def to_dict(self) -> dict[str, Any]:
        return dict(self.raw) if self.raw else {
            "name": self.name, "inputSchema": self.input_schema,
            **({"description": self.description} if self.description is not None else {}),
            **({"outputSchema": self.output_schema} if self.output_schema is not None else {}),
            **({"annotations": self.annotations} if self.annotations else {}),
        }

    @property
    def words(self) -> list[str]:
        return words(self.name)

    @property
    def read_only_hint(self) -> bool | None:
        value = self.annotations.get("readOnlyHint")
        return value if isinstance(value, bool) else None

    @property
    def destructive_hint(self) -> bool | None:
        value = self.annotations.get("destructiveHint")
        return value if isinstance(value, bool) else None

    @property
    def is_read(self) -> bool:
        """Read-only as a person would judge it: annotated so, or a read verb anywhere in the name
        (`kv_get`, `note_list`), or a description that opens by saying it reads, lists, searches or
        fetches; never when a write or sending verb is in the name or the hints say otherwise."""
        if self.read_only_hint is True:
            return True
        if self.read_only_hint is False or self.destructive_hint is True:
            return False
        verbs = self._verbs()
        if verbs & (WRITE_VERBS | SENDING_VERBS):
            return False
        return bool(verbs & READ_VERBS) or self._described_as_read()

    def _described_as_read(self) -> bool:
        said = words(self.description or "")[:1]
        return bool(said) and said[0] in DESCRIBED_READS

    def _described_as_write(self) -> bool:
        said = words(self.description or "")[:1]
        return bool(said) and said[0] in DESCRIBED_WRITES

    @property
    def is_sending(self) -> bool:
        """Deletes, sends, publishes or deploys: never called unless the user names it."""
        if self.read_only_hint is True:
            return False
        return bool(self._verbs() & SENDING_VERBS) or (
            self.destructive_hint is True and not (self._verbs() & WRITE_VERBS)
        )

    @property
    def is_destructive(self) -> bool:
        """Never called unless the user names it: sending verbs, or destructiveHint: true."""
        return self.is_sending or (self.destructive_hint is True and self.read_only_hint is not True)

    @property
    def is_write(self) -> bool:
        """A storing tool that round-trip probes may call with --allow-writes."""
        if self.read_only_hint is True or self.destructive_hint is True:
            return False
        if self._verbs() & SENDING_VERBS:
            return False
        if self._verbs() & WRITE_VERBS:
            return True
        if self.read_only_hint is None and not self._verbs() & READ_VERBS and self._described_as_write():
            return True
        return self.read_only_hint is False and self.destructive_hint is False

    @property
    def role(self) -> str:
        if self.is_read:
            return READ
        if self.is_write:
            return WRITE
        if self.is_sending or self.destructive_hint is True:
            return DESTRUCTIVE
        return OTHER

    def _verbs(self) -> set[str]:
        return set(self.words)

    @property
    def properties(self) -> dict[str, Any]:
        props = self.input_schema.get("properties")
        return props if isinstance(props, dict) else {}

    @property
    def required(self) -> list[str]:
        req = self.input_schema.get("required")
        return [r for r in req if isinstance(r, str)] if isinstance(req, list) else []

    @property
    def key_fields(self) -> list[str]:
        """Dotted paths of fields whose last word names a key (`entities[].name`, `title`)."""
        return list(_key_paths(self.input_schema, ""))

    @property
    def bounds(self) -> list[Bound]:
        found = []
        for name, schema in self.properties.items():
            if not isinstance(schema, dict) or not _is_count(schema):
                continue
            kind = bound_kind(name)
            if kind is None:
                continue
            lo = schema.get("minimum")
            hi = schema.get("maximum")
            found.append(Bound(
                param=name, kind=kind, required=name in self.required,
                minimum=int(lo) if isinstance(lo, int | float) and not isinstance(lo, bool) else None,
                maximum=int(hi) if isinstance(hi, int | float) and not isinstance(hi, bool) else None,
            ))
        return found


def bound_kind(param: str) -> str | None:
    flat = snake(param)
    if flat in HEAD_TAIL:
        return flat
    if flat in LIMIT_NAMES:
        return "limit"
    return None


def is_key_name(name: str) -> bool:
    parts = words(name)
    return bool(parts) and parts[-1] in KEY_WORDS


def _is_count(schema: Mapping[str, Any]) -> bool:
    """An integer parameter, or a number one (several servers type counts as `number`)."""
    kinds = {"integer", "number"}
    t = schema.get("type")
    if t in kinds or (isinstance(t, list) and kinds & set(t)):
        return True
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and any(isinstance(o, dict) and o.get("type") in kinds for o in options):
            return True
    return False


def _key_paths(schema: Any, prefix: str, depth: int = 0) -> Iterable[str]:
    if not isinstance(schema, dict) or depth > 3:
        return
    props = schema.get("properties")
    if isinstance(props, dict):
        for name, sub in props.items():
            path = f"{prefix}{name}"
            if is_key_name(name) and isinstance(sub, dict) and sub.get("type") in ("string", "integer", None):
                yield path
            elif isinstance(sub, dict) and sub.get("type") == "array":
                yield from _key_paths(sub.get("items"), f"{path}[].", depth + 1)
            elif isinstance(sub, dict) and sub.get("type") == "object":
                yield from _key_paths(sub, f"{path}.", depth + 1)


def load_catalog(data: Any) -> list[Tool]:
    """Tools from a `tools --json` file: a list of tools or an object with a `tools` list."""
    tools = data.get("tools") if isinstance(data, Mapping) else data
    if not isinstance(tools, list):
        raise ValueError("a catalog is a list of tools or an object with a 'tools' list")
    return [Tool.from_dict(t) for t in tools if isinstance(t, Mapping)]
