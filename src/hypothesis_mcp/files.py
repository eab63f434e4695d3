"""Reading the YAML and JSON files users write, with errors that point at file, line and column."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from hypothesis_mcp.errors import UsageError


def read_document(path: str | Path, what: str) -> Any:
    """The file's data (JSON for `.json`, else YAML, which JSON also parses as); a UsageError
    names the file and, for a syntax error, its line and column (1-based)."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise UsageError(f"cannot read {what} {str(file)!r}: {reason}") from None
    if file.suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{file}:{exc.lineno}:{exc.colno}: {what} is not valid JSON: {exc.msg}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{file}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(file)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        context = getattr(exc, "context", None)
        detail = f"{problem} ({context})" if context else problem
        raise UsageError(f"{where}: {what} is not valid YAML: {detail}") from None
