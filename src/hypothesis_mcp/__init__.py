"""Property-based testing for MCP servers."""

import gc

# The SDK's protocol models are many long-lived objects: collecting while they load only walks
# them again and again (about a third of the import's CPU).
_collecting = gc.isenabled()
gc.disable()
try:
    from hypothesis_mcp.catalog import Tool
    from hypothesis_mcp.connection import Connection, Outcome, connect
    from hypothesis_mcp.version import __version__
finally:
    if _collecting:
        gc.enable()

__all__ = ["Connection", "Outcome", "Tool", "__version__", "connect"]
