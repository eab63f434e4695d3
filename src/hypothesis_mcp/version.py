"""The installed version, read once from the package metadata."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("hypothesis-mcp")
except PackageNotFoundError:  # a source tree on sys.path without an install
    __version__ = "0.1.0"


def version_line() -> str:
    """What `hypothesis-mcp --version` prints."""
    return f"hypothesis-mcp {__version__}"
