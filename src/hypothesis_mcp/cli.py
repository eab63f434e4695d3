"""The `hypothesis-mcp` command line: a thin front over the engine."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

from hypothesis_mcp.cli_targets import (
    ConfigOpt,
    SarifOpt,
    ServerOpt,
    announce_defaults,
    apply_project_defaults,
    choose_target,
    require_env,
    write_sarif,
)
from hypothesis_mcp.connection import CatalogError, Connection, Outcome
from hypothesis_mcp.emit import emit_tests
from hypothesis_mcp.engine import RunOptions, run
from hypothesis_mcp.errors import HypothesisMCPError, ServerStartError, UsageError
from hypothesis_mcp.gates import (
    EXIT_BLOCKING,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_START,
    EXIT_USAGE,
    exit_code,
    gate_line,
    parse_fail_under,
)
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.progress import progress_display
from hypothesis_mcp.replay import replay as run_replay
from hypothesis_mcp.report.badge import render_badge_json, render_badge_svg
from hypothesis_mcp.report.catalog import catalog_json, print_catalog
from hypothesis_mcp.report.console import render_console
from hypothesis_mcp.report.json_report import load_report, render_json
from hypothesis_mcp.report.junit import render_junit
from hypothesis_mcp.report.markdown import render_markdown
from hypothesis_mcp.results import Call, Result
from hypothesis_mcp.search.lanes import parse_workers
from hypothesis_mcp.shipped import load_strategy
from hypothesis_mcp.stateful.config import load_config
from hypothesis_mcp.strategies import Overrides
from hypothesis_mcp.suggest import closest
from hypothesis_mcp.version import __version__
from hypothesis_mcp.waivers import parse_waiver

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
        "or an http(s):// URL for streamable HTTP. Or leave it out and give --config.",
        show_default=False,
    ),
]
EnvOpt = Annotated[list[str], typer.Option("--env", help="NAME=VALUE for the server's environment.")]
HeaderOpt = Annotated[list[str], typer.Option("--header", help="'K: V' HTTP header for URL targets.")]
TokenOpt = Annotated[
    str | None, typer.Option("--token", envvar="HYPOTHESIS_MCP_TOKEN", help="Bearer token (never printed).")
]
TimeoutOpt = Annotated[float, typer.Option("--timeout", min=0.1, help="Seconds each call may take.")]


def guarded(action: Callable[[], T]) -> T:
    """Run a command body; errors we expect become a message and an exit code, not a traceback."""
    try:
        return action()
    except ServerStartError as exc:
        err.print(f"[bold red]error:[/bold red] {exc}", soft_wrap=True)
        if exc.remote:
            err.print("check the URL, that the server is running and reachable, and any --header or --token.")
        elif exc.stderr.strip():
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
        raise typer.Exit(EXIT_INTERRUPTED) from None


def write_text(text: str, destination: str) -> None:
    """A document to a file, or to stdout for `-` (then nothing else is written there)."""
    if destination == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        Path(destination).write_text(text, encoding="utf-8")


def write_json(data: Any, destination: str) -> None:
    write_text(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n", destination)


DEFAULTS_EPILOG = ("A default shown here that differs from the built-in one comes from the tool.hypothesis-mcp "
                   "table of pyproject.toml or from hypothesis-mcp.toml (docs/config.md); a flag wins over it.")


@app.command(epilog=DEFAULTS_EPILOG)
def tools(
    target: TargetArg = [],  # noqa: B006
    as_json: Annotated[bool, typer.Option("--json", help="Print the catalog as JSON.")] = False,
    client_config: ConfigOpt = None,
    server: ServerOpt = None,
    env: EnvOpt = [],  # noqa: B006
    header: HeaderOpt = [],  # noqa: B006
    token: TokenOpt = None,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """List the server's tools with their roles, key fields, bound parameters and annotations."""

    def body() -> None:
        the_target = choose_target(target, client_config, server, env=env, header=header, token=token)
        with Connection(the_target, timeout=timeout, startup_timeout=timeout) as conn:
            catalog = conn.list_tools()
            if as_json:
                write_json(catalog_json(catalog, conn.server), "-")
            else:
                print_catalog(Console(highlight=False, width=max(120, Console().width)), catalog, conn.server)

    guarded(body)


