"""ECMA-262 patterns for any `jsonschema` validator: what a validator plugs in to read them.

Tool schemas write `pattern` and `patternProperties` in ECMA-262 (`\\p{Lu}`, `(?<name>..)`,
`\\u{1F600}`), which Python's `re` rejects or reads differently. A validator reads them after two
changes: its class from `ecma_class` (its `pattern` keyword runs the translation of `regex.py`
and reports the pattern as written; its `format: regex` accepts what ECMA-262 accepts, so checking
a schema does not call such a pattern broken), and the schema through `pythonize`
(`patternProperties` keys rewritten, since `additionalProperties` and `unevaluatedProperties`
run them with `re` too).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from jsonschema import FormatChecker, ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend

from hypothesis_mcp.strategies.regex import compiled, pattern_error, python_pattern

_VALUES = frozenset({"enum", "const", "default", "examples"})


def pythonize(schema: Any) -> Any:
    """The schema with every `patternProperties` key Python cannot compile rewritten from ECMA-262."""
    if isinstance(schema, list):
        return [pythonize(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "patternProperties" and isinstance(value, dict):
            out[key] = {python_pattern(p): pythonize(s) for p, s in value.items()}
        elif key in _VALUES:
            out[key] = value
        else:
            out[key] = pythonize(value)
    return out


def _is_regex(instance: object) -> bool:
    return not isinstance(instance, str) or pattern_error(instance) is None


def format_checker(base: FormatChecker) -> FormatChecker:
    """`base` with its `regex` format reading ECMA-262 (a pattern the translation compiles passes)."""
    checker = FormatChecker(())
    checker.checkers = {**base.checkers, "regex": (_is_regex, ())}
    return checker


def _pattern(validator: Validator, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not compiled(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@cache
def ecma_class(cls: type[Validator]) -> type[Validator]:
    """`cls` reading `pattern` and `format: regex` as ECMA-262 (use with a `pythonize`d schema)."""
    extended: type[Validator] = extend(  # type: ignore[no-untyped-call]  # untyped in jsonschema
        cls, {"pattern": _pattern}, format_checker=format_checker(cls.FORMAT_CHECKER)
    )
    return extended
