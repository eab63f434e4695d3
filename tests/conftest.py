"""Fixtures shared by the test modules (the functions they share are in helpers.py)."""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import helpers
import zygote

_zygotes: list[subprocess.Popen[bytes]] = []


def pytest_configure(config: pytest.Config) -> None:
    """Start the session's zygotes (tests/zygote.py) before xdist starts its workers, which inherit
    their address: one for the suite's interpreter and one for each venv under .cache/pypi (public
    servers and older SDKs). Only the suite's own is waited for: until a venv's zygote listens, its
    servers start as plain processes, so a run that uses none of them does not wait for their
    imports. A pytest run inside a test finds the address set and shares them.
    HYPOTHESIS_MCP_TEST_ZYGOTE=off starts every test server as a plain `python SCRIPT`."""
    if hasattr(config, "workerinput") or os.environ.get(zygote.ENV):
        return
    base = os.path.join(tempfile.mkdtemp(prefix="hypothesis-mcp-zygote-"), "socket")
    venvs = sorted(p.parent.parent for p in (helpers.ROOT / ".cache" / "pypi").glob("*/bin/python"))
    for python, prefix in ((helpers.PYTHON, sys.prefix), *((str(v / "bin" / "python"), str(v)) for v in venvs)):
        _zygotes.append(subprocess.Popen([python, str(helpers.ROOT / "tests/zygote.py"), "--serve",
                                          zygote.address(base, prefix)], stdin=subprocess.DEVNULL))
    own, path = _zygotes[0], zygote.address(base, sys.prefix)
    deadline = time.monotonic() + 60
    while not os.path.exists(path) and own.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.environ[zygote.ENV] = base


def pytest_unconfigure(config: pytest.Config) -> None:
    for started in _zygotes:
        started.terminate()
    for started in _zygotes:
        started.wait()
    if _zygotes:
        shutil.rmtree(os.path.dirname(os.environ.pop(zygote.ENV)), ignore_errors=True)


LONGEST_FIRST = (
    "test_laws_storegen.py", "test_real_servers_stores.py", "test_probe_fields.py", "test_probe_learned.py",
    "test_real_servers.py", "test_probe_renames.py", "test_probes.py", "test_ci_trust.py", "test_probe_agreeing.py",
    "test_rule_verdicts.py",
    "test_probe_deletes.py", "test_pytest_plugin.py", "test_probe_variety.py", "test_real_servers_sandboxed.py",
    "test_probe_laws_vault.py", "test_scorecard.py", "test_cli.py", "test_effect_failure.py",
    "test_strategies_hard_schemas.py", "test_error_as_success.py", "test_refusal_styles.py", "test_pytest_fleet.py",
    "test_smoke.py", "test_robustness.py",
    "test_crashes.py", "test_draws_stable.py", "test_readme_run.py", "test_surface_causes.py",
    "test_strategies_invalid.py", "test_workers.py", "test_tool_selection.py", "test_strategies_valid.py",
)
"""The costliest test files, most test-seconds first (measured, docs/performance.md "The suite").
test_laws_storegen (about 40 grading runs of storegen servers, an estimated 700-900 s of one worker
from the CI logs' durations) is the longest file by far: handed out fourteenth, after some 1,200 s of
the files above it, it started about 600 s into a 1,300-1,400 s run and could end last; it goes first.
test_scorecard, the hard schemas' draws and the 8-10 s files at the end were, in alphabetical
order, handed out among the very last; test_probe_laws_vault and test_cli (a 27 s and a 24 s test in
the last CI log's slowest 15) after the files listed; test_refusal_styles and test_pytest_fleet (15 s
of CPU each, their own runs and pytest sessions) were among the last ten handed out."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Hand the costliest files to the xdist workers first (`--dist loadfile` gives a worker the next
    file when it runs short): the run ends when the last file handed out ends, so the files left for
    the end should be short ones. xdist's own order, most tests first (turned off in pyproject.toml),
    left the long files of few tests, real servers above all, for the end. Every other file keeps
    its place; within a file the order is unchanged."""
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection loaded (modules, test functions, the SDK, Hypothesis): it lives as
    long as the process, and every full collection of the grading runs in this process walked it
    again, a tenth of a probe file's CPU in the test process."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="module")
def out(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for the reports and files one test module writes."""
    return tmp_path_factory.mktemp(request.module.__name__.removeprefix("test_").replace("_", "-"))


@pytest.fixture(scope="session", autouse=True)
def shared_runs(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> None:
    """The folder helpers.shared_run keeps reports in: the session's own, seen by every xdist worker
    (a worker's base temp folder is one of the session's)."""
    base = tmp_path_factory.getbasetemp()
    helpers.SHARED_RUNS = (base if worker_id == "master" else base.parent) / "shared-runs"