@app.command(epilog=DEFAULTS_EPILOG)
def test(
    ctx: typer.Context,
    target: TargetArg = [],  # noqa: B006
    client_config: ConfigOpt = None,
    server: ServerOpt = None,
    smoke: Annotated[bool, typer.Option("--smoke", help="Also run the smoke checks (tools/call).")] = False,
    call_all: Annotated[bool, typer.Option("--call-all", help="Smoke: call every tool, not only "
                                           "readOnlyHint: true ones.")] = False,
    probes: Annotated[bool, typer.Option("--probes", help="Run effect probes (read-only unless "
                                         "--allow-writes).")] = False,
    allow_writes: Annotated[bool, typer.Option("--allow-writes", help="Let probes call write tools. Point them "
                                               "at a disposable server.")] = False,
    probe_config: Annotated[Path | None, typer.Option("--probe-config", help="YAML or JSON probe config.")] = None,
    strategy: Annotated[str | None, typer.Option("--strategy", help="A shipped strategy by name (e.g. "
                                                 "server-memory) or a strategy file: probe config plus "
                                                 "server environment.")] = None,
    arg: Annotated[list[str], typer.Option("--arg", help="[TOOL:]NAME=VALUE argument value (JSON when it "
                                           "parses).")] = [],  # noqa: B006
    args_file: Annotated[Path | None, typer.Option("--args-file", help="YAML/JSON {'*': {...}, TOOL: "
                                                   "{...}}.")] = None,
    profile: Annotated[str, typer.Option("--profile", help="grading (deterministic), default or "
                                         "thorough.")] = "default",
    seed: Annotated[int | None, typer.Option("--seed", help="Make any profile repeatable.")] = None,
    max_examples: Annotated[int | None, typer.Option("--max-examples", help="Examples per tool and "
                                                     "check.")] = None,
    timeout: TimeoutOpt = 30.0,
    max_time: Annotated[float | None, typer.Option("--max-time", help="Stop starting new checks after this "
                                                   "many seconds.")] = None,
    env: EnvOpt = [],  # noqa: B006
    header: HeaderOpt = [],  # noqa: B006
    token: TokenOpt = None,
    json_out: Annotated[str | None, typer.Option("--json", help="Write the JSON report to FILE (- for "
                                                 "stdout).")] = None,
    junit: Annotated[str | None, typer.Option("--junit", help="Write JUnit XML to FILE (- for stdout).")] = None,
    markdown: Annotated[str | None, typer.Option("--markdown", help="Write a Markdown summary to FILE (- for "
                                                 "stdout).")] = None,
    badge: Annotated[Path | None, typer.Option("--badge", help="Write a badge: .svg, or .json for a shields "
                                               "endpoint.")] = None,
    ci: Annotated[bool, typer.Option("--ci", help="Grading profile; a blocking failure or a partial run exits "
                                     "1.")] = False,
    fail_under: Annotated[str | None, typer.Option("--fail-under", help="Exit 3 below this grade letter or "
                                                   "percentage.")] = None,
    ignore: Annotated[list[str], typer.Option("--ignore", help="RULE[:TOOL] to waive: the result is shown as "
                                              "waived, never gates and never counts in the score.")] = [],  # noqa: B006
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the gate line: no progress, no "
                                        "report (files are still written).")] = False,
    no_probe_grade_cap: Annotated[bool, typer.Option("--no-probe-grade-cap", help="Grade by score alone.")] = False,
    read_only: Annotated[bool, typer.Option("--read-only", help="Scenarios call read-only tools only.")] = False,
    emit_tests_dir: Annotated[Path | None, typer.Option("--emit-tests", help="Write one pytest file per failure "
                                                        "that replays its reproduction.")] = None,
    workers: Annotated[str, typer.Option("--workers", help="Run different tools' checks in parallel on "
                                         "this many separate server processes (auto: one per usable core); "
                                         "same results as 1.")] = "1",
    sarif: SarifOpt = None,
) -> None:
    """Test a server: lint, happy and edge scenarios, and optionally smoke checks and effect probes."""

    def body() -> int:
        if not quiet:
            announce_defaults(ctx, err)
        gate = parse_fail_under(fail_under)
        to_stdout = [flag for flag, value in (("--json", json_out), ("--junit", junit), ("--markdown", markdown))
                     if value == "-"]
        if len(to_stdout) > 1:
            raise UsageError(f"only one output can go to stdout (-), not {' and '.join(to_stdout)}")
        waivers = [parse_waiver(text, "--ignore") for text in ignore]
        overrides = Overrides.parse(list(arg), str(args_file) if args_file else None)
        if probe_config and strategy:
            raise UsageError("give --probe-config or --strategy, not both (a strategy is a probe config)")
        shipped = load_strategy(strategy) if strategy else None
        config = load_config(probe_config) if probe_config else (shipped.config if shipped else None)
        chosen = make_profile("grading" if ci else profile, seed=seed, max_examples=max_examples)
        options = RunOptions(
            profile=chosen, smoke=smoke, call_all=call_all, probes=probes or probe_config is not None,
            allow_writes=allow_writes, probe_config=config, overrides=overrides, read_only=read_only,
            probe_grade_cap=not no_probe_grade_cap, timeout=timeout, startup_timeout=timeout,
            max_time=max_time, workers=parse_workers(workers), waivers=waivers,
        )
        the_target = choose_target(target, client_config, server, env=env, header=header, token=token)
        if shipped and shipped.env and not the_target.is_url:
            the_target = replace(the_target, env={**shipped.env, **the_target.env})
        if chosen.seed is not None and chosen.name != "grading" and not quiet:
            err.print(f"profile {chosen.name}, seed {chosen.seed} (repeat with --seed {chosen.seed})")
        with progress_display(err, quiet=quiet) as progress:
            report = run(the_target, options, progress)
        # With a document on stdout, the people's report goes to stderr.
        console = Console(highlight=False, width=max(100, Console().width), stderr=bool(to_stdout))
        if not quiet:
            render_console(report, console, report_path=json_out if json_out != "-" else None)
        if json_out:
            write_text(render_json(report), json_out)
        if junit:
            write_text(render_junit(report), junit)
        if sarif:
            write_sarif(ctx, report, sarif, config=client_config, server=server)
        summary = render_markdown(report) if (markdown or ci) else ""
        if markdown:
            write_text(summary, markdown)
        if ci and os.environ.get("GITHUB_STEP_SUMMARY"):
            with open(os.environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as handle:
                handle.write(summary + "\n")
        if emit_tests_dir:
            written = emit_tests(report.results, report.target, emit_tests_dir, server_env=report.server_env)
            if not quiet:
                err.print(f"wrote {len(written)} regression test(s) to {emit_tests_dir}")
        if badge:
            if badge.suffix == ".json":
                write_json(render_badge_json(report), str(badge))
            else:
                badge.write_text(render_badge_svg(report), encoding="utf-8")
        code = exit_code(report, gate, ci=ci)
        console.print(gate_line(code, report, fail_under), markup=False, soft_wrap=True)
        return code

    raise typer.Exit(guarded(body))


@app.command(epilog=DEFAULTS_EPILOG)
def replay(
    report_file: Annotated[Path, typer.Argument(help="A JSON report written with --json.", metavar="REPORT.json")],
    result_id: Annotated[str | None, typer.Option("--result", help="The result id to replay (default: every "
                                                  "failure with a reproduction).")] = None,
    target: Annotated[str | None, typer.Option("--target", help="Server to replay against (default: the "
                                               "report's target).")] = None,
    emit_tests_dir: Annotated[Path | None, typer.Option("--emit-tests", help="Instead of replaying, write one "
                                                        "pytest file per chosen result to DIR.")] = None,
    timeout: TimeoutOpt = 30.0,
    client_config: ConfigOpt = None,
    server: ServerOpt = None,
    env: EnvOpt = [],  # noqa: B006
) -> None:
    """Re-run failures' minimal reproductions on a fresh server: exit 1 if one still fails, 0 if all pass.
    With --emit-tests, write them as pytest files instead (a CI report becomes regression tests).
    The server gets the environment the run gave it: every variable name the report records must be
    set, with --env or in this process's environment."""

    def body() -> int:
        data = load_report(report_file)
        results = [Result.from_dict(r) for r in data.get("results", [])]
        if result_id is not None:
            chosen = [r for r in results if r.id == result_id]
            if not chosen:
                ids = [r.id for r in results if r.reproduction]
                raise UsageError(f"no result {result_id!r} in {report_file}"
                                 + (closest(result_id, ids, noun="ids with a reproduction") if ids
                                    else "; it has no result with a reproduction"))
        else:
            chosen = [r for r in results if r.status in ("fail", "warn") and r.reproduction
                      and r.covered_by is None]
        if emit_tests_dir is not None:
            written = emit_tests(chosen, target or data.get("target", ""), emit_tests_dir,
                                 only_failures=result_id is None, server_env=data.get("server_env") or [])
            typer.echo(f"wrote {len(written)} regression test(s) to {emit_tests_dir}")
            return EXIT_OK
        if not chosen:
            typer.echo("nothing to replay: the report has no failure with a reproduction")
            return EXIT_OK
        if client_config is not None:
            the_target = choose_target([target] if target else [], client_config, server, env=env, header=[],
                                       token=None)
        else:
            the_target = choose_target([target or data.get("target", "")], None, server, env=env, header=[],
                                       token=None)
        require_env(the_target, data.get("server_env") or [], report_file)
        console = Console(highlight=False)
        failing = 0
        for result in chosen:
            console.print(f"{result.id} {result.rule} on {result.subject}: {result.message}", markup=False)

            def show(call: Call, outcome: Outcome) -> None:
                console.print(f"  call {call.describe()}", markup=False)
                console.print(f"    -> {outcome.summary()}", markup=False)

            done = run_replay(result, the_target, timeout=timeout, on_step=show)
            failing += done.still_fails
            verdict = ("[red]still fails[/red]" if done.still_fails else "[yellow]cannot confirm[/yellow]"
                       if done.unconfirmed else "[green]now passes[/green]")
            console.print(f"  {verdict}: {done.verdict}")
        return EXIT_BLOCKING if failing else EXIT_OK

    raise typer.Exit(guarded(body))


def version_callback(value: bool) -> None:
    if value:
        typer.echo(f"hypothesis-mcp {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=version_callback, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Property-based testing for MCP servers. Defaults for every option can live in
    [tool.hypothesis-mcp] of pyproject.toml (or hypothesis-mcp.toml); flags win."""
    guarded(lambda: apply_project_defaults(ctx))


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM takes the Ctrl-C path: servers stopped, a partial report written."""
    raise KeyboardInterrupt


def main() -> None:
    signal.signal(signal.SIGTERM, _terminate)
    app()
