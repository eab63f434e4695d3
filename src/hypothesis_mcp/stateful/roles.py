"""Writes that only change a record that already exists (`complete_todo`, `update_note(id)`).

Such a tool takes the id of a record it did not create: a probe that makes one up asks for a
record that does not exist, and whatever the server answers says nothing about whether writes
are kept. Until the probe can create the record first, it says so instead of judging.
"""

from __future__ import annotations

from hypothesis_mcp.catalog import Tool, words

UPDATE_VERBS = frozenset({"update", "edit", "modify", "patch", "complete", "close", "finish", "mark", "replace",
                          "set", "toggle", "rename", "done"})
ID_WORDS = frozenset({"id", "uuid", "guid"})


def updated_id(tool: Tool, given: set[str]) -> str | None:
    """The required id field of a tool named for changing a record, unless the user gave its value."""
    if not set(words(tool.name)) & UPDATE_VERBS:
        return None
    for name in tool.required:
        parts = words(name)
        if parts and parts[-1] in ID_WORDS and name not in given:
            return name
    return None
