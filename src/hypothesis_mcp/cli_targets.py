"""The command line's target sources and extra outputs: a client config file (`--config`,
`--server`), project defaults, and the SARIF file. Kept out of cli.py so its commands stay thin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from hypothesis_mcp.clientconfig import target_from_config
from hypothesis_mcp.connection import Target, parse_target
from hypothesis_mcp.connection.target import parse_pairs
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.project import META_KEY, Defaults, default_map, find, from_defaults
from hypothesis_mcp.report.sarif import locate, render_sarif
from hypothesis_mcp.results import Report

ConfigOpt = Annotated[Path | None, typer.Option(
    "--config", help="A client config file (mcpServers JSON, or .vscode/mcp.json servers) naming the server.")]
ServerOpt = Annotated[str | None, typer.Option(
    "--server", help="Which server of --config (needed when it names several).")]
SarifOpt = Annotated[Path | None, typer.Option("--sarif", help="Write SARIF 2.1.0 to FILE (for code scanning).")]


def choose_target(target: list[str], config: Path | None, server: str | None, *, env: list[str],
                  header: list[str], token: str | None) -> Target:
    """The target from TARGET or from --config; --env, --header and --token add to either."""
    extra_env = parse_pairs(env, "=", "--env")
    headers = parse_pairs(header, ":", "--header")
    if config is None:
        if server is not None:
            raise UsageError("--server names a server of --config; give --config FILE too")
        return parse_target(target, env=extra_env, headers=headers, token=token)
    if target:
        raise UsageError("give a TARGET or --config, not both")
    found = target_from_config(config, server)
    return Target(command=found.command, url=found.url, env={**found.env, **extra_env}, cwd=found.cwd,
                  headers={**found.headers, **headers}, token=token, shown=found.shown)


def apply_project_defaults(ctx: typer.Context) -> None:
    """Make `[tool.hypothesis-mcp]` (or hypothesis-mcp.toml) the subcommands' defaults."""
    defaults = find(Path.cwd())
    ctx.meta[META_KEY] = defaults
    if defaults.values:
        ctx.default_map = default_map(defaults, getattr(ctx.command, "commands", {}))


def announce_defaults(ctx: typer.Context, console: Console) -> None:
    """Say which values came from the project defaults (a flag given on the command line wins)."""
    defaults: Defaults = ctx.meta.get(META_KEY) or Defaults()
    used = from_defaults(ctx, [p.name for p in ctx.command.params if p.name])
    if used:
        console.print(f"defaults from {defaults.source}: {', '.join(used)}", markup=False, highlight=False,
                      soft_wrap=True)


def write_sarif(ctx: typer.Context, report: Report, path: Path, *, config: Path | None, server: str | None) -> None:
    defaults: Defaults = ctx.meta.get(META_KEY) or Defaults()
    source = Path(defaults.source.split(" [")[0]) if defaults.source else None
    location = locate(report.target, config=config, server=server, defaults_file=source)
    path.write_text(json.dumps(render_sarif(report, location), indent=2, ensure_ascii=False) + "\n",
                    encoding="utf-8")
