"""The JSON report: the one place it is written, and the one place a saved report is read back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.results import Report

SCHEMA_VERSION = 1


def render_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"


def load_report(path: str | Path) -> dict[str, Any]:
    """A saved report as a dict; a UsageError names the file and what is wrong with it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"report file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read report {path}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise UsageError(f"{path} is not valid JSON ({where}: {exc.msg})") from None
    if not isinstance(data, dict) or "schema_version" not in data:
        raise UsageError(f"{path} is not a hypothesis-mcp report: it has no schema_version")
    if data["schema_version"] != SCHEMA_VERSION:
        raise UsageError(
            f"{path} has schema_version {data['schema_version']!r}; this version of hypothesis-mcp reads "
            f"schema_version {SCHEMA_VERSION}"
        )
    return data
