"""Which string fields of a write take free text, so a probe's marker may ride on them.

A marker with generated characters after it belongs in prose (a note's body, a title, a
comment). Put into a field that holds a one-letter priority, a status, an id, a path, a query or
code, it makes the server refuse every write, and a probe learns nothing. Such a field is told
by its name, its description and a short maxLength: an optional one is left out of probe writes,
a required one gets a bare marker if it names or locates a record (an id, a path) and an ordinary
schema value if it holds code or one of a few words.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis_mcp.vocabulary import constrained, locating

__all__ = ["DESCRIBED", "describe", "free_text", "locating"]

SHORT = 11
"""A maxLength under this cannot hold a marker and its dash: a code or a word, not prose."""
DESCRIBED = re.compile(
    r"\b(one of|must be (a|an|one)\b|(one|single|a) (capital |upper-?case |lower-?case )?(letter|character|word)|"
    r"capital letter|upper-?case letter|lower-?case letter|allowed values|valid values|sql|json|yaml|toml|"
    r"frontmatter|"
    r"regex|regular expression|cron|iso ?8601|yyyy|query to|statement)\b|\([A-Za-z]-[A-Za-z]\)",
    re.IGNORECASE)
"""A description that constrains the value (`Priority (A-Z)`, `one of: open, done`, `SQL query`)."""


def free_text(name: str, schema: Any, max_length: int | None = None) -> bool:
    """A string field that takes prose, judged from its name, description and maxLength."""
    if max_length is None and isinstance(schema, dict) and isinstance(schema.get("maxLength"), int):
        max_length = schema["maxLength"]
    if max_length is not None and max_length < SHORT:
        return False
    if locating(name) or constrained(name):
        return False
    return not DESCRIBED.search(describe(schema))


def describe(schema: Any) -> str:
    """The description and title of a field, including those of its anyOf/oneOf branches."""
    if not isinstance(schema, dict):
        return ""
    texts = [str(schema.get(k, "")) for k in ("description", "title")]
    for key in ("anyOf", "oneOf", "allOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            texts.extend(describe(b) for b in branches)
    return " ".join(t for t in texts if t)
