"""A small notes store written with the FastMCP API of the Python SDK 1.x, as most servers
published before the 2.x SDK are.

It runs on an old SDK installed in a venv of its own (scripts/install-pypi-sdks):

    .cache/pypi/mcp@1.6.0/bin/python tests/servers/era_store.py

Three tools: `add_note(title, body)` answers the new note's id, `get_note(note_id)` the note (a
tool error for an id it does not have), `list_notes()` every note. It has no bug: whatever era of
handshake it speaks, a grading run finds nothing wrong with it.

With `--autosave FILE` a thread of its own writes the notes to FILE every half second, as stores
that persist in the background do, and is stopped when the server's session ends. On an SDK release
whose session dies on a request method it does not know (1.9.3 and older), the session's traceback
goes to stderr and the thread keeps the process up without an answer: the server that logs the
error about `server/discover` and stays alive.
"""

from __future__ import annotations

import argparse
import json
import threading
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


def autosave(path: str, stop: threading.Event) -> None:
    while not stop.wait(0.5):
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(NOTES, handle)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--autosave", metavar="FILE", help="write the notes to FILE every half second")
    args = parser.parse_args()
    stop = threading.Event()
    if args.autosave:
        threading.Thread(target=autosave, args=(args.autosave, stop), name="autosave").start()
    app.run()
    stop.set()
