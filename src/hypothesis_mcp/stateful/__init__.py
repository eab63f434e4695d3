"""Effect probes as Hypothesis state machines, for the CLI and for a user's own suite.

    TestNotes = effect_machine("python -m hypothesis_mcp.sample_server", write="create_note").TestCase
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from hypothesis.stateful import RuleBasedStateMachine

from hypothesis_mcp.connection import Connection, Target, parse_target
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.search.pool import ServerPool
from hypothesis_mcp.stateful.config import ProbeConfig, load_config, parse_config
from hypothesis_mcp.stateful.context import ProbeContext
from hypothesis_mcp.stateful.judge import ProbeFailure, ProbeFinding
from hypothesis_mcp.stateful.machine import build_machine
from hypothesis_mcp.stateful.probes import base_arguments
from hypothesis_mcp.stateful.readers import choose_readers
from hypothesis_mcp.stateful.suite import shown_failure, shrinking_warm

__all__ = [
    "ProbeConfig", "ProbeFailure", "ProbeFinding", "ServerPool", "effect_machine", "load_config", "parse_config",
]


def effect_machine(
    target: str | Sequence[str] | Target,
    *,
    write: str,
    read: str | None = None,
    key: str | None = None,
    timeout: float = 30.0,
    config: ProbeConfig | None = None,
) -> type[RuleBasedStateMachine]:
    """A state machine that writes through `write` and checks round trip, overwrite and data loss.

    Every example runs on a fresh server process (shared for a URL) that is stopped when the
    example ends; once one fails, Hypothesis shrinks it on one warm server and replays the shrunk
    steps, the ones it prints, on a fresh one. Settings come from the
    active Hypothesis profile, so `--hypothesis-profile` and `--hypothesis-seed` apply. Writing is
    the point of this machine: point it at a disposable server.
    """
    caller = sys._getframe(1)
    site = f"{shown_path(caller.f_code.co_filename)}:{caller.f_lineno}"
    the_target = parse_target(target)
    config = config or ProbeConfig()
    with Connection(the_target, timeout=timeout) as conn:
        tools = conn.list_tools()
    by_name = {t.name: t for t in tools}
    if write not in by_name:
        raise KeyError(f"the server has no tool named {write!r}; it has {sorted(by_name)}")
    if read is not None and read not in by_name:
        raise KeyError(f"the server has no tool named {read!r}; it has {sorted(by_name)}")
    tool = by_name[write]
    pair = config.pair_for(write)
    readers = choose_readers(tool, tools, pair, set(config.exclude))
    if read is not None:
        readers = [r for r in readers if r.tool.name == read] or readers
    key_fields = [key] if key else (pair.key if pair and pair.key else profile(tool).key_fields)
    ctx = ProbeContext(
        pool=ServerPool(the_target, timeout=timeout, spares=0), write=tool, readers=readers,
        key_path=key_fields[0] if key_fields else None,
        base_args={r.tool.name: base_arguments(r.tool, None, config) for r in readers},
        bounds=[(r.tool, b) for r in readers for b in profile(r.tool).bounds if b.kind == "limit"],
        shrink_runs=10**9, give_up_after=None, open_many=False,
        shown=lambda finding: shown_failure(finding, the_target.describe(), site),
    )
    return shrinking_warm(build_machine(ctx), ctx, (caller.f_code.co_filename, caller.f_lineno))


def shown_path(filename: str) -> str:
    """A source file as pytest names it: relative to the working folder when under it."""
    path = Path(filename)
    return str(path.relative_to(Path.cwd())) if path.is_relative_to(Path.cwd()) else filename
