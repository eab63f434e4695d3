"""Output paths checked before any server starts: a report that cannot be written is a usage
error found at once, naming the path, not a traceback at the end of the whole run."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from hypothesis_mcp.errors import UsageError

STDOUT = "-"


def file_problem(flag: str, value: str | Path) -> str | None:
    """Why `value` cannot take the file `flag` writes (None: it can): `-` is stdout; else the path
    is not a folder, its folder exists and may be written to, and an existing file may be too."""
    text = str(value)
    if text == STDOUT:
        return None
    path = Path(text)
    where = f"{flag} {text}"
    if path.is_dir():
        return f"{where}: is a folder; give a file path"
    folder = path.parent
    if not folder.exists():
        return f"{where}: the folder {folder} does not exist"
    if not folder.is_dir():
        return f"{where}: {folder} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{where}: the folder {folder} is not writable"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{where}: the file is not writable"
    return None


def folder_problem(flag: str, value: str | Path) -> str | None:
    """Why `value` cannot be the folder `flag` writes into (None: it can): made if missing, so the
    nearest folder that exists on its way must be writable, and it is not a file."""
    path = Path(value)
    where = f"{flag} {value}"
    if path.exists() and not path.is_dir():
        return f"{where}: is a file, not a folder"
    existing = next(p for p in (path, *path.parents) if p.exists())
    if not existing.is_dir():
        return f"{where}: {existing} is not a folder"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{where}: the folder {existing} is not writable"
    return None


def check_outputs(files: Iterable[tuple[str, str | Path | None]],
                  folders: Iterable[tuple[str, str | Path | None]] = ()) -> None:
    """Raise a UsageError naming every output that could not be written."""
    problems = [p for flag, value in files if value is not None and (p := file_problem(flag, value))]
    problems += [p for flag, value in folders if value is not None and (p := folder_problem(flag, value))]
    if problems:
        raise UsageError("; ".join(problems))
