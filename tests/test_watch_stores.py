"""A server of many stores side by side (bench/kv_server.py --pairs N: put_value_i/get_value_i over
store i, one list_keys of every key): the experiments try a tool on the store listed nearest it
first and on no other once it answered that store's values, so learn's calls grow with the stores
at most linearly; and each getter, which answered its own store's values, is its store's first
candidate reader, so calibration shows it past the six readers a write keeps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import PYTHON, ROOT, SERVE
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.learn import learn, learned_json


def learned(pairs: int, count: Path) -> tuple[int, dict[str, Any]]:
    """learn's calls (counted on their way to the server) and its JSON."""
    server = [*SERVE, str(ROOT / "bench/kv_server.py"), "--pairs", str(pairs)]
    counted = [PYTHON, str(ROOT / "bench/count_calls.py"), str(count), *server]
    found = learned_json(learn(parse_target(counted), allow_writes=True))
    return count.stat().st_size, found


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[int, dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("counts")
    return {pairs: learned(pairs, folder / f"calls-{pairs}") for pairs in (2, 4, 8)}


def test_learns_calls_grow_no_faster_than_the_stores(runs: dict[int, tuple[int, dict[str, Any]]]) -> None:
    """Per extra pair, 4 to 8 pairs cost no more calls than 2 to 4 (before: 51 a pair from 2 to 4,
    72 from 4 to 8, each getter tried on every store)."""
    per_pair = [(runs[high][0] - runs[low][0]) / (high - low) for low, high in ((2, 4), (4, 8))]
    assert per_pair[1] <= per_pair[0] * 1.1, per_pair


def test_every_getter_is_shown_reading_its_own_store(runs: dict[int, tuple[int, dict[str, Any]]]) -> None:
    """Calibration shows get_value_i reading put_value_i's records for every pair, the seventh and
    eighth too (before: only the first five getters, by the listing, were candidates)."""
    facts = {f["what"] for f in runs[8][1]["facts"] if f["evidence"] == "shown"}
    missing = [i for i in range(1, 9) if f"get_value_{i} shows the records put_value_{i} writes" not in facts]
    assert not missing, json.dumps(sorted(facts), indent=1)
