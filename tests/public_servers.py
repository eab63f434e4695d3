"""Where the pinned public servers live once scripts/install-npm-servers has run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NPM = ROOT / ".cache" / "npm"


def npm_server(package: str, version: str) -> list[str]:
    """The argv that starts `@modelcontextprotocol/<package>@<version>`, or a skip if not installed."""
    entry = NPM / f"{package}@{version}" / "node_modules" / "@modelcontextprotocol" / package / "dist" / "index.js"
    node = shutil.which("node")
    if node is None or not entry.is_file():
        pytest.skip(f"{package}@{version} is not installed: run scripts/install-npm-servers")
    return [node, str(entry)]
