"""Property-based testing for MCP servers."""

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection, Outcome, connect
from hypothesis_mcp.version import __version__

__all__ = ["Connection", "Outcome", "Tool", "__version__", "connect"]
