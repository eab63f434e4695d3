"""Fixtures shared by the test modules (the functions they share are in helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import helpers


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
