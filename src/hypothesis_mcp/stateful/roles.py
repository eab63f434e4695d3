"""Writes that need a record that already exists (`complete_todo(id)`, `todo_add_tag(id, tag)`).

Such a tool takes the id of a record it did not create: a probe that makes one up asks for a
record that does not exist, and whatever the server answers says nothing about whether writes
are kept. Until the probe can create the record first, it says so instead of judging. A field
the user gives a value (--arg, a strategy) is no obstacle.
"""

from __future__ import annotations

from hypothesis_mcp.catalog import Tool, words

ID_WORDS = frozenset({"id", "uuid", "guid"})


def updated_id(tool: Tool, given: set[str]) -> str | None:
    """The first required id field (`id`, `todo_id`, `id_or_name`) the user gave no value."""
    for name in tool.required:
        if set(words(name)) & ID_WORDS and name not in given:
            return name
    return None
