"""What to connect to: a command (stdio) or an http(s) URL (streamable HTTP)."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from hypothesis_mcp.errors import UsageError

Handshake = Literal["auto", "legacy"]


@dataclass(frozen=True)
class Target:
    """A server to test. The bearer token is kept out of `describe()` and `repr()`."""

    command: tuple[str, ...] = ()
    url: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    token: str | None = field(default=None, repr=False)
    shown: str | None = field(default=None, compare=False)
    """How to describe the target when its command or URL holds expanded secrets (a config file's
    `${env:NAME}`): the text with its placeholders."""
    handshake: Handshake = field(default="auto", compare=False, repr=False)
    """How a connection greets the server: `auto` probes `server/discover` first; `legacy` goes
    straight to `initialize`, once a server is known to die on the probe (connection.Connection)."""

    @property
    def is_url(self) -> bool:
        return self.url is not None

    def describe(self) -> str:
        if self.shown is not None:
            return self.shown
        if self.url is not None:
            return self.url
        return shlex.join(self.command)

    def http_headers(self) -> dict[str, str]:
        headers = dict(self.headers)
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers


def parse_target(
    target: str | Sequence[str] | Target,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    headers: Mapping[str, str] | None = None,
    token: str | None = None,
) -> Target:
    """Split a one-string command like a shell would; an argv list is taken as is."""
    if isinstance(target, Target):
        return target
    if isinstance(target, str):
        stripped = target.strip()
        if stripped.startswith(("http://", "https://")):
            return Target(url=stripped, headers=dict(headers or {}), token=token)
        try:
            argv = shlex.split(stripped)
        except ValueError as exc:
            raise UsageError(f"cannot split the target command {target!r}: {exc}") from exc
    else:
        argv = [str(a) for a in target]
        if len(argv) == 1 and argv[0].startswith(("http://", "https://")):
            return Target(url=argv[0], headers=dict(headers or {}), token=token)
        if len(argv) == 1 and " " in argv[0]:
            return parse_target(argv[0], env=env, cwd=cwd, headers=headers, token=token)
    if not argv:
        raise UsageError("no target: give a command to start the server or an http(s):// URL")
    return Target(command=tuple(argv), env=dict(env or {}), cwd=cwd)


def parse_pairs(values: Sequence[str], sep: str, what: str) -> dict[str, str]:
    """`NAME=VALUE` or `K: V` pairs from the command line."""
    pairs: dict[str, str] = {}
    for value in values:
        name, found, rest = value.partition(sep)
        if not found or not name.strip():
            raise UsageError(f"{what} {value!r} is not of the form NAME{sep}VALUE")
        pairs[name.strip()] = rest.strip() if sep == ":" else rest
    return pairs
