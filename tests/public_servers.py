"""Where the pinned public servers live once scripts/install-npm-servers and install-pypi-servers have run."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NPM = ROOT / ".cache" / "npm"
PYPI = ROOT / ".cache" / "pypi"


def npm_server(package: str, version: str) -> list[str]:
    """The argv that starts `@modelcontextprotocol/<package>@<version>`, or a skip if not installed."""
    entry = NPM / f"{package}@{version}" / "node_modules" / "@modelcontextprotocol" / package / "dist" / "index.js"
    node = shutil.which("node")
    if node is None or not entry.is_file():
        pytest.skip(f"{package}@{version} is not installed: run scripts/install-npm-servers")
    return [node, str(entry)]


def pypi_server(package: str, version: str, command: str | None = None) -> list[str]:
    """The console script of a PyPI server installed in a venv of its own, or a skip if it is not."""
    script = PYPI / f"{package}@{version}" / "bin" / (command or package)
    if not script.is_file():
        pytest.skip(f"{package}=={version} is not installed: run HYPOTHESIS_MCP_HEAVY=1 ./scripts/install, then pytest "
                    "(needs Python >= 3.12)")
    return [str(script)]


def venv_script(name: str) -> list[str]:
    """A console script installed beside the interpreter running the tests, by absolute path, so the
    tests find it whether or not the venv is activated."""
    return [str(Path(sys.executable).parent / name)]
