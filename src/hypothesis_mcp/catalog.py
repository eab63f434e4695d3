"""The server's tools as listed, and what their names say of their roles.

The words are read by the vocabulary (one place, verbs by their position); annotations override
the name. Whatever reads the input schema (key fields, bounds, identity candidates) is the tool
profile's (model.profile), which reads the normalised schema, so `$ref` and `allOf` are followed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from hypothesis_mcp.vocabulary import RoleReading, snake, words

__all__ = ["DESTRUCTIVE", "OTHER", "READ", "WRITE", "Bound", "Tool", "load_catalog", "placed", "snake", "words"]

READ, WRITE, DESTRUCTIVE, OTHER = "read", "write", "destructive", "other"


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
    place: int = 0
    """Its index in the server's listing: what seeds its draws beside its schema, never its name."""

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

    @cached_property
    def reading(self) -> RoleReading:
        """What the name, description and annotations say of the tool's role."""
        return RoleReading.of(self.name, self.description, self.annotations)

    @property
    def is_read(self) -> bool:
        """Read-only: annotated so, or a read verb in a verb's place of the name (`kv_get`,
        `get_latest_update`), or a name without a verb whose description says it reads."""
        return self.reading.reads

    @property
    def is_sending(self) -> bool:
        """Deletes, sends, publishes or deploys: never called unless the user names it."""
        return self.reading.sends

    @property
    def is_destructive(self) -> bool:
        """Never called unless the user names it: sending verbs, or destructiveHint: true."""
        return self.reading.destroys

    @property
    def is_write(self) -> bool:
        """A storing tool that round-trip probes may call with --allow-writes."""
        return self.reading.writes

    @property
    def role(self) -> str:
        if self.is_read:
            return READ
        if self.is_write:
            return WRITE
        if self.is_destructive:
            return DESTRUCTIVE
        return OTHER

    @property
    def properties(self) -> dict[str, Any]:
        props = self.input_schema.get("properties")
        return props if isinstance(props, dict) else {}

    @property
    def required(self) -> list[str]:
        req = self.input_schema.get("required")
        return [r for r in req if isinstance(r, str)] if isinstance(req, list) else []


def load_catalog(data: Any) -> list[Tool]:
    """Tools from a `tools --json` file: a list of tools or an object with a `tools` list."""
    tools = data.get("tools") if isinstance(data, Mapping) else data
    if not isinstance(tools, list):
        raise ValueError("a catalog is a list of tools or an object with a 'tools' list")
    return placed([Tool.from_dict(t) for t in tools if isinstance(t, Mapping)])


def placed(tools: list[Tool]) -> list[Tool]:
    """The tools, each told its place in the listing."""
    for place, tool in enumerate(tools):
        tool.place = place
    return tools
