"""Errors the strategies raise on top of the project's SchemaError."""

from __future__ import annotations

from hypothesis_mcp.errors import SchemaError


class NoInvalidValues(SchemaError):
    """The schema accepts every value (`{}`, `true`, ...): there is nothing invalid to draw."""


__all__ = ["NoInvalidValues", "SchemaError"]
