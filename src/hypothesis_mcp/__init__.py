"""Property-based testing for MCP servers."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from hypothesis_mcp.loading import collector_paused

if TYPE_CHECKING:
    from hypothesis_mcp.catalog import Tool
    from hypothesis_mcp.connection import Connection, Outcome, connect
    from hypothesis_mcp.replay import holds
    from hypothesis_mcp.version import __version__

# Loaded on first use, so the command line's `--help` and `--version` do not load the SDK.
_FROM = {"Tool": "hypothesis_mcp.catalog", "Connection": "hypothesis_mcp.connection",
         "Outcome": "hypothesis_mcp.connection", "connect": "hypothesis_mcp.connection",
         "holds": "hypothesis_mcp.replay", "__version__": "hypothesis_mcp.version"}


def __getattr__(name: str) -> Any:
    module = _FROM.get(name)
    if module is None:
        raise AttributeError(f"module 'hypothesis_mcp' has no attribute {name!r}")
    with collector_paused():
        value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = ["Connection", "Outcome", "Tool", "__version__", "connect", "holds"]
