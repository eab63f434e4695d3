"""Project defaults: `[tool.hypothesis-mcp]` in pyproject.toml, or hypothesis-mcp.toml.

Keys are the long option names of `hypothesis-mcp test` (`profile`, `smoke`, `fail-under`, `json`,
`sarif`, ...) plus `target` and `args` (the `--arg` list); an `[outputs]` sub-table may hold the
report files. They become the commands' defaults, so a flag on the command line always wins.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.suggest import nearest

OWN_FILE = "hypothesis-mcp.toml"
PYPROJECT = "pyproject.toml"
ALIASES = {"args": "arg", "envs": "env", "headers": "header"}
OUTPUTS = frozenset({"json", "junit", "markdown", "badge", "sarif"})
ONLY = {"replay": frozenset({"config", "server", "timeout", "env"}), "tools": None, "test": None}
"""Keys each command takes from the defaults (None: every key it has an option for, but outputs
are the test command's alone: `tools --json` is a switch, not a file)."""
META_KEY = "hypothesis_mcp.project"


@dataclass
class Defaults:
    """Where the defaults were found and what they are, by option name (dashed)."""

    source: str = ""
    values: dict[str, Any] = field(default_factory=dict)


def _table(path: Path) -> dict[str, Any] | None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError:
        return None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path} is not valid TOML: {exc}") from None
    if path.name == OWN_FILE:
        table = data.get("tool", {}).get("hypothesis-mcp", data)
    else:
        table = data.get("tool", {}).get("hypothesis-mcp")
    if table is not None and not isinstance(table, dict):
        raise UsageError(f"{path}: [tool.hypothesis-mcp] must be a table")
    return table


def find(start: Path) -> Defaults:
    """The nearest hypothesis-mcp.toml, or pyproject.toml with the table, from `start` upwards."""
    for folder in [start, *start.parents]:
        for name in (OWN_FILE, PYPROJECT):
            path = folder / name
            if path.is_file() and (table := _table(path)) is not None:
                where = f"{path} [tool.hypothesis-mcp]" if name == PYPROJECT else str(path)
                return Defaults(where, _flatten(table, where))
    return Defaults()


def _flatten(table: Mapping[str, Any], where: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key == "outputs" and isinstance(value, dict):
            values.update(_flatten(value, where))
            continue
        name = ALIASES.get(key, key).replace("_", "-")
        if name == "target" and isinstance(value, str):
            value = [value]
        values[name] = value
    return values


def default_map(defaults: Defaults, commands: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each command's share of the defaults, keyed by its parameter names; a key that no command
    takes is an error, not ignored."""
    taken: set[str] = set()
    known: set[str] = set(ALIASES)
    mapped: dict[str, dict[str, Any]] = {}
    for name, command in commands.items():
        names: dict[str, str] = {}
        for param in command.params:
            if param.name:
                names[param.name.replace("_", "-")] = param.name
                names.update({opt[2:]: param.name for opt in param.opts if opt.startswith("--")})
        allowed = ONLY.get(name, frozenset())
        mine = {names[k]: v for k, v in defaults.values.items() if k in names
                and (k in allowed if allowed is not None else (name == "test" or k not in OUTPUTS))}
        taken |= {k for k in defaults.values if k in names and names[k] in mine}
        known |= {k for k in names if allowed is None or k in allowed}
        if mine:
            mapped[name] = mine
    unknown = sorted(set(defaults.values) - taken)
    if unknown:
        hints = "; ".join(f"{key}: did you mean {' or '.join(near)}?" for key in unknown
                          if (near := nearest(key, known, n=1)))
        raise UsageError(f"{defaults.source}: unknown key(s) {', '.join(unknown)}{'; ' + hints if hints else ''}; "
                         "keys are the long option names of hypothesis-mcp test (max-examples, fail-under, json, ...), "
                         "target and args")
    return mapped


def from_defaults(ctx: Any, names: Iterable[str]) -> list[str]:
    """The options of this command (a command-line context) whose value came from the project
    defaults, each as the flag that would give it (`--fail-under A`, `--json report.json`)."""
    params = {p.name: p for p in ctx.command.params}
    used = []
    for name in names:
        source = ctx.get_parameter_source(name)
        if source is None or source.name != "DEFAULT_MAP":
            continue
        param = params.get(name)
        flag = next((o for o in getattr(param, "opts", ()) if o.startswith("--")), name.upper())
        value = ctx.params.get(name)
        if isinstance(value, bool):
            used.append(flag if value else f"{flag}=false")
        elif isinstance(value, list | tuple):
            used.extend(f"{flag} {item}" for item in value)
        else:
            used.append(f"{flag} {value}")
    return used
