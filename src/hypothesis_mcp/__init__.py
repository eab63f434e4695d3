"""Property-based testing for MCP servers."""

__version__ = "0.1.0"

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection, Outcome, connect

__all__ = ["Connection", "Outcome", "Tool", "__version__", "connect"]
