"""The one JSON Schema validator factory: a schema's dialect, its metaschema check, and the
compiled validator that judges values (generated arguments, a server's structuredContent).

Strategies, lint and the output checks all ask here, so they agree on which schemas are usable.
The validator is the oracle of docs/architecture.md ("Own schema compiler"): `jsonschema` with the
dialect's own format checker. Patterns are read the way ECMA-262 reads them, through `ecma.py` (the
one place pattern handling plugs in): the validator's `pattern` keyword runs the translation and
quotes the pattern as written, and the metaschema's "regex" format accepts every pattern that
reading can use, so patterns only ECMA-262 understands (`\\p{Lu}`) are judged rather than refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import jsonschema
import referencing.exceptions
from jsonschema.exceptions import SchemaError as MetaSchemaError
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for

from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.strategies.ecma import ecma_class, format_checker, pythonize

DEFAULT = jsonschema.Draft202012Validator


@dataclass(frozen=True)
class Dialect:
    """The validator class of a schema and the keywords it gives meaning to."""

    cls: type[Validator]

    @cached_property
    def keywords(self) -> frozenset[str]:
        return frozenset(self.cls.VALIDATORS)

    @property
    def legacy_ref(self) -> bool:
        """Up to draft-07 a `$ref` replaces its sibling keywords instead of joining them."""
        return "$dynamicRef" not in self.cls.VALIDATORS and "$recursiveRef" not in self.cls.VALIDATORS

    @property
    def boolean_exclusive(self) -> bool:
        """Draft-04 and earlier spell exclusive bounds as booleans next to minimum/maximum."""
        return "exclusiveMinimum" not in self.cls.VALIDATORS

    @property
    def name(self) -> str:
        return self.cls.__name__.removesuffix("Validator")


def dialect_of(schema: Any) -> Dialect:
    """The dialect `$schema` names; 2020-12 when it names none (MCP's default)."""
    if isinstance(schema, dict):
        return Dialect(validator_for(schema, default=DEFAULT))
    return Dialect(DEFAULT)


def canonical(schema: Any) -> str:
    """A stable text of the schema, the key every cache uses."""
    try:
        return json.dumps(schema, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise SchemaError(f"the schema is not JSON: {exc}") from exc


def check_schema(schema: Any, dialect: Dialect) -> None:
    """Reject a schema its dialect's metaschema rejects, naming the keyword at fault."""
    if isinstance(schema, bool):
        return
    if not isinstance(schema, dict):
        raise SchemaError(f"a schema is an object or a boolean, not {type(schema).__name__}", keyword="type")
    try:
        dialect.cls.check_schema(schema, format_checker=None)  # type: ignore[call-arg]  # missing from the stubs
    except MetaSchemaError as exc:
        keyword = next((p for p in reversed(exc.path) if isinstance(p, str)), exc.validator)
        where = "/".join(str(p) for p in exc.path)
        raise SchemaError(f"invalid {dialect.name} schema at '/{where}': {exc.message}", keyword=str(keyword)) from exc


@lru_cache(maxsize=1024)
def _validator(text: str) -> Validator:
    schema = json.loads(text)
    cls = ecma_class(dialect_of(schema).cls)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def validator(schema: Any) -> Validator:
    """The compiled oracle for a schema (already `pythonize`d), built once per schema."""
    return _validator(canonical(schema))


def _metaschema(cls: type[Validator]) -> Validator:
    meta = validator_for(cls.META_SCHEMA, default=cls)
    return meta(cls.META_SCHEMA, format_checker=format_checker(meta.FORMAT_CHECKER))


def metaschema_errors(schema: Any, cls: type[Validator]) -> list[ValidationError]:
    """Where `schema` breaks the metaschema of `cls`, formats included, in document order."""
    return sorted(_metaschema(cls).iter_errors(schema), key=lambda e: list(e.absolute_path))


def schema_problem(schema: Any) -> str | None:
    """Why values cannot be judged against `schema` (its metaschema rejects it), or None."""
    error = next(_metaschema(dialect_of(schema).cls).iter_errors(schema), None)
    return None if error is None else str(error.message)


def value_validator(schema: Any) -> Validator:
    """The compiled oracle for a schema as the server declared it."""
    return validator(pythonize(schema))


def admits(schema: Any, value: Any) -> bool:
    """Whether the schema the server declared admits `value`; one that cannot be read or resolved
    admits everything, and the server decides."""
    try:
        return bool(value_validator(schema).is_valid(value))
    except (jsonschema.exceptions.SchemaError, referencing.exceptions.Unresolvable, TypeError, ValueError):
        return True
