"""Writes that only change a record that already exists (`complete_todo(id)`, `todo_update(id)`).

Such a tool takes the id of a record it did not create: a probe that makes one up asks for a
record that does not exist, and whatever the server answers says nothing about whether writes
are kept. Until the probe can create the record first, it says so instead of judging. A field
the user gives a value (--arg, a strategy) is no obstacle.
"""

from __future__ import annotations

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.vocabulary import name_verbs, server_made_id


def updated_id(tool: Tool, given: set[str]) -> str | None:
    """The required id field (`id`, `todo_id`, `id_or_name`) of a tool named for changing a record,
    unless the user gave its value."""
    if not any(verb.group == "update" for verb in name_verbs(tool.name)):
        return None
    for name in profile(tool).required:
        if server_made_id(name) and name not in given:
            return name
    return None
