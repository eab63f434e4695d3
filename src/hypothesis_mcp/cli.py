"""The `hypothesis-mcp` command line: a thin front over the engine."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

import hypothesis_mcp.cli_help as panel
from hypothesis_mcp.cli_help import (
    ANNOTATION_FORMATS,
    DEFAULTS,
    HELP_OPTIONS,
    TEST_EPILOG,
    PlainCommand,
    PlainGroup,
)
from hypothesis_mcp.cli_targets import (
    ConfigOpt,
    SarifOpt,
    ServerOpt,
    announce_defaults,
    apply_project_defaults,
    choose_target,
    require_env,
    shown_env,
)
from hypothesis_mcp.errors import HypothesisMCPError, ServerStartError, UsageError
from hypothesis_mcp.gates import EXIT_BLOCKING, EXIT_INTERRUPTED, EXIT_OK, EXIT_START, EXIT_TERMINATED, EXIT_USAGE
from hypothesis_mcp.loading import collector_paused
from hypothesis_mcp.outpaths import check_outputs

if TYPE_CHECKING:
    from hypothesis_mcp.connection import Outcome
    from hypothesis_mcp.results import Call

app = typer.Typer(
    name="hypothesis-mcp",
    help="Property-based testing for MCP servers: generated arguments, effect probes, shrunk "
    "reproductions and a deterministic grade for CI.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings=HELP_OPTIONS,
    cls=PlainGroup,
)
err = Console(stderr=True, highlight=False)
T = TypeVar("T")

TargetArg = Annotated[
    list[str],
    typer.Argument(
        help="The server: a command (one string is split like a shell would; or put it after --) "
        "or an http(s):// URL for streamable HTTP. Or leave it out and give --config.",
        show_default=False, metavar="TARGET", rich_help_panel=panel.TARGET,
    ),
]
EnvOpt = Annotated[list[str], typer.Option("--env", metavar="NAME=VALUE", rich_help_panel=panel.TARGET,
                                           help="A variable of the server's environment.")]
HeaderOpt = Annotated[list[str], typer.Option("--header", metavar="'NAME: VALUE'", rich_help_panel=panel.TARGET,
                                              help="An HTTP header for URL targets.")]
TokenOpt = Annotated[str | None, typer.Option("--token", envvar="HYPOTHESIS_MCP_TOKEN", metavar="TOKEN",
                                              rich_help_panel=panel.TARGET, help="Bearer token (never printed).")]
TimeoutOpt = Annotated[float, typer.Option("--timeout", min=0.1, metavar="SECONDS", rich_help_panel=panel.BUDGET,
                                           help="Seconds each call may take.")]


def guarded(action: Callable[[], T]) -> T:
    """Run a command body; errors we expect become a message and an exit code, not a traceback."""
    try:
        return action()
    except ServerStartError as exc:
        err.print(f"[bold red]error:[/bold red] {escape(str(exc))}", soft_wrap=True)
        if exc.remote:
            err.print("check the URL, that the server is running and reachable, and any --header or --token.")
        elif exc.stderr.strip():
            err.print("server stderr (last lines):", style="bold")
            err.print("\n".join(exc.stderr.strip().splitlines()[-20:]), markup=False, highlight=False)
        else:
            err.print("the server wrote nothing to stderr.")
        raise typer.Exit(EXIT_START) from None
    except UsageError as exc:
        err.print(f"[bold red]error:[/bold red] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(EXIT_USAGE) from None
    except HypothesisMCPError as exc:  # a catalog that cannot be read whole too
        err.print(f"[bold red]error:[/bold red] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(EXIT_START) from None
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(by_signal(EXIT_INTERRUPTED)) from None


def by_signal(code: int) -> int:
    """An interrupted run's code says which signal stopped it: 130 for Ctrl-C, 143 for SIGTERM."""
    return EXIT_TERMINATED if code == EXIT_INTERRUPTED and _terminated else code


def write_text(text: str, destination: str) -> None:
    """A document to a file, or to stdout for `-` (then nothing else is written there)."""
    if destination == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        Path(destination).write_text(text, encoding="utf-8")


