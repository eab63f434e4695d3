"""Fixtures shared by the test modules (the functions they share are in helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def out(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for the reports and files one test module writes."""
    return tmp_path_factory.mktemp(request.module.__name__.removeprefix("test_").replace("_", "-"))
