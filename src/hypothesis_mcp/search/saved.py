"""The last minimal failure of each search, kept between runs so that it is tried first next time.

Hypothesis's own example database is keyed by our source text and keeps choices, not values
(docs/architecture.md, Kept failures); so what a search shrank to is kept here, as JSON under the
search's scope (check and tool): a value is given back to Hypothesis as an explicit example, a
probe's call sequence is replayed before the state machine explores.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from hypothesis_mcp.strategies import Invalid


def encode_value(value: Any) -> Any:
    if isinstance(value, Invalid):
        return {"invalid": {"value": value.value, "keyword": value.keyword, "path": list(value.path),
                            "description": value.description}}
    return {"value": value}


def decode_value(data: Any) -> Any:
    if "invalid" in data:
        inv = data["invalid"]
        return Invalid(inv["value"], inv["keyword"], tuple(inv["path"]), inv["description"])
    return data["value"]


def digest(value: Any) -> str:
    """A short, stable name for what a kept failure depends on (schemas, given values): a failure
    is filed under it, so it is tried again only where it still belongs."""
    text = json.dumps(value, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class SavedFailures:
    def __init__(self, folder: str) -> None:
        self.folder = Path(folder) / "failures"

    def _file(self, scope: str) -> Path:
        return self.folder / f"{hashlib.sha256(scope.encode()).hexdigest()[:24]}.json"

    def load(self, scope: str) -> Any | None:
        """The failure this search kept, as saved; an unreadable file counts as none."""
        try:
            return json.loads(self._file(scope).read_text(encoding="utf-8"))["failure"]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def keep(self, scope: str, data: Any | None) -> None:
        """Keep this run's minimal failure, or forget the old one when the search passed."""
        path = self._file(scope)
        if data is None:
            path.unlink(missing_ok=True)
            return
        try:
            text = json.dumps({"scope": scope, "failure": data}, ensure_ascii=False)
        except (TypeError, ValueError):
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
