"""`hypothesis-mcp test --all` and `merge`: the command line's fleet front, kept out of cli.py so its
commands stay thin. Grading and combining are in fleet.py; the combined formats in report/fleet.py."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from hypothesis_mcp.engine import RunOptions
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.fleet import (
    Member,
    fleet_report,
    grade_member,
    is_client_config,
    load_members,
    parse_shard,
    shard_of,
)
from hypothesis_mcp.gates import EXIT_OK, Gate
from hypothesis_mcp.progress import progress_display
from hypothesis_mcp.report.console import report_console
from hypothesis_mcp.report.fleet import (
    render_fleet_console,
    render_fleet_junit,
    render_fleet_markdown,
    render_fleet_sarif,
)
from hypothesis_mcp.report.sarif import Location, locate
from hypothesis_mcp.results import ServerGrade
from hypothesis_mcp.version import __version__


@dataclass(frozen=True)
class Outputs:
    """Where the combined report goes; `-` is stdout, for one of them."""

    json: str | None = None
    junit: str | None = None
    markdown: str | None = None
    sarif: Path | None = None


def per_server_flags(given: dict[str, object]) -> None:
    """Flags that name one server's tools or write one server's files make no sense for a fleet."""
    wrong = [flag for flag, value in given.items() if value]
    if wrong:
        raise UsageError(f"{', '.join(wrong)} belong{'s' if len(wrong) == 1 else ''} to one server; "
                         "with --all give each server's run its own command instead")


def chosen_members(config: Path | None, shard: str | None, target: list[str],
                   server: str | None) -> tuple[Path, list[Member]]:
    """The config file and the servers of it this run grades (those of its shard, with --shard)."""
    if config is None:
        raise UsageError("--all grades every server of --config FILE (a client config or a list of targets); "
                         "give --config")
    if target or server:
        raise UsageError("--all grades every server of --config; give no TARGET and no --server")
    members = load_members(config)
    if shard is None:
        return config, members
    index, count = parse_shard(shard)
    return config, [m for m in members if shard_of(m.name, count) == index]


def grade_all(members: list[Member], options: RunOptions, gate: Gate | None, *, ci: bool, exit_zero: bool,
              err: Console, quiet: bool) -> list[ServerGrade]:
    grades = []
    for place, member in enumerate(members, 1):
        if not quiet:
            err.print(f"[{place}/{len(members)}] {member.name}", markup=False, highlight=False)
        with progress_display(err, quiet=quiet) as progress:
            grades.append(grade_member(member, options, gate, ci=ci, exit_zero=exit_zero, events=progress))
    return grades


def run_fleet(config_file: Path | None, shard: str | None, target: list[str], server: str | None,
              options: RunOptions, gate: Gate | None, *, ci: bool, exit_zero: bool, quiet: bool, err: Console,
              outputs: Outputs, write_text: Callable[[str, str], None]) -> int:
    """Grade the servers, write the combined report and return the worst exit code."""
    config, members = chosen_members(config_file, shard, target, server)
    grades = grade_all(members, options, gate, ci=ci, exit_zero=exit_zero, err=err, quiet=quiet)
    document = fleet_report(grades)
    write_outputs(grades, document, outputs, config, ci=ci, write_text=write_text)
    to_stdout = "-" in (outputs.json, outputs.junit, outputs.markdown)
    show_fleet(document, report_console(stderr=to_stdout), quiet=quiet)
    return int(document["exit"])


def write_outputs(grades: list[ServerGrade], document: dict[str, Any], outputs: Outputs, config: Path, *,
                  ci: bool, write_text: Callable[[str, str], None]) -> None:
    """Every requested combined document, and the Markdown in the step summary under --ci."""
    if outputs.json:
        write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", outputs.json)
    if outputs.junit:
        write_text(render_fleet_junit(grades), outputs.junit)
    if outputs.sarif:
        named = is_client_config(config)

        def where(grade: ServerGrade) -> Location | None:
            target = grade.report.target if grade.report else grade.target
            return locate(target, config=config if named else None, server=grade.name if named else None)

        sarif = render_fleet_sarif(grades, where, __version__)
        outputs.sarif.write_text(json.dumps(sarif, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    write_summary(document, outputs.markdown, ci=ci, write_text=write_text)


def write_summary(document: dict[str, Any], markdown: str | None, *, ci: bool,
                  write_text: Callable[[str, str], None]) -> None:
    summary = render_fleet_markdown(document)
    if markdown:
        write_text(summary, markdown)
    if ci and os.environ.get("GITHUB_STEP_SUMMARY"):
        with open(os.environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as handle:
            handle.write(summary + "\n")


def fleet_line(document: dict[str, Any]) -> str:
    """The fleet's gate line: the exit code and the servers that gave it."""
    servers = document["servers"]
    code = document["exit"]
    if code == EXIT_OK:
        return f"Gates passed — {len(servers)} server(s)"
    names = [str(s["name"]) for s in servers if s["exit"] == code]
    return f"Gate failed — exit {code}: {', '.join(names)} (of {len(servers)} server(s))"


def show_fleet(document: dict[str, Any], console: Console, *, quiet: bool) -> None:
    if not quiet:
        render_fleet_console(document, console)
    console.print(fleet_line(document), markup=False, soft_wrap=True, highlight=False)
