"""The `hypothesis-mcp` command line: a thin front over the engine."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

from hypothesis_mcp import __version__
from hypothesis_mcp.connection import CatalogError, Connection, Target, parse_target
from hypothesis_mcp.connection.target import parse_pairs
from hypothesis_mcp.errors import HypothesisMCPError, ServerStartError, UsageError
from hypothesis_mcp.report.catalog import catalog_json, print_catalog

EXIT_OK, EXIT_BLOCKING, EXIT_USAGE, EXIT_SCORE, EXIT_SMOKE, EXIT_START = 0, 1, 2, 3, 4, 5

app = typer.Typer(
    name="hypothesis-mcp",
    help="Property-based testing for MCP servers: generated arguments, effect probes, shrunk "
    "reproductions and a deterministic grade for CI.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err = Console(stderr=True, highlight=False)
T = TypeVar("T")

TargetArg = Annotated[
    list[str],
    typer.Argument(
        help="The server: a command (one string is split like a shell would; or put it after --) "
        "or an http(s):// URL for streamable HTTP.",
        show_default=False,
    ),
]
EnvOpt = Annotated[list[str], typer.Option("--env", help="NAME=VALUE for the server's environment.")]
HeaderOpt = Annotated[list[str], typer.Option("--header", help="'K: V' HTTP header for URL targets.")]
TokenOpt = Annotated[
    str | None, typer.Option("--token", envvar="HYPOTHESIS_MCP_TOKEN", help="Bearer token (never printed).")
]
TimeoutOpt = Annotated[float, typer.Option("--timeout", min=0.1, help="Seconds each call may take.")]


def build_target(target: list[str], env: list[str], header: list[str], token: str | None) -> Target:
    return parse_target(
        target, env=parse_pairs(env, "=", "--env"), headers=parse_pairs(header, ":", "--header"), token=token,
    )


def guarded(action: Callable[[], T]) -> T:
    """Run a command body; errors we expect become a message and an exit code, not a traceback."""
    try:
        return action()
    except ServerStartError as exc:
        err.print(f"[bold red]error:[/bold red] {exc}", soft_wrap=True)
        if exc.stderr.strip():
            err.print("server stderr (last lines):", style="bold")
            err.print("\n".join(exc.stderr.strip().splitlines()[-20:]), markup=False, highlight=False)
        else:
            err.print("the server wrote nothing to stderr.")
        raise typer.Exit(EXIT_START) from None
    except UsageError as exc:
        err.print(f"[bold red]error:[/bold red] {exc}", soft_wrap=True)
        raise typer.Exit(EXIT_USAGE) from None
    except (CatalogError, HypothesisMCPError) as exc:
        err.print(f"[bold red]error:[/bold red] {exc}", soft_wrap=True)
        raise typer.Exit(EXIT_START) from None
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None


def write_json(data: Any, destination: str) -> None:
    text = json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n"
    if destination == "-":
        sys.stdout.write(text)
    else:
        Path(destination).write_text(text, encoding="utf-8")


@app.command()
def tools(
    target: TargetArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print the catalog as JSON.")] = False,
    env: EnvOpt = [],  # noqa: B006
    header: HeaderOpt = [],  # noqa: B006
    token: TokenOpt = None,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """List the server's tools with their roles, key fields, bound parameters and annotations."""

    def body() -> None:
        with Connection(build_target(target, env, header, token), timeout=timeout,
                        startup_timeout=timeout) as conn:
            catalog = conn.list_tools()
            if as_json:
                write_json(catalog_json(catalog, conn.server), "-")
            else:
                print_catalog(Console(highlight=False), catalog, conn.server)

    guarded(body)


def version_callback(value: bool) -> None:
    if value:
        typer.echo(f"hypothesis-mcp {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=version_callback, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Property-based testing for MCP servers."""


def main() -> None:
    app()
