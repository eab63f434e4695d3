"""Talking to a live MCP server: transports, the synchronous facade, crash and timeout handling."""

from hypothesis_mcp.connection.connection import (
    CatalogError,
    Connection,
    Exchange,
    ServerInfo,
    Stats,
    connect,
)
from hypothesis_mcp.connection.failure import LearnedRefusal
from hypothesis_mcp.connection.outcome import Outcome, text_lines
from hypothesis_mcp.connection.stdio import StdoutNoise
from hypothesis_mcp.connection.target import Target, parse_target

__all__ = [
    "CatalogError", "Connection", "Exchange", "LearnedRefusal", "Outcome", "ServerInfo", "Stats", "StdoutNoise",
    "Target", "connect", "parse_target", "text_lines",
]
