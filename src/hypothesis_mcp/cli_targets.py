"""The command line's target sources and extra outputs: a client config file (`--config`,
`--server`), project defaults, and the SARIF file. Kept out of cli.py so its commands stay thin.
The connection and report modules load inside the functions: the options are read by `--help`."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

import hypothesis_mcp.cli_help as panel
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.project import META_KEY, Defaults, default_map, find, from_defaults

if TYPE_CHECKING:
    from rich.console import Console

    from hypothesis_mcp.connection import Target
    from hypothesis_mcp.report.sarif import Location
    from hypothesis_mcp.results import Report

ConfigOpt = Annotated[Path | None, typer.Option(
    "--config", metavar="FILE", rich_help_panel=panel.TARGET,
    help="A client config file (mcpServers JSON, or .vscode/mcp.json servers) naming the server.")]
ServerOpt = Annotated[str | None, typer.Option(
    "--server", metavar="NAME", rich_help_panel=panel.TARGET,
    help="Which server of --config (needed when it names several).")]
SarifOpt = Annotated[Path | None, typer.Option("--sarif", metavar="FILE", rich_help_panel=panel.OUTPUTS,
                                               help="Write SARIF 2.1.0 to FILE (for code scanning).")]


def choose_target(target: list[str], config: Path | None, server: str | None, *, env: list[str],
                  header: list[str], token: str | None) -> Target:
    """The target from TARGET or from --config; --env, --header and --token add to either."""
    from hypothesis_mcp.clientconfig import target_from_config
    from hypothesis_mcp.connection import Target, parse_target
    from hypothesis_mcp.connection.target import parse_pairs

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


def require_env(target: Target, recorded: Sequence[str], report: Path) -> None:
    """A replay starts its server only where the run started it: every environment variable the run
    set for the server (the report keeps the names) must be set again, by --env or in this process."""
    if target.is_url:
        return
    missing = sorted(name for name in recorded if name not in target.env and name not in os.environ)
    if missing:
        flags = " ".join(f"--env {name}=VALUE" for name in missing)
        raise UsageError(
            f"{report} was made with {', '.join(missing)} set for the server, and this replay sets "
            f"{'it' if len(missing) == 1 else 'them'} neither with --env nor in the environment: the server "
            f"would start in another environment (a default data file, the real home directory). Pass {flags} "
            "(a value may hold {tmpdir}, a new folder per server process) or export them, then replay again."
        )


def shown_env(env: Mapping[str, str], typed: Mapping[str, str]) -> dict[str, str | None]:
    """The server's environment as reproductions print it: only a value typed on the command line or
    set by a shipped strategy (`typed`) is copied; one this process has under the same name (`--env
    TOKEN="$TOKEN"`) or one a client config file holds (a token, say) is printed as taken from the
    environment (None), so no secret reaches a log that was not in it already."""
    return {name: value if typed.get(name) == value and os.environ.get(name) != value else None
            for name, value in env.items()}


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


def declared_at(ctx: typer.Context, report: Report, *, config: Path | None, server: str | None) -> Location | None:
    """Where the tested server is declared, for SARIF and annotations to point at."""
    from hypothesis_mcp.report.sarif import locate

    defaults: Defaults = ctx.meta.get(META_KEY) or Defaults()
    source = Path(defaults.source.split(" [")[0]) if defaults.source else None
    from_defaults_file = bool(from_defaults(ctx, ["target"]))
    return locate(report.target, config=config, server=server, defaults_file=source,
                  target_in_defaults=from_defaults_file)


def write_sarif(ctx: typer.Context, report: Report, path: Path, *, config: Path | None, server: str | None) -> None:
    from hypothesis_mcp.report.sarif import render_sarif

    location = declared_at(ctx, report, config=config, server=server)
    path.write_text(json.dumps(render_sarif(report, location), indent=2, ensure_ascii=False) + "\n",
                    encoding="utf-8")
