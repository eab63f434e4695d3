"""`--arg [TOOL:]NAME=VALUE` and `--args-file`: known-good values that replace generated ones.

Sandboxed servers (a filesystem server's allowed roots, a git server's repository) reject most
generated values; the user names values they accept. Precedence, lowest first: the file's "*",
the file's tool entry, `--arg NAME=...`, `--arg TOOL:NAME=...`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.errors import HypothesisMCPError, UsageError
from hypothesis_mcp.files import read_document
from hypothesis_mcp.strategies.normalise import Unsatisfiable
from hypothesis_mcp.strategies.schemas import compiler_for, tool_schema

ALL_TOOLS = "*"

# value, and the text it was written as on the command line (None when it came from a file)
Entry = tuple[Any, str | None]
Layer = Mapping[str, Mapping[str, Entry]]


def parse_value(text: str) -> Any:
    """JSON when the text parses as JSON (5, true, ["a"]), else the text itself."""

    def no_constants(name: str) -> Any:
        raise ValueError(name)

    try:
        return json.loads(text, parse_constant=no_constants)
    except ValueError:
        return text


def _parse_arg(arg: str) -> tuple[str, str, Entry]:
    left, sep, text = arg.partition("=")
    tool, colon, name = left.rpartition(":")
    if not sep or not name.strip() or (colon and not tool.strip()):
        raise UsageError(f"--arg {arg!r}: expected NAME=VALUE or TOOL:NAME=VALUE")
    return (tool.strip() if colon else ALL_TOOLS), name.strip(), (parse_value(text), text)


def _layer_from_mapping(data: Any, source: str) -> dict[str, dict[str, Entry]]:
    if data is None:
        return {}
    shape = 'an object like {"*": {NAME: VALUE}, "TOOL": {NAME: VALUE}}'
    if not isinstance(data, Mapping):
        raise UsageError(f"{source}: expected {shape}, got {type(data).__name__}")
    layer: dict[str, dict[str, Entry]] = {}
    for scope, values in data.items():
        if not isinstance(scope, str) or not isinstance(values, Mapping):
            raise UsageError(f"{source}: entry {scope!r} must map parameter names to values ({shape})")
        if not all(isinstance(name, str) for name in values):
            raise UsageError(f"{source}: entry {scope!r} has a parameter name that is not text")
        layer[scope] = {name: (value, None) for name, value in values.items()}
    return layer


@dataclass(frozen=True)
class Overrides:
    """Layers of user-given argument values, lowest precedence first."""

    layers: tuple[Layer, ...] = ()
    sources: tuple[str, ...] = ()
    """Where each layer came from (`--arg`, the args file's path), for messages about its names."""

    @classmethod
    def parse(cls, args: Iterable[str] = (), args_file: str | Path | None = None) -> Overrides:
        """From `--arg` strings and an optional YAML or JSON args file; `--arg` wins over the file."""
        layers: list[Layer] = []
        sources: list[str] = []
        if args_file is not None:
            source = f"args file {str(args_file)!r}"
            layers.append(_layer_from_mapping(read_document(Path(args_file), "args file"), source))
            sources.append(f"--args-file {args_file}")
        generic: dict[str, Entry] = {}
        specific: dict[str, dict[str, Entry]] = {}
        for arg in args:
            scope, name, entry = _parse_arg(arg)
            if scope == ALL_TOOLS:
                generic[name] = entry
            else:
                specific.setdefault(scope, {})[name] = entry
        if generic:
            layers.append({ALL_TOOLS: generic})
            sources.append("--arg")
        if specific:
            layers.append(specific)
            sources.append("--arg")
        return cls(tuple(layers), tuple(sources))

    @classmethod
    def from_mapping(cls, data: Any, source: str = "arguments") -> Overrides:
        """From an already-loaded `{"*": {...}, "TOOL": {...}}` mapping (a probe config's `args`)."""
        return cls((_layer_from_mapping(data, source),), (source,))

    def __or__(self, other: Overrides) -> Overrides:
        """Both, `other` winning where they disagree."""
        return Overrides(self.layers + other.layers, self.sources + other.sources)

    def names(self) -> Iterator[tuple[str, str, str]]:
        """(source, tool scope or "*", parameter name) of every value given."""
        for index, layer in enumerate(self.layers):
            source = self.sources[index] if index < len(self.sources) else "arguments"
            for scope, values in layer.items():
                for name in values:
                    yield source, scope, name

    def __bool__(self) -> bool:
        return any(values for layer in self.layers for values in layer.values())

    def for_tool(self, tool: Tool) -> dict[str, Any]:
        """The values for the parameters this tool declares, numbers turned to text for string ones."""
        declared = tool.properties
        found: dict[str, Entry] = {}
        for layer in self.layers:
            for scope in (ALL_TOOLS, tool.name):
                for name, entry in layer.get(scope, {}).items():
                    if name in declared:
                        found[name] = entry
        return {name: _coerce(tool, name, value, text) for name, (value, text) in found.items()}


def _coerce(tool: Tool, name: str, value: Any, text: str | None) -> Any:
    """A number for a parameter that takes text but no numbers is sent as the text it was written as."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    accepts = _accepted_types(tool, name)
    if accepts is not None and "string" in accepts and not accepts & {"number", "integer"}:
        return text if text is not None else json.dumps(value)
    return value


def _accepted_types(tool: Tool, name: str) -> set[str] | None:
    """The JSON types a parameter accepts, looking through $ref and anyOf/oneOf (None: any)."""
    try:
        compiler = compiler_for(tool_schema(tool))
        node = compiler.normalise(compiler.normalise(compiler.root).schema_for(name))
        types = None if node.types is None else set(node.types)
        for group in node.any_of + node.one_of:
            branch_types: set[str] = set()
            for branch in group:
                try:
                    branch_node = compiler.normalise(branch)
                except Unsatisfiable:
                    continue
                if branch_node.types is None:
                    break
                branch_types |= branch_node.types
            else:
                types = branch_types if types is None else types & branch_types
    except (HypothesisMCPError, Unsatisfiable):
        return None
    return types
