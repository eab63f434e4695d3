"""Strategies shipped for well-known public servers: a probe config plus the server's environment."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.stateful.config import ProbeConfig, parse_config

_HERE = Path(__file__).resolve().parent
FOLDERS = (_HERE / "shipped_strategies", _HERE.parents[1] / "strategies")
"""Installed wheels carry the files inside the package; a source checkout keeps them at the top."""


@dataclass
class Strategy:
    name: str
    config: ProbeConfig
    env: dict[str, str] = field(default_factory=dict)


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
    raise UsageError(f"no strategy {name_or_path!r}: give a file or one of {', '.join(available()) or 'none'}")


def load_strategy(name_or_path: str) -> Strategy:
    path = find(name_or_path)
    try:
        data: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise UsageError(f"cannot read strategy {str(path)!r}: {str(exc).splitlines()[0]}") from exc
    if not isinstance(data, dict):
        raise UsageError(f"strategy {str(path)!r}: the top level must be a mapping")
    env = data.pop("env", None) or {}
    if not isinstance(env, dict) or not all(isinstance(v, str | int | float) for v in env.values()):
        raise UsageError(f"strategy {str(path)!r}: env must map names to text values")
    return Strategy(path.stem, parse_config(data, str(path)), {str(k): str(v) for k, v in env.items()})
