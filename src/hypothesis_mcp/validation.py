"""Compiled JSON Schema validators for the values a server sends and receives."""

from __future__ import annotations

import functools
import json
from typing import Any

from jsonschema import exceptions as jsonschema_exceptions
from jsonschema.validators import validator_for


@functools.lru_cache(maxsize=512)
def _validator(schema_json: str) -> Any:
    schema = json.loads(schema_json)
    cls = validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def validator(schema: dict[str, Any]) -> Any:
    """A compiled validator for the schema's own dialect (2020-12 when `$schema` is absent)."""
    return _validator(json.dumps(schema, sort_keys=True))


def schema_problem(schema: dict[str, Any]) -> str | None:
    try:
        validator(schema)
    except jsonschema_exceptions.SchemaError as exc:
        return exc.message
    return None
