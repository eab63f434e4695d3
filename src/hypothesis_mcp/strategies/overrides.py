"""`--arg [TOOL:]NAME=VALUE` and `--args-file`: known-good values that replace generated ones.

Sandboxed servers (a filesystem server's allowed roots, a git server's repository) reject most
generated values; the user names values they accept. Precedence, lowest first: the file's "*",
the file's tool entry, `--arg NAME=...`, `--arg TOOL:NAME=...`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import referencing.exceptions
from jsonschema.exceptions import best_match

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.errors import HypothesisMCPError, UsageError
from hypothesis_mcp.files import read_document
from hypothesis_mcp.strategies.dialect import value_validator
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
        return {name: _coerce(tool, name, value, text) for name, (value, text, _) in self._winning(tool).items()}

    def origins(self, tool: Tool) -> dict[str, str]:
        """Where each of this tool's values was given, as the user wrote it (`--arg limit=999`,
        `--args-file args.yaml: search.limit`)."""
        return {name: where for name, (_, _, where) in self._winning(tool).items()}

    def _winning(self, tool: Tool) -> dict[str, tuple[Any, str | None, str]]:
        declared = tool.properties
        found: dict[str, tuple[Any, str | None, str]] = {}
        for index, layer in enumerate(self.layers):
            source = self.sources[index] if index < len(self.sources) else "arguments"
            for scope in (ALL_TOOLS, tool.name):
                for name, (value, text) in layer.get(scope, {}).items():
                    if name in declared:
                        prefix = "" if scope == ALL_TOOLS else f"{scope}:"
                        where = f"--arg {prefix}{name}={text}" if text is not None else f"{source}: {scope}.{name}"
                        found[name] = (value, text, where)
        return found


@dataclass(frozen=True)
class Breach:
    """A given value the tool's inputSchema forbids: where (the parameter, or a path inside it),
    the keyword it breaks and what that keyword allows."""

    name: str
    where: str
    keyword: str
    allowed: str


def breaches(tool: Tool, values: Mapping[str, Any]) -> list[Breach]:
    """The given values the tool's inputSchema forbids, judged by the run's one validator; what
    only the whole call can break (a required parameter left to generation) is not theirs."""
    errors: dict[str, list[Any]] = {}
    if not values:
        return []
    try:
        for error in value_validator(tool.input_schema or {"type": "object"}).iter_errors(dict(values)):
            path = list(error.absolute_path)
            if path and path[0] in values:
                errors.setdefault(str(path[0]), []).append(error)
    except (re.error, HypothesisMCPError, jsonschema.exceptions.SchemaError, jsonschema.exceptions.UnknownType,
            referencing.exceptions.Unresolvable):
        return []  # a schema the oracle cannot apply judges no value; lint reports it
    found = []
    for name, group in errors.items():
        error = best_match(group)
        assert error is not None
        where = "/".join(str(p) for p in error.absolute_path)
        found.append(Breach(name, where, str(error.validator), _allowed(str(error.validator), error.validator_value,
                                                                      error.message)))
    return found


_BOUNDS = {"maximum": "<=", "exclusiveMaximum": "<", "minimum": ">=", "exclusiveMinimum": ">"}
_SIZES = {"maxLength": ("at most", "characters"), "minLength": ("at least", "characters"),
          "maxItems": ("at most", "items"), "minItems": ("at least", "items"),
          "maxProperties": ("at most", "properties"), "minProperties": ("at least", "properties")}


def _allowed(keyword: str, value: Any, message: str) -> str:
    """What the keyword allows, in words ('must be <= 100'); the validator's own message else."""
    if keyword in _BOUNDS and isinstance(value, int | float) and not isinstance(value, bool):
        return f"must be {_BOUNDS[keyword]} {value}"
    if keyword in _SIZES and isinstance(value, int):
        most, unit = _SIZES[keyword]
        return f"must have {most} {value} {unit}"
    if keyword == "enum" and isinstance(value, list):
        return f"must be one of {', '.join(json.dumps(v) for v in value)}"
    if keyword == "const":
        return f"must be {json.dumps(value)}"
    if keyword == "type":
        return f"must be of type {value if isinstance(value, str) else ' or '.join(map(str, value))}"
    if keyword == "pattern":
        return f"must match the pattern {value}"
    return message


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
