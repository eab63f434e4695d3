"""Every Hypothesis run of ours draws from its own explicit seed, and from nothing else.

A run's draws must be a function of the server, the options and the seed: not of our source text
(Hypothesis's `derandomize` seeds from a digest of the tested function's source) and not of which
modules are loaded (Hypothesis mixes the literals of every loaded module outside site-packages into
its draws, so an editable install and a wheel would draw differently). So each search and each
state machine is seeded from a digest of the run's seed and its scope, and runs with those mined
literals left out. docs/architecture.md, "Determinism".
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from hypothesis import seed as hypothesis_seed
from hypothesis.internal.conjecture import providers
from hypothesis.internal.constants_ast import Constants

F = TypeVar("F", bound=Callable[..., Any])

_lock = threading.Lock()
_active = 0
_mined: Callable[[], Constants] | None = None


def scope_seed(run_seed: int, *scope: str) -> int:
    """The seed of one search or machine: the same scope under the same run seed draws the same."""
    text = "\x1f".join((str(run_seed), *scope))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def seeded(runner: F, run_seed: int, *scope: str) -> F:
    """`runner` (a `@given` test or a state machine class) seeded for its scope."""
    return hypothesis_seed(scope_seed(run_seed, *scope))(runner)


def _no_mined_literals() -> Constants:
    return Constants()


@contextmanager
def own_draws() -> Iterator[None]:
    """Run Hypothesis with no literals mined from loaded modules; nested and threaded uses share
    one switch, restored when the last one ends, so a user's own tests in the same process keep
    Hypothesis's usual behaviour."""
    global _active, _mined
    with _lock:
        if _active == 0:
            _mined = providers._get_local_constants
            providers._get_local_constants = _no_mined_literals
            providers.CONSTANTS_CACHE.cache.clear()
        _active += 1
    try:
        yield
    finally:
        with _lock:
            _active -= 1
            if _active == 0 and _mined is not None:
                providers._get_local_constants = _mined
                providers.CONSTANTS_CACHE.cache.clear()
                _mined = None
