"""Drive Hypothesis over one strategy and one property, keep the smallest failing value.

Shrinking against a live server costs a call per step and a restart per crash, so shrinking
has a call budget: once it is spent, values already seen to fail keep failing (without a call)
and new values pass, so Hypothesis settles on the smallest failure found so far.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from hypothesis import example, given
from hypothesis.errors import Flaky, HypothesisException
from hypothesis.strategies import SearchStrategy

from hypothesis_mcp.profiles import Profile
from hypothesis_mcp.rules.expectations import Finding
from hypothesis_mcp.search.saved import SavedFailures, decode_value, encode_value
from hypothesis_mcp.search.seeding import Scope, filed_text, own_draws, scope_text, seeded

V = TypeVar("V")


class _Found(AssertionError):
    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


class _OutOfTime(BaseException):
    """Ends a search at once when the run's time is up. Hypothesis lets a BaseException through;
    without it, shrinking a large failing value goes on without calls for seconds of CPU."""


@dataclass
class Hunt(Generic[V]):
    """The outcome of one hunt: the minimal failing value (if any) and what was tried."""

    finding: Finding | None = None
    value: V | None = None
    examples: int = 0
    error: str | None = None


def _key(value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True, default=repr)
    except (TypeError, ValueError):
        return repr(value)


def hunt(
    strategy: SearchStrategy[V],
    prop: Callable[[V], Finding | None],
    profile: Profile,
    *,
    examples: int | None = None,
    cost: Callable[[], int] | None = None,
    stop: Callable[[], bool] | None = None,
    scope: tuple[Scope, ...],
) -> Hunt[V]:
    """Search for a value that breaks `prop`; return the smallest one Hypothesis found.

    The search draws from the run's seed and `scope` alone (a tool by its place and schema, never its
    name). With an example folder (the default and thorough profiles), the search first tries the
    failure it kept last time under `scope` (a tool by its name and schema) and keeps this run's.

    `cost` reports calls made so far; past `profile.shrink_calls` after the first failure,
    no new value is sent to the server; the same once `stop()` says the run's time is up.
    """
    result: Hunt[V] = Hunt()
    failed: dict[str, Finding] = {}
    budget: dict[str, int | None] = {"start": None}

    def spent() -> bool:
        if stop is not None and stop():
            return True
        start = budget["start"]
        return start is not None and cost is not None and cost() - start > profile.shrink_calls

    def test(value: V) -> None:
        key = _key(value)
        finding = failed.get(key)
        if finding is None:
            if spent():
                if result.finding is not None and stop is not None and stop():
                    raise _OutOfTime
                return
            result.examples += 1
            finding = prop(value)
            if finding is None:
                return
            failed[key] = finding
            if budget["start"] is None and cost is not None:
                budget["start"] = cost()
        # One raise site: Hypothesis tells failures apart by where they were raised.
        result.finding, result.value = finding, value
        raise _Found(finding)

    saved = SavedFailures(profile.database_dir) if profile.database_dir else None
    runner = given(strategy)(test)
    kept = saved.load(filed_text(scope)) if saved else None
    if kept is not None:
        with suppress(KeyError, TypeError):  # a file from another version: search without it
            runner = example(decode_value(kept))(runner)
    runner = seeded(profile.settings(examples)(runner), profile.seed, "search", scope_text(scope))
    finished = True
    try:
        with own_draws():
            runner()
    except _Found as exc:
        result.finding = exc.finding
    except _OutOfTime:
        finished = False
    except Flaky:
        finished = False
    except HypothesisException as exc:
        result.error = f"{type(exc).__name__}: {exc}"
    if result.finding is None:
        result.value = None
    if saved is not None and (result.finding is not None or (finished and result.error is None)):
        saved.keep(filed_text(scope), None if result.finding is None else encode_value(result.value))
    return result
