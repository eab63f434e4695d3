"""Making a failing call smaller after the search: keys it does not need, sizes it does not need.

Hypothesis shrinks within a call budget, and a crash or a hang spends that budget fast (a restart
per try), so a reproduction can keep keys an open object allowed but the failure never needed.
A failing breaker is one value changed from the plainest call; its size (the length of a string
or array, cut as a prefix, or an integer's magnitude) is narrowed by bisection from the largest breaker of its kind that
passed. Every try costs one call; a try counts only if the same rule fails again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

Fails = Callable[[dict[str, Any]], bool]
MAX_TRIES = 24


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Where each object key sits, deepest first, so inner keys go before the objects holding them."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*prefix, key))
            yield (*prefix, key)
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _paths(inner, (*prefix, index))


def _without(value: Any, path: tuple[Any, ...]) -> Any:
    if len(path) == 1:
        return {k: v for k, v in value.items() if k != path[0]}
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _without(value[head], rest)}
    return [_without(v, rest) if i == head else v for i, v in enumerate(value)]


def drop_keys(args: dict[str, Any], fails: Fails, *, keep: frozenset[str] = frozenset(),
              tries: int = MAX_TRIES) -> dict[str, Any]:
    """Remove object keys, one at a time, while the call still fails the same way. `fails` also
    answers False for a call the search may not send (one that left its schema side)."""
    current = args
    for path in list(_paths(args)):
        if tries <= 0:
            break
        if path[0] in keep:
            continue
        try:
            smaller = _without(current, path)
        except (KeyError, IndexError, TypeError):
            continue  # an enclosing key is already gone
        tries -= 1
        if fails(smaller):
            current = smaller
    return current


def _size(value: Any) -> int | None:
    if isinstance(value, str | list):
        return len(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value)
    return None


def _resized(value: Any, size: int) -> Any:
    if isinstance(value, str | list):
        return value[:size]
    return size if value >= 0 else -size


def _alike(a: Any, b: Any) -> bool:
    """A smaller value on the way to `a`: a prefix of a string or array, an integer of the same sign."""
    if isinstance(a, str):
        return isinstance(b, str) and a.startswith(b)
    if isinstance(a, list):
        return isinstance(b, list) and a[:len(b)] == b
    return isinstance(b, int) and not isinstance(b, bool) and (a >= 0) == (b >= 0)


def narrow(args: dict[str, Any], name: str, passed: list[Any], fails: Fails) -> dict[str, Any]:
    """The smallest size of `args[name]` that still fails, above the largest alike value that passed."""
    value = args.get(name)
    high = _size(value)
    if high is None:
        return args
    sizes = [_size(p) for p in passed if _alike(value, p)]
    low = max((s for s in sizes if s is not None and s < high), default=0)
    best = args
    while high - low > 1:
        middle = (low + high) // 2
        candidate = {**args, name: _resized(value, middle)}
        if fails(candidate):
            high, best = middle, candidate
        else:
            low = middle
    return best
