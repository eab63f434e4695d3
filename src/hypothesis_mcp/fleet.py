"""A fleet: every server of a client config (or of a list of targets) graded one by one, each
exactly as it is graded alone, and their reports combined into one.

A server's draws come from the run's seed and each search's own scope (search/seeding.py), never
from its place in the fleet, so its report in a fleet, on any shard, is the report it gets alone.
A server that cannot be graded (it does not start, its config entry is wrong) becomes its row with
the exit code a run of it alone gives, and the others still run.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis_mcp.clientconfig import read_servers, target_from_config
from hypothesis_mcp.connection import Target, parse_target
from hypothesis_mcp.engine import RunOptions, run
from hypothesis_mcp.errors import HypothesisMCPError, ServerStartError, UsageError
from hypothesis_mcp.events import Events
from hypothesis_mcp.gates import EXIT_START, EXIT_USAGE, Gate, exit_code, worst
from hypothesis_mcp.results import ServerGrade
from hypothesis_mcp.version import __version__

FLEET_KIND = "fleet"
_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True)
class Member:
    """One server of the fleet: its target, or why its entry gives none."""

    name: str
    target: Target | None
    shown: str
    problem: str | None = None


def is_client_config(path: Path) -> bool:
    """A client config is a JSON object; anything else is a list of targets, one per line."""
    try:
        return path.read_text(encoding="utf-8").lstrip().startswith("{")
    except OSError as exc:
        raise UsageError(f"cannot read --config {path}: {exc.strerror or exc}") from None


def load_members(path: Path) -> list[Member]:
    """The servers a file names: a client config's entries by name, or a list file's lines (blank
    lines and `#` comments skipped), each line a target as `hypothesis-mcp test` takes it."""
    if is_client_config(path):
        members = []
        for name, entry in read_servers(path).items():
            words = [entry.get("command"), *(entry.get("args") or [])]
            shown = str(entry.get("url") or " ".join(str(w) for w in words))
            try:
                members.append(Member(name, target_from_config(path, name), shown))
            except UsageError as exc:
                members.append(Member(name, None, shown, str(exc)))
    else:
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
        names = [line for line in lines if line and not line.startswith("#")]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise UsageError(f"--config {path} lists the same target twice: {', '.join(twice)}")
        members = []
        for name in names:
            try:
                members.append(Member(name, parse_target(name), name))
            except UsageError as exc:
                members.append(Member(name, None, name, str(exc)))
    if not members:
        raise UsageError(f"--config {path} names no server")
    return members


def parse_shard(text: str) -> tuple[int, int]:
    """`I/N` (1 <= I <= N): this run grades the I-th of N shards."""
    match = _SHARD.match(text)
    if match is None:
        raise UsageError(f"--shard takes I/N, for example 2/3, not {text!r}")
    index, count = int(match.group(1)), int(match.group(2))
    if not 1 <= index <= count:
        raise UsageError(f"--shard {text}: I must be between 1 and N")
    return index, count


def shard_of(name: str, count: int) -> int:
    """The shard (1..count) a server belongs to, from its name alone: the same on every machine,
    and adding a server never moves another."""
    return 1 + int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") % count


def grade_member(member: Member, options: RunOptions, gate: Gate | None, *, ci: bool, exit_zero: bool = False,
                 events: Events | None = None) -> ServerGrade:
    """One server's run, its exit code as a run of it alone would have it."""
    if member.target is None:
        return ServerGrade(member.name, member.shown, EXIT_USAGE, error=member.problem)
    shown = member.target.describe()
    try:
        report = run(member.target, options, events)
    except UsageError as exc:
        return ServerGrade(member.name, shown, EXIT_USAGE, error=str(exc))
    except ServerStartError as exc:
        said = exc.stderr.strip().splitlines()[-3:]
        tail = f" (server stderr, last lines: {' / '.join(said)})" if said and not exc.remote else ""
        return ServerGrade(member.name, shown, EXIT_START, error=f"{exc}{tail}")
    except HypothesisMCPError as exc:
        return ServerGrade(member.name, shown, EXIT_START, error=str(exc))
    return ServerGrade(member.name, shown, exit_code(report, gate, ci=ci, exit_zero=exit_zero), report)


def combined(servers: list[dict[str, Any]]) -> dict[str, Any]:
    """The combined JSON report: each server's row with its full report, by name, and the worst
    exit code; shards merged give the same document as one run over all servers."""
    rows = sorted(servers, key=lambda row: str(row["name"]))
    return {"schema_version": 1, "kind": FLEET_KIND, "tool": {"name": "hypothesis-mcp", "version": __version__},
            "exit": worst(int(row["exit"]) for row in rows), "servers": rows}


def fleet_report(grades: list[ServerGrade]) -> dict[str, Any]:
    return combined([g.to_dict() for g in grades])


def load_fleet_report(path: Path) -> dict[str, Any]:
    """A combined report written by `test --all`, or a UsageError saying what it is not."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"report file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read report {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not isinstance(data, dict) or data.get("kind") != FLEET_KIND or not isinstance(data.get("servers"), list):
        raise UsageError(f"{path} is not a combined report of `hypothesis-mcp test --all` (no kind: fleet and "
                         "servers list)")
    if data.get("schema_version") != 1:
        raise UsageError(f"{path} has schema_version {data.get('schema_version')!r}; this version reads 1")
    return data


def merge(paths: list[Path]) -> dict[str, Any]:
    """Shard reports as one combined report; a server in two of them is a usage error."""
    if not paths:
        raise UsageError("merge needs at least one REPORT.json")
    rows: list[dict[str, Any]] = []
    seen: dict[str, Path] = {}
    for path in paths:
        for row in load_fleet_report(path)["servers"]:
            name = str(row.get("name"))
            if name in seen:
                raise UsageError(f"server {name!r} is in both {seen[name]} and {path}: merge shards of one run, "
                                 "each once")
            seen[name] = path
            rows.append(row)
    return combined(rows)
