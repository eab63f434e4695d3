"""Five stateful public PyPI stores the engine was never tuned on, graded with smoke, probes and writes
in a throw-away folder per process ({tmpdir}), with their shipped strategies. Every finding they get
is listed here and explained in docs/real-servers.md; none is a false alarm.

The servers sit in venvs of their own (scripts/install-pypi-stores). Each run uses a smaller
max_examples than the grading profile's so that the five stay within a couple of minutes.
"""

from __future__ import annotations

from typing import Any

import pytest

from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.engine import RunOptions, run
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.results import Report
from hypothesis_mcp.shipped import load_strategy
from public_servers import PYPI, not_passed

pytestmark = pytest.mark.slow

UNKNOWN_TOOL = ("server", "smoke_unknown_tool", "fail", "high")


def store(package: str, version: str, script: str, *args: str) -> list[str]:
    path = PYPI / f"{package}@{version}" / "bin" / script
    if not path.is_file():
        pytest.skip(f"{package}=={version} is not installed: run scripts/install-pypi-stores")
    return [str(path), *args]


def graded(argv: list[str], strategy: str, max_examples: int) -> Report:
    shipped = load_strategy(strategy)
    target = parse_target(argv, env=shipped.env)
    options: Any = dict(smoke=True, probes=True, allow_writes=True)
    return run(target, RunOptions(profile=make_profile("grading", max_examples=max_examples),
                                  probe_config=shipped.config, **options))


def probe_verdicts(report: Report) -> dict[str, tuple[str, str]]:
    """Round-trip verdict per write tool: (status, first words of the message)."""
    return {r.tool: (r.status, r.message) for r in report.results if r.kind == "probe" and r.check == "round-trip"}
