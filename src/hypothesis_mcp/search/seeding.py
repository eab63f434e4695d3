"""Every Hypothesis run of ours draws from its own explicit seed, and from nothing else.

A run's draws must be a function of the server, the options and the seed: not of our source text
(Hypothesis's `derandomize` seeds from a digest of the tested function's source) and not of which
modules are loaded (Hypothesis mixes the literals of every loaded module outside site-packages into
its draws, so an editable install and a wheel would draw differently). So each search and each
state machine is seeded from a digest of the run's seed and its scope, and runs with those mined
literals left out. A tool enters a scope as what a name-blind view of the catalogue keeps (its
place and its input schema without descriptions and titles), never by its name or words, so a
server served under other names draws the same. docs/architecture.md, "Determinism".
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from hypothesis import seed as hypothesis_seed
from hypothesis.internal.conjecture import providers
from hypothesis.internal.constants_ast import Constants

from hypothesis_mcp.catalog import Tool

F = TypeVar("F", bound=Callable[..., Any])

_lock = threading.Lock()
_active = 0
_mined: Callable[[], Constants] | None = None

Scope = str | Tool
"""A part of a scope: a word of ours, or a tool (as `tool_scope` gives it)."""

WORDS = ("description", "title")
NAMED = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
"""Schema members whose keys are names the server chose (kept), not keywords."""


def wordless(schema: Any) -> Any:
    """A schema without its `description` and `title` keywords, wherever they sit (a property
    named `description` stays)."""
    if isinstance(schema, list):
        return [wordless(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {key: {name: wordless(sub) for name, sub in value.items()}
            if key in NAMED and isinstance(value, dict) else wordless(value)
            for key, value in schema.items() if key not in WORDS}


def tool_scope(tool: Tool) -> str:
    """The one way a tool enters a seed or a salt: its place in the catalogue and its input schema
    without descriptions and titles, as canonical JSON."""
    schema = json.dumps(wordless(tool.input_schema), sort_keys=True, separators=(",", ":"), default=repr)
    return f"tool#{tool.place}:{schema}"


def scope_text(scope: tuple[Scope, ...]) -> str:
    """A search's scope as its seed reads it: tools by place and wordless schema."""
    return ":".join(tool_scope(p) if isinstance(p, Tool) else p for p in scope)


def filed_text(scope: tuple[Scope, ...]) -> str:
    """A search's scope as its kept failure is filed: tools by name and wordless schema, so a tool
    added earlier in a listing leaves the failures kept for the tools after it where they were."""
    return ":".join(f"{p.name}#{json.dumps(wordless(p.input_schema), sort_keys=True, default=repr)}"
                    if isinstance(p, Tool) else p for p in scope)


def _parts(run_seed: int, scope: tuple[Scope, ...]) -> bytes:
    return "\x1f".join((str(run_seed), *(tool_scope(p) if isinstance(p, Tool) else p for p in scope))).encode()


def scope_seed(run_seed: int, *scope: Scope) -> int:
    """The seed of one search or machine: the same scope under the same run seed draws the same."""
    return int.from_bytes(hashlib.sha256(_parts(run_seed, scope)).digest()[:8], "big")


def scope_salt(run_seed: int, *scope: Scope) -> int:
    """The 16-bit salt of the markers a probe of this scope writes, so no two probes write the same."""
    return int.from_bytes(hashlib.sha256(b"salt\x1f" + _parts(run_seed, scope)).digest()[:2], "big")


def seeded(runner: F, run_seed: int, *scope: Scope) -> F:
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
