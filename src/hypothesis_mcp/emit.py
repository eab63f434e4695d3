"""Regression tests from failures: one small pytest file per failure that replays its reproduction.

The file holds the result as a readable Python literal and the calls as the few lines of Python a
user would type (`snippet.py`); a test that still fails says which calls and answers, not a dump."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from pathlib import Path

from hypothesis_mcp.results import Result
from hypothesis_mcp.snippet import literal, program

TEMPLATE = '''"""Regression test written by hypothesis-mcp for {rule} on {tool}.

{message}

Replays the minimal reproduction on a fresh server and asserts the property holds again. By hand:

{snippet}

Set HYPOTHESIS_MCP_TARGET to point it at another server command or URL. The run set SERVER_ENV
for the server (names only): a server command starts only where each is set, and gets them;
otherwise the test is skipped (a value may hold {{tmpdir}}, a new folder per server process).
"""

import os

import pytest

from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Result

TARGET = os.environ.get("HYPOTHESIS_MCP_TARGET", {target})
SERVER_ENV = {server_env}
RESULT = Result.from_dict({result})


def test_{name}() -> None:
    target = parse_target(TARGET)
    if not target.is_url:
        missing = [name for name in SERVER_ENV if name not in os.environ]
        if missing:
            pytest.skip(f"the run set {{', '.join(missing)}} for the server, and this process does not: the "
                        "server would start in another environment (a default data file, the real home "
                        f"directory); export {{', '.join(missing)}} to run it")
        target = parse_target(TARGET, env={{name: os.environ[name] for name in SERVER_ENV}})
    done = replay(RESULT, target)
    if done.unconfirmed:
        pytest.skip(done.verdict)
    if done.still_fails:
        steps = "".join(f"\\n  {{call.describe()}}\\n    -> {{outcome.summary()}}" for call, outcome in done.steps)
        pytest.fail(f"{{RESULT.rule}} on {{RESULT.subject}} still fails: {{done.verdict}}{{steps}}", pytrace=False)
'''


def test_name(result: Result) -> str:
    raw = result.id or f"{result.rule}_{result.tool or 'server'}"
    return re.sub(r"[^0-9a-zA-Z_]+", "_", raw).strip("_").lower()


def file_name(result: Result, target: str, folder: Path) -> str:
    """`test_<id>_<digest>.py`. pytest imports a test file outside a package by its basename, so the
    digest (of the target and the folder) keeps the files of two folders apart in one session."""
    digest = hashlib.sha256(f"{target}\n{folder.resolve()}".encode()).hexdigest()[:8]
    return f"test_{test_name(result)}_{digest}.py"


def emit_tests(results: list[Result], target: str, folder: Path, *, only_failures: bool = True,
               server_env: Sequence[str] = ()) -> list[Path]:
    """Write `test_<id>_<digest>.py` for every failure or warning that has a reproduction (with
    `only_failures=False`, for every given result that has one: a result the user picked). A test
    runs its server with the run's environment names (`server_env`) set, and is skipped without."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for result in results:
        if result.reproduction is None or not result.reproduction.calls or result.kind == "incident":
            continue
        if only_failures and result.status not in ("fail", "warn"):
            continue
        name = test_name(result)
        path = folder / file_name(result, target, folder)
        lines = program(result, target, env=dict.fromkeys(sorted(server_env)))
        snippet = "\n".join(f"    {line}" for line in lines)
        path.write_text(TEMPLATE.format(
            rule=result.rule, tool=result.tool or "the server", message=_in_docstring(result.message),
            snippet=_in_docstring(snippet), target=literal(target), server_env=literal(sorted(server_env)),
            result=literal(result.to_dict(), indent=4), name=name,
        ), encoding="utf-8")
        written.append(path)
    return written


def _in_docstring(text: str) -> str:
    """Text that reads the same inside the docstring: no escape sequence, no end of it."""
    return text.replace("\\", "\\\\").replace('"""', "'''")
