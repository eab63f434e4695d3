"""Targets from the config files MCP clients already use.

Two shapes: `{"mcpServers": {NAME: {command, args, env, cwd} | {url, headers}}}` (the desktop and
editor clients' form) and `{"servers": {NAME: {type, ...}}}` (an editor's `.vscode/mcp.json`, which
may hold comments and trailing commas). `${env:NAME}` and `${NAME}` are expanded from the
environment; the target describes itself with the placeholders, so no expanded value is printed.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hypothesis_mcp.connection import Target
from hypothesis_mcp.errors import UsageError

_PLACEHOLDER = re.compile(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}")
_OTHER_PLACEHOLDER = re.compile(r"\$\{([^}]*)\}")
_JSONC = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/|,(?=\s*[}\]])', re.DOTALL)
STREAMABLE = ("http", "streamable-http", "streamableHttp")


def _without_comments(text: str) -> str:
    """JSON with comments and trailing commas as plain JSON; strings are left untouched."""
    return _JSONC.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", text)


def read_servers(path: Path) -> dict[str, dict[str, Any]]:
    """The server entries of a client config file, by name."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read --config {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(_without_comments(text))
    except ValueError as exc:
        raise UsageError(f"--config {path} is not JSON: {exc}") from None
    servers = data.get("mcpServers", data.get("servers")) if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise UsageError(f"--config {path} has no 'mcpServers' or 'servers' object")
    bad = [name for name, entry in servers.items() if not isinstance(entry, dict)]
    if bad:
        raise UsageError(f"--config {path}: server entries must be objects: {', '.join(bad)}")
    return servers


def choose(servers: Mapping[str, dict[str, Any]], name: str | None, path: Path) -> tuple[str, dict[str, Any]]:
    if name is not None:
        if name not in servers:
            raise UsageError(f"--config {path} has no server {name!r}; it has: {', '.join(servers) or 'none'}")
        return name, servers[name]
    if len(servers) == 1:
        return next(iter(servers.items()))
    raise UsageError(f"--config {path} names {len(servers)} servers; choose one with --server: "
                     + (", ".join(servers) or "none"))


def _expand(value: Any, where: str, environ: Mapping[str, str], workspace: Path) -> str:
    if not isinstance(value, str):
        raise UsageError(f"{where} must be a string, not {type(value).__name__}")
    known = {"workspaceFolder": str(workspace), "userHome": str(Path.home())}

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if not match.group(0).startswith("${env:") and name in known:
            return known[name]
        if name not in environ:
            raise UsageError(f"{where} uses ${{{match.group(0)[2:-1]}}}, but {name} is not set in the environment")
        return environ[name]

    expanded = _PLACEHOLDER.sub(one, value)
    if (left := _OTHER_PLACEHOLDER.search(expanded)) is not None and left.group(0) in value:
        raise UsageError(f"{where} uses {left.group(0)}, which hypothesis-mcp cannot fill in; put the value in "
                         "an environment variable and write ${env:NAME}")
    return expanded


def target_from_config(path: Path, name: str | None = None, environ: Mapping[str, str] | None = None) -> Target:
    """The Target for one server of a client config file (`name` may be left out when it has one)."""
    env_source = os.environ if environ is None else environ
    chosen, entry = choose(read_servers(path), name, path)
    workspace = path.resolve().parent.parent if path.resolve().parent.name == ".vscode" else path.resolve().parent
    where = f"--config {path}, server {chosen!r}"
    kind = entry.get("type")
    if kind == "sse":
        raise UsageError(f"{where}: the SSE transport is not supported; give the server's streamable HTTP URL")
    if "url" in entry and "command" not in entry:
        if kind not in (None, *STREAMABLE):
            raise UsageError(f"{where}: type {kind!r} is not a transport hypothesis-mcp speaks (stdio or http)")
        headers = entry.get("headers") or {}
        if not isinstance(headers, dict):
            raise UsageError(f"{where}: headers must be an object")
        url = _expand(entry["url"], f"{where}, url", env_source, workspace)
        if not url.startswith(("http://", "https://")):
            raise UsageError(f"{where}: url must be http(s)://, not {entry['url']!r}")
        return Target(url=url, headers={k: _expand(v, f"{where}, header {k}", env_source, workspace)
                                        for k, v in headers.items()},
                      shown=entry["url"])
    if "command" not in entry:
        raise UsageError(f"{where} has neither a command nor a url")
    if kind not in (None, "stdio"):
        raise UsageError(f"{where}: type {kind!r} with a command; a command is started over stdio")
    args = entry.get("args") or []
    env = entry.get("env") or {}
    if not isinstance(args, list) or not isinstance(env, dict):
        raise UsageError(f"{where}: args must be a list and env an object")
    raw = [entry["command"], *args]
    argv = [_expand(a, f"{where}, command", env_source, workspace) for a in raw]
    cwd = entry.get("cwd")
    return Target(command=tuple(argv),
                  env={k: _expand(v, f"{where}, env {k}", env_source, workspace) for k, v in env.items()},
                  cwd=_expand(cwd, f"{where}, cwd", env_source, workspace) if cwd is not None else None,
                  shown=shlex.join(str(a) for a in raw))
