"""A small notes store written with the FastMCP API of the Python SDK 1.x, as most servers
published before the 2.x SDK are.

It runs on an old SDK installed in a venv of its own (scripts/install-pypi-sdks):

    .cache/pypi/mcp@1.6.0/bin/python tests/servers/era_store.py

Three tools: `add_note(title, body)` answers the new note's id, `get_note(note_id)` the note (a
tool error for an id it does not have), `list_notes()` every note. It has no bug: whatever era of
handshake it speaks, a grading run finds nothing wrong with it.
"""

from __future__ import annotations

from typing import Any

from mcp.server.fastmcp import FastMCP

app = FastMCP("era-store")
NOTES: dict[str, dict[str, str]] = {}


@app.tool()
def add_note(title: str, body: str) -> dict[str, Any]:
    """Store a note; answers its id."""
    note_id = f"n{len(NOTES) + 1}"
    NOTES[note_id] = {"id": note_id, "title": title, "body": body}
    return {"id": note_id}


@app.tool()
def get_note(note_id: str) -> dict[str, str]:
    """The note with this id."""
    if note_id not in NOTES:
        raise ValueError(f"no note {note_id}")
    return NOTES[note_id]


@app.tool()
def list_notes() -> list[dict[str, str]]:
    """Every note, oldest first."""
    return list(NOTES.values())


if __name__ == "__main__":
    app.run()
