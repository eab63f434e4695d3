"""Fixtures shared by the test modules (the functions they share are in helpers.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import helpers
import zygote

_zygote: subprocess.Popen[bytes] | None = None


def pytest_configure(config: pytest.Config) -> None:
    """Start the session's zygote (tests/zygote.py) before xdist starts its workers, which inherit
    its address; a pytest run inside a test finds the address set and shares the zygote.
    HYPOTHESIS_MCP_TEST_ZYGOTE=off starts every test server as a plain `python SCRIPT`."""
    global _zygote
    if hasattr(config, "workerinput") or os.environ.get(zygote.ENV):
        return
    path = os.path.join(tempfile.mkdtemp(prefix="hypothesis-mcp-zygote-"), "socket")
    _zygote = subprocess.Popen([helpers.PYTHON, str(helpers.ROOT / "tests/zygote.py"), "--serve", path],
                               stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not os.path.exists(path) and _zygote.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.environ[zygote.ENV] = path


def pytest_unconfigure(config: pytest.Config) -> None:
    if _zygote is not None:
        _zygote.terminate()
        _zygote.wait()
        shutil.rmtree(os.path.dirname(os.environ.pop(zygote.ENV)), ignore_errors=True)


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
