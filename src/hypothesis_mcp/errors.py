"""Errors the tool raises on purpose; the CLI turns each into a message and an exit code."""

from __future__ import annotations


class HypothesisMCPError(Exception):
    """Base of every error the tool reports as a message instead of a traceback."""


class UsageError(HypothesisMCPError):
    """Bad command-line input or configuration (exit code 2)."""


class SchemaError(HypothesisMCPError):
    """A tool schema the strategies cannot work with, named by tool and keyword."""

    def __init__(self, message: str, *, tool: str | None = None, keyword: str | None = None) -> None:
        self.tool = tool
        self.keyword = keyword
        self.message = message
        where = " ".join(p for p in (f"tool {tool!r}" if tool else "", f"keyword {keyword!r}" if keyword else "") if p)
        super().__init__(f"{where}: {message}" if where else message)


class ServerStartError(HypothesisMCPError):
    """The server could not be started or reached, or never finished the handshake (exit code 5)."""

    def __init__(self, message: str, *, stderr: str = "", exit_code: int | None = None,
                 remote: bool = False) -> None:
        self.stderr = stderr
        self.exit_code = exit_code
        self.remote = remote
        """A URL target: there is no process of ours and no stderr to show."""
        super().__init__(message)
