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

from hypothesis_mcp.catalog import words

SHORT = 11
"""A maxLength under this cannot hold a marker and its dash: a code or a word, not prose."""
LOCATING = frozenset({"id", "ids", "uuid", "guid", "path", "paths", "file", "filename", "filepath", "dir",
                      "directory", "folder", "url", "uri", "slug", "email", "key", "ref"})
"""Last words of a field that names or locates a record: a bare marker still fits."""
CONSTRAINED = frozenset({"query", "sql", "regex", "pattern", "code", "json", "yaml", "toml", "xml", "cron",
                         "expression", "expr", "command", "cmd", "script", "priority", "status", "state",
                         "mode", "format", "lang", "language", "locale", "timezone", "tz", "color",
                         "colour", "date", "time", "timestamp", "datetime", "due", "sort", "order", "level",
                         "severity", "version", "hash", "checksum", "encoding", "unit", "currency", "country",
                         "operation", "op", "action", "method", "role", "scope", "at"})
"""Words of a field that holds code or a value from a small set."""
DESCRIBED = re.compile(
    r"\b(one of|must be (a|an|one)\b|(one|single|a) (capital |upper-?case |lower-?case )?(letter|character|word)|"
    r"capital letter|upper-?case letter|lower-?case letter|allowed values|valid values|sql|json|yaml|toml|"
    r"frontmatter|"
    r"regex|regular expression|cron|iso ?8601|yyyy|query to|statement)\b|\([A-Za-z]-[A-Za-z]\)",
    re.IGNORECASE)
"""A description that constrains the value (`Priority (A-Z)`, `one of: open, done`, `SQL query`)."""


def locating(name: str) -> bool:
    """The field names or locates a record (`todo_id`, `path`): a bare marker may stand in it."""
    parts = words(name)
    return bool(parts) and parts[-1] in LOCATING


def free_text(name: str, schema: Any, max_length: int | None = None) -> bool:
    """A string field that takes prose, judged from its name, description and maxLength."""
    if max_length is None and isinstance(schema, dict) and isinstance(schema.get("maxLength"), int):
        max_length = schema["maxLength"]
    if max_length is not None and max_length < SHORT:
        return False
    if locating(name) or set(words(name)) & CONSTRAINED:
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
