"""Writes that only change a record that already exists (`complete_todo(id)`, `todo_update(id)`).

Such a tool takes the id of a record it did not create: a probe that makes one up asks for a
record that does not exist, and whatever the server answers says nothing about whether writes
are kept. Until the probe can create the record first, it says so instead of judging. A field
the user gives a value (--arg, a strategy) is no obstacle. Where the experiments of watch.py ran,
what they showed of the tool decides; its name only where they showed nothing of it.
"""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.stateful.watch import Seen
from hypothesis_mcp.vocabulary import name_verbs, server_made_id


def updated_id(tool: Tool, given: set[str], seen: Mapping[str, Seen] | None = None) -> str | None:
    """The required argument that names the record a tool changes: the identity the experiments
    showed an update taking, or (where they showed nothing of it) the id field (`id`, `todo_id`) of a
    tool named for changing a record; None where the user gave its value."""
    learned = seen.get(tool.name) if seen else None
    if learned is not None and learned.role is not None:
        shown = learned.identity if learned.role == "update" else None
        return shown if shown in profile(tool).required and shown not in given else None
    if not any(verb.group == "update" for verb in name_verbs(tool.name)):
        return None
    for name in profile(tool).required:
        if server_made_id(name) and name not in given:
            return name
    return None
