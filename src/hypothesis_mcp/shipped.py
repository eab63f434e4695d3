"""Strategies shipped for well-known public servers: a probe config plus the server's environment."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.files import read_document
from hypothesis_mcp.stateful.config import ProbeConfig, parse_config
from hypothesis_mcp.suggest import closest

_HERE = Path(__file__).resolve().parent
FOLDERS = (_HERE / "shipped_strategies", _HERE.parents[1] / "strategies")
"""Installed wheels carry the files inside the package; a source checkout keeps them at the top."""


@dataclass
class Strategy:
    name: str
    config: ProbeConfig
    env: dict[str, str] = field(default_factory=dict)
    servers: list[str] = field(default_factory=list)
    """The names the server reports in its serverInfo, so a run can suggest this strategy."""


def available() -> list[str]:
    return sorted({p.stem for folder in FOLDERS if folder.is_dir() for p in folder.glob("*.yaml")})


def find(name_or_path: str) -> Path:
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml", ".json") and path.is_file():
        return path
    for folder in FOLDERS:
        candidate = folder / f"{name_or_path}.yaml"
        if candidate.is_file():
            return candidate
    raise UsageError(f"no strategy {name_or_path!r} (give a .yaml/.json file or a shipped name)"
                     f"{closest(name_or_path, available(), noun='strategies')}")


def load_strategy(name_or_path: str) -> Strategy:
    path = find(name_or_path)
    data: Any = read_document(path, "strategy")
    if not isinstance(data, dict):
        raise UsageError(f"strategy {str(path)!r}: the top level must be a mapping")
    env = data.pop("env", None) or {}
    if not isinstance(env, dict) or not all(isinstance(v, str | int | float) for v in env.values()):
        raise UsageError(f"strategy {str(path)!r}: env must map names to text values")
    servers = data.pop("server", None) or []
    servers = [servers] if isinstance(servers, str) else servers
    if not isinstance(servers, list) or not all(isinstance(n, str) for n in servers):
        raise UsageError(f"strategy {str(path)!r}: server must be a server name or a list of them")
    config = parse_config(data, str(path))
    config.shipped = path.parent in FOLDERS
    return Strategy(path.stem, config, {str(k): str(v) for k, v in env.items()}, list(servers))


def suggest_for(server_name: str) -> str | None:
    """The shipped strategy made for a server of this name, if there is one."""
    for name in available():
        try:
            if server_name in load_strategy(name).servers:
                return name
        except UsageError:
            continue
    return None
