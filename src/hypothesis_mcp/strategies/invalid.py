"""Strategies of invalid values, each checked by the oracle when drawn and labelled by keyword."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from hypothesis import strategies as st
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator

from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.strategies.dialect import canonical
from hypothesis_mcp.strategies.errors import NoInvalidValues
from hypothesis_mcp.strategies.mutations import Candidate, Mutator, Path
from hypothesis_mcp.strategies.normalise import Unsatisfiable
from hypothesis_mcp.strategies.schemas import compiler_for, from_schema

# Keywords whose own failures are reported by the subschema keyword that failed, deeper in the value.
APPLICATORS = frozenset({"then", "else", "dependentSchemas"})


@dataclass(frozen=True)
class Invalid:
    """A value the schema rejects, the keyword it violates, where, and why in words."""

    value: Any
    keyword: str
    path: Path
    description: str

    @property
    def pointer(self) -> str:
        """The JSON pointer of `path` ("" for the whole value)."""
        return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in self.path)


def _matches(errors: Iterable[ValidationError], keyword: str, path: Path) -> bool:
    """Whether the oracle reports `keyword` at `path` (as the failing keyword or one it went through)."""
    for error in errors:
        named = (error.validator or "false") == keyword or keyword in error.relative_schema_path
        at = tuple(error.absolute_path)
        if named and (at == path or (keyword in APPLICATORS and at[: len(path)] == path)):
            return True
        if error.context and _matches(error.context, keyword, path):
            return True
    return False


def labelled(oracle: Validator, candidate: Candidate) -> Invalid | None:
    """The candidate as an Invalid, or None if it validates after all.

    The label stays the mutation's own when the oracle reports that keyword at that path;
    otherwise the oracle's best error names it (e.g. draft-07 says `dependencies`).
    """
    value, keyword, path, description = candidate
    errors = list(oracle.iter_errors(value))
    if not errors:
        return None
    if _matches(errors, keyword, path):
        return Invalid(value, keyword, path, description)
    best = best_match(errors)
    assert best is not None
    return Invalid(value, str(best.validator or "false"), tuple(best.absolute_path), best.message)


def invalid_strategy(
    schema: Any, *, objects_only: bool, base: st.SearchStrategy[Any] | None = None, tool: str | None = None
) -> st.SearchStrategy[Invalid]:
    """Every mutation of the schema, each keyword weighing the same, confirmed invalid when drawn."""
    from_schema(schema)  # a schema no value satisfies is a bad schema, for invalid values too
    compiler = compiler_for(schema)
    try:
        found = Mutator(compiler).mutations(compiler.root, objects_only=objects_only, base=base)
    except Unsatisfiable as exc:
        raise SchemaError(exc.message, tool=tool, keyword=exc.keyword) from None
    if not found:
        raise NoInvalidValues(
            "every value satisfies this schema, so there is no invalid value to draw", tool=tool, keyword=None
        )
    by_keyword: dict[str, list[st.SearchStrategy[Candidate]]] = {}
    for m in found:
        by_keyword.setdefault(m.keyword, []).append(m.combined())
    oracle = compiler.oracle
    kinds = [st.one_of(group) for group in by_keyword.values()]
    labelled_values = st.one_of(kinds).map(lambda c: labelled(oracle, c)).filter(lambda i: i is not None)
    return cast(st.SearchStrategy[Invalid], labelled_values)


@lru_cache(maxsize=512)
def _invalid(text: str, objects_only: bool) -> st.SearchStrategy[Invalid]:
    return invalid_strategy(json.loads(text), objects_only=objects_only)


def invalid_from_schema(schema: Any, *, objects_only: bool = False) -> st.SearchStrategy[Invalid]:
    """Values `schema` rejects, as `Invalid` records; each draw is confirmed by the validator.

    `objects_only=True` keeps every value an object (faults go inside it), as tools/call needs.
    Raises NoInvalidValues when the schema accepts everything.
    """
    return _invalid(canonical(schema), objects_only)


def has_invalid_values(schema: Any, *, objects_only: bool = False) -> bool:
    """Whether `invalid_from_schema` has anything to draw for this schema."""
    try:
        invalid_from_schema(schema, objects_only=objects_only)
    except NoInvalidValues:
        return False
    return True