def write_json(data: Any, destination: str) -> None:
    write_text(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n", destination)


@app.command(cls=PlainCommand, epilog=DEFAULTS)
def tools(
    target: TargetArg = [],  # noqa: B006
    as_json: Annotated[bool, typer.Option("--json", metavar="", rich_help_panel=panel.OUTPUTS,
                                          help="Print the catalog as JSON.")] = False,
    client_config: ConfigOpt = None,
    server: ServerOpt = None,
    env: EnvOpt = [],  # noqa: B006
    header: HeaderOpt = [],  # noqa: B006
    token: TokenOpt = None,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """List the server's tools with their roles, key fields, bound parameters and annotations."""

    def body() -> None:
        with collector_paused(freeze=True):
            from hypothesis_mcp.connection import Connection
            from hypothesis_mcp.report.catalog import catalog_json, print_catalog
            from hypothesis_mcp.report.console import report_console
        the_target = choose_target(target, client_config, server, env=env, header=header, token=token)
        with Connection(the_target, timeout=timeout, startup_timeout=timeout) as conn:
            catalog = conn.list_tools()
            if as_json:
                write_json(catalog_json(catalog, conn.server), "-")
            else:
                print_catalog(report_console(), catalog, conn.server)

    guarded(body)


@app.command(cls=PlainCommand, epilog=DEFAULTS)
def learn(
    target: TargetArg = [],  # noqa: B006
    allow_writes: Annotated[bool, typer.Option("--allow-writes", metavar="", rich_help_panel=panel.WRITES,
                                               help="Run the calibration experiments (they write; use a "
                                               "disposable server).")] = False,
    allow_deletes: Annotated[bool, typer.Option("--allow-deletes", metavar="", rich_help_panel=panel.WRITES,
                                                help="With --allow-writes: let the experiments call tools that "
                                                "may delete (by their names or annotations).")] = False,
    json_out: Annotated[str | None, typer.Option("--json", metavar="FILE", rich_help_panel=panel.OUTPUTS,
                                                 help="Write what was learned as JSON (- for stdout).")] = None,
    write_config: Annotated[str | None, typer.Option("--write-config", metavar="FILE", rich_help_panel=panel.OUTPUTS,
                                                     help="Write a probe config stating what calibration "
                                                     "showed.")] = None,
    client_config: ConfigOpt = None,
    server: ServerOpt = None,
    env: EnvOpt = [],  # noqa: B006
    header: HeaderOpt = [],  # noqa: B006
    token: TokenOpt = None,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """What the run knows of the server: each tool's role and identity, and with --allow-writes what
    calibration showed (readers, overwrite behaviour, refusals), each marked shown or guessed."""

    def body() -> None:
        with collector_paused(freeze=True):
            from hypothesis_mcp import learn as learning
        check_outputs([("--json", json_out), ("--write-config", write_config)])
        the_target = choose_target(target, client_config, server, env=env, header=header, token=token)
        learned = learning.learn(the_target, allow_writes=allow_writes, allow_deletes=allow_deletes,
                                 timeout=timeout)
        out = err if json_out == "-" else Console(highlight=False)
        learning.print_learned(learned, lambda line: out.print(line, markup=False, highlight=False, soft_wrap=True))
        if json_out is not None:
            write_json(learning.learned_json(learned), json_out)
        if write_config is not None:
            write_text(learning.probe_config(learned), write_config)

    guarded(body)


def _flag(name: str, help_text: str, where: str, *short: str) -> Any:
    """A switch: no placeholder after it in the help."""
    return typer.Option(name, *short, metavar="", rich_help_panel=where, help=help_text)


@app.command(cls=PlainCommand, epilog=TEST_EPILOG)
def test(
    ctx: typer.Context,
    target: TargetArg = [],  # noqa: B006
    client_config: ConfigOpt = None,
    server: ServerOpt = None,
    env: EnvOpt = [],  # noqa: B006
    header: HeaderOpt = [],  # noqa: B006
    token: TokenOpt = None,
    smoke: Annotated[bool, _flag("--smoke", "Also run the smoke checks (tools/call).", panel.CHECKS)] = False,
    call_all: Annotated[bool, _flag("--call-all", "Smoke: call every tool, not only readOnlyHint: true ones.",
                                    panel.CHECKS)] = False,
    probes: Annotated[bool, _flag("--probes", "Run effect probes (read-only unless --allow-writes).",
                                  panel.CHECKS)] = False,
    probe_config: Annotated[Path | None, typer.Option("--probe-config", metavar="FILE", rich_help_panel=panel.CHECKS,
                                                      help="YAML or JSON probe config.")] = None,
    strategy: Annotated[str | None, typer.Option("--strategy", metavar="NAME|FILE", rich_help_panel=panel.CHECKS,
                                                 help="A shipped strategy by name (e.g. server-memory) or a "
                                                 "strategy file: probe config plus server environment.")] = None,
    arg: Annotated[list[str], typer.Option("--arg", metavar="[TOOL:]NAME=VALUE", rich_help_panel=panel.CHECKS,
                                           help="An argument value (JSON when it parses).")] = [],  # noqa: B006
    args_file: Annotated[Path | None, typer.Option("--args-file", metavar="FILE", rich_help_panel=panel.CHECKS,
                                                   help="YAML/JSON {'*': {...}, TOOL: {...}}.")] = None,
    allow_invalid_args: Annotated[bool, _flag("--allow-invalid-args", "Send --arg/--args-file values the "
                                              "inputSchema forbids (else exit 2); a refusal of them is no "
                                              "finding.", panel.CHECKS)] = False,
    include_tool: Annotated[list[str], typer.Option("--include-tool", metavar="GLOB", rich_help_panel=panel.CHECKS,
                                                    help="Test only the tools whose name matches (repeatable; "
                                                    "*, ? and [...] as in a shell).")] = [],  # noqa: B006
    exclude_tool: Annotated[list[str], typer.Option("--exclude-tool", metavar="GLOB", rich_help_panel=panel.CHECKS,
                                                    help="Leave out the tools whose name matches, from every check "
                                                    "and probe (repeatable).")] = [],  # noqa: B006
    allow_writes: Annotated[bool, _flag("--allow-writes", "Let probes call write tools. Point them at a "
                                        "disposable server.", panel.WRITES)] = False,
    allow_deletes: Annotated[bool, _flag("--allow-deletes", "With --allow-writes: let the deletes probe call "
                                         "deleting tools, only on records the run itself wrote.",
                                         panel.WRITES)] = False,
    read_only: Annotated[bool, _flag("--read-only", "Scenarios call read-only tools only.", panel.WRITES)] = False,
    profile: Annotated[str, typer.Option("--profile", metavar="NAME", rich_help_panel=panel.BUDGET,
                                         help="grading (deterministic), default or thorough.")] = "default",
    seed: Annotated[str | None, typer.Option("--seed", metavar="N", rich_help_panel=panel.BUDGET,
                                             help="Make any profile repeatable.")] = None,
    max_examples: Annotated[int | None, typer.Option("--max-examples", metavar="N", rich_help_panel=panel.BUDGET,
                                                     help="Random examples per tool and check; the fixed breaker "
                                                     "values (docs/strategies.md) are sent before them, on "
                                                     "top.")] = None,
    timeout: TimeoutOpt = 30.0,
    max_time: Annotated[float | None, typer.Option("--max-time", metavar="SECONDS", rich_help_panel=panel.BUDGET,
                                                   help="Stop starting new checks after this long.")] = None,
    workers: Annotated[str, typer.Option("--workers", metavar="N|auto", rich_help_panel=panel.BUDGET,
                                         help="Run different tools' checks in parallel on this many separate "
                                         "server processes (auto: one per usable core); same results as "
                                         "1.")] = "1",
    json_out: Annotated[str | None, typer.Option("--json", metavar="FILE", rich_help_panel=panel.OUTPUTS,
                                                 help="Write the JSON report to FILE (- for stdout).")] = None,
    junit: Annotated[str | None, typer.Option("--junit", metavar="FILE", rich_help_panel=panel.OUTPUTS,
                                              help="Write JUnit XML to FILE (- for stdout).")] = None,
    markdown: Annotated[str | None, typer.Option("--markdown", metavar="FILE", rich_help_panel=panel.OUTPUTS,
                                                 help="Write a Markdown summary to FILE (- for stdout).")] = None,
    sarif: SarifOpt = None,
    all_servers: Annotated[bool, _flag("--all", "Grade every server of --config (a client config, or a file of "
                                       "targets, one per line), each as alone, into one combined report; exit "
                                       "with the worst server's code.", panel.TARGET)] = False,
    shard: Annotated[str | None, typer.Option("--shard", metavar="I/N", rich_help_panel=panel.TARGET,
                                              help="With --all: grade only shard I of N, split by server name; "
                                              "combine the shards' JSON with merge.")] = None,
    annotations: Annotated[str | None, typer.Option("--annotations", metavar="github", rich_help_panel=panel.OUTPUTS,
                                                    help="Print a GitHub workflow command (::error, ::warning) "
                                                    "per finding, at the file and line that declare the "
                                                    "server.")] = None,
    badge: Annotated[Path | None, typer.Option("--badge", metavar="FILE", rich_help_panel=panel.OUTPUTS,
                                               help="Write a badge: .svg, or .json for a shields endpoint.")] = None,
    emit_tests_dir: Annotated[Path | None, typer.Option("--emit-tests", metavar="DIR", rich_help_panel=panel.OUTPUTS,
                                                        help="Write one pytest file per failure that replays its "
                                                        "reproduction.")] = None,
    quiet: Annotated[bool, _flag("--quiet", "Print only the gate line: no progress, no report (files are still "
                                 "written).", panel.OUTPUTS, "-q")] = False,
    verbose: Annotated[bool, _flag("--verbose", "Also print every check: the per-kind tables, each smoke, resource "
                                   "and prompt check, and a progress line per tool.", panel.OUTPUTS, "-v")] = False,
    ci: Annotated[bool, _flag("--ci", "Grading profile and every gate: a partial run exits 1 too.",
                              panel.GATES)] = False,
    exit_zero: Annotated[bool, _flag("--exit-zero", "Report only: exit 0 whatever the checks found (the gate "
                                     "line still names what failed).", panel.GATES)] = False,
    fail_under: Annotated[str | None, typer.Option("--fail-under", metavar="GRADE|PERCENT",
                                                   rich_help_panel=panel.GATES,
                                                   help="Exit 3 below this grade letter or percentage.")] = None,
    ignore: Annotated[list[str], typer.Option("--ignore", metavar="RULE[:TOOL]", rich_help_panel=panel.GATES,
                                              help="Waive a rule (on one tool): the result is shown as waived, "
                                              "never gates and never counts in the score.")] = [],  # noqa: B006
    no_probe_grade_cap: Annotated[bool, _flag("--no-probe-grade-cap", "A probe failure does not cap the grade "
                                              "(a crash or unexercised writes still do).", panel.GATES)] = False,
) -> None:
    """Test a server: lint, happy and edge scenarios, and optionally smoke checks and effect probes."""

    def body() -> int:
        # What a run needs loads at once, with the collector paused (loading.py says why).
        with collector_paused(freeze=True):
            from hypothesis_mcp.cli_targets import declared_at, write_sarif
            from hypothesis_mcp.emit import emit_tests
            from hypothesis_mcp.engine import RunOptions, run
            from hypothesis_mcp.gates import exit_code, gate_line, parse_fail_under
            from hypothesis_mcp.profiles import make_profile
            from hypothesis_mcp.progress import progress_display
            from hypothesis_mcp.report.annotations import render_github
            from hypothesis_mcp.report.badge import render_badge_json, render_badge_svg
            from hypothesis_mcp.report.console import render_console, report_console
            from hypothesis_mcp.report.json_report import render_json
            from hypothesis_mcp.report.junit import render_junit
            from hypothesis_mcp.report.markdown import render_markdown
            from hypothesis_mcp.search.lanes import parse_workers
            from hypothesis_mcp.shipped import load_strategy
            from hypothesis_mcp.stateful.config import load_config
            from hypothesis_mcp.strategies import Overrides
            from hypothesis_mcp.waivers import parse_waiver
        if not quiet:
            announce_defaults(ctx, err)
        if shard is not None and not all_servers:
            raise UsageError("--shard splits the servers of --all; give --all too")
        if all_servers:
            from hypothesis_mcp.cli_fleet import per_server_flags
            per_server_flags({"--strategy": strategy, "--probe-config": probe_config, "--arg": arg,
                              "--args-file": args_file, "--badge": badge, "--emit-tests": emit_tests_dir})
        gate = parse_fail_under(fail_under)
        to_stdout = [flag for flag, value in (("--json", json_out), ("--junit", junit), ("--markdown", markdown))
                     if value == "-"]
        if annotations is not None and annotations not in ANNOTATION_FORMATS:
            raise UsageError(f"--annotations takes {', '.join(ANNOTATION_FORMATS)}, not {annotations!r}")
        if annotations and to_stdout:
            to_stdout.append("--annotations")
        if len(to_stdout) > 1:
            raise UsageError(f"only one output can go to stdout (-), not {' and '.join(to_stdout)}")
        check_outputs([("--json", json_out), ("--junit", junit), ("--markdown", markdown), ("--sarif", sarif),
                       ("--badge", badge)], [("--emit-tests", emit_tests_dir)])
        waivers = [parse_waiver(text, "--ignore") for text in ignore]
        overrides = Overrides.parse(list(arg), str(args_file) if args_file else None)
        if probe_config and strategy:
            raise UsageError("give --probe-config or --strategy, not both (a strategy is a probe config)")
        shipped = load_strategy(strategy) if strategy else None
        config = load_config(probe_config) if probe_config else (shipped.config if shipped else None)
        if ci and profile != "grading" and _given(ctx, "profile"):
            raise UsageError(f"--ci grades with the grading profile (deterministic); leave out --profile {profile}, "
                             "or --ci")
        chosen = make_profile("grading" if ci else profile, seed=_whole(seed, "--seed"), max_examples=max_examples)
        options = RunOptions(
            profile=chosen, smoke=smoke, call_all=call_all, probes=probes or probe_config is not None,
            allow_writes=allow_writes, allow_deletes=allow_deletes, probe_config=config, overrides=overrides,
            allow_invalid_args=allow_invalid_args, read_only=read_only,
            probe_grade_cap=not no_probe_grade_cap, timeout=timeout, startup_timeout=timeout,
            max_time=max_time, workers=parse_workers(workers), waivers=waivers, include_tools=list(include_tool),
            exclude_tools=list(exclude_tool),
        )
        if chosen.seed is not None and chosen.name != "grading" and not quiet:
            err.print(f"profile {chosen.name}, seed {chosen.seed} (repeat with --seed {chosen.seed})")
        if all_servers:
            from hypothesis_mcp.cli_fleet import Outputs, run_fleet
            return run_fleet(client_config, shard, target, server, options, gate, ci=ci, exit_zero=exit_zero,
                             quiet=quiet, err=err, outputs=Outputs(json_out, junit, markdown, sarif),
                             write_text=write_text)
        the_target = choose_target(target, client_config, server, env=env, header=header, token=token)
        from hypothesis_mcp.connection.target import parse_pairs
        typed_env = {**(shipped.env if shipped else {}), **parse_pairs(env, "=", "--env")}
        if shipped and shipped.env and not the_target.is_url:
            the_target = dataclasses.replace(the_target, env={**shipped.env, **the_target.env})
        with progress_display(err, quiet=quiet, verbose=verbose) as progress:
            report = run(the_target, options, progress)
        code = exit_code(report, gate, ci=ci, exit_zero=exit_zero)
        verdict = gate_line(report, gate, fail_under, ci=ci, exit_zero=exit_zero)
        # With a document on stdout, the people's report goes to stderr.
        console = report_console(stderr=bool(to_stdout))
        if not quiet:
            render_console(report, console, report_path=json_out if json_out != "-" else None, verbose=verbose,
                           server_env=None if the_target.is_url else shown_env(the_target.env, typed_env))
        if json_out:
            write_text(render_json(report), json_out)
        if junit:
            write_text(render_junit(report), junit)
        if sarif:
            write_sarif(ctx, report, sarif, config=client_config, server=server)
        if annotations:
            sys.stdout.write(render_github(report, declared_at(ctx, report, config=client_config, server=server)))
            sys.stdout.flush()
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
        console.print(verdict, markup=False, soft_wrap=True,
                      style="bold green" if verdict.startswith("Gates passed") else "bold red")
        return code

    raise typer.Exit(by_signal(guarded(body)))


@app.command(cls=PlainCommand, epilog=DEFAULTS)
def replay(
    report_file: Annotated[Path, typer.Argument(help="A JSON report written with --json.", metavar="REPORT.json")],
    result_id: Annotated[str | None, typer.Option("--result", metavar="ID", help="The result id to replay "
                                                  "(default: every failure with a reproduction).")] = None,
    target: Annotated[str | None, typer.Option("--target", metavar="TARGET", rich_help_panel=panel.TARGET,
                                               help="Server to replay against (default: the report's "
                                               "target).")] = None,
    emit_tests_dir: Annotated[Path | None, typer.Option("--emit-tests", metavar="DIR", rich_help_panel=panel.OUTPUTS,
                                                        help="Instead of replaying, write one pytest file per "
                                                        "chosen result to DIR.")] = None,
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
        with collector_paused(freeze=True):
            from hypothesis_mcp.emit import emit_tests
            from hypothesis_mcp.replay import replay as run_replay
            from hypothesis_mcp.report.json_report import load_report
            from hypothesis_mcp.results import Result
            from hypothesis_mcp.suggest import closest
        check_outputs([], [("--emit-tests", emit_tests_dir)])
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
        console = Console(highlight=False, soft_wrap=True)  # JSON is never split: a terminal or a log viewer wraps
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


@app.command(cls=PlainCommand)
def merge(
    reports: Annotated[list[Path], typer.Argument(help="Combined JSON reports of `test --all --shard I/N` runs.",
                                                  metavar="REPORT.json...")],
    json_out: Annotated[str | None, typer.Option("--json", metavar="FILE", help="Write the merged JSON report to "
                                                 "FILE (- for stdout).")] = None,
    markdown: Annotated[str | None, typer.Option("--markdown", metavar="FILE", help="Write the Markdown "
                                                 "leaderboard to FILE (- for stdout).")] = None,
    ci: Annotated[bool, _flag("--ci", "Also write the leaderboard to $GITHUB_STEP_SUMMARY.", "Options")] = False,
    quiet: Annotated[bool, _flag("--quiet", "Print only the gate line.", "Options", "-q")] = False,
) -> None:
    """Combine shard reports into the report one `test --all` run writes; exit with the worst server's code."""

    def body() -> int:
        from hypothesis_mcp.cli_fleet import show_fleet, write_summary
        from hypothesis_mcp.fleet import merge as merge_reports
        from hypothesis_mcp.report.console import report_console

        if json_out == "-" and markdown == "-":
            raise UsageError("only one output can go to stdout (-), not --json and --markdown")
        check_outputs([("--json", json_out), ("--markdown", markdown)])
        document = merge_reports(list(reports))
        if json_out:
            write_json(document, json_out)
        write_summary(document, markdown, ci=ci, write_text=write_text)
        show_fleet(document, report_console(stderr="-" in (json_out, markdown)), quiet=quiet)
        return int(document["exit"])

    raise typer.Exit(guarded(body))


def _given(ctx: typer.Context, name: str) -> bool:
    """The option was typed on the command line (not a default, nor a project default)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


def _whole(text: str | None, flag: str) -> int | None:
    """A whole number option, read here so a bad one is reported like every other usage error."""
    if text is None:
        return None
    try:
        return int(str(text).strip())
    except ValueError:
        raise UsageError(f"{flag} takes a whole number, not {text!r}") from None


def version_callback(value: bool) -> None:
    if value:
        from hypothesis_mcp.version import version_line

        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=version_callback, is_eager=True, metavar="",
                           help="Show the version.")
    ] = False,
) -> None:
    """Property-based testing for MCP servers. Defaults for every option can live in
    [tool.hypothesis-mcp] of pyproject.toml (or hypothesis-mcp.toml); flags win."""
    guarded(lambda: apply_project_defaults(ctx))


_terminated: list[int] = []
"""SIGTERM was received (the exit code is then 143, not Ctrl-C's 130)."""


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM takes the Ctrl-C path: servers stopped, a partial report written."""
    _terminated.append(signum)
    raise KeyboardInterrupt


def main() -> None:
    signal.signal(signal.SIGTERM, _terminate)
    app()
