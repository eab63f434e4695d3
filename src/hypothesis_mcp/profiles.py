"""Hypothesis settings for a run: how many examples, which seed, how long to shrink."""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import HealthCheck, Phase, Verbosity, settings

from hypothesis_mcp.errors import UsageError

PROFILES = ("grading", "default", "thorough")
GRADING_SEED = 0
"""The grading profile's seed unless `--seed` names another: every grading run draws the same."""


@dataclass(frozen=True)
class Profile:
    """Counts are per tool and per check; the budgets bound shrinking on slow servers."""

    name: str
    examples: int
    invalid_examples: int
    probe_examples: int
    probe_steps: int
    shrink_calls: int
    seed: int
    database_dir: str | None

    def settings(self, examples: int | None = None, *, stateful_steps: int | None = None) -> settings:
        """Hypothesis's example database stays off: it is keyed by our source text and keeps choices,
        not values; search.saved keeps each search's failure instead (docs/architecture.md, Kept
        failures)."""
        return settings(
            max_examples=examples if examples is not None else self.examples,
            derandomize=False,
            database=None,
            deadline=None,
            print_blob=False,
            verbosity=Verbosity.quiet,
            report_multiple_bugs=False,
            suppress_health_check=list(HealthCheck),
            phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
            stateful_step_count=stateful_steps if stateful_steps is not None else self.probe_steps,
        )


def make_profile(name: str, *, seed: int | None = None, max_examples: int | None = None,
                 database_dir: str = ".hypothesis/hypothesis-mcp") -> Profile:
    if name not in PROFILES:
        raise UsageError(f"unknown profile {name!r}; choose one of {', '.join(PROFILES)}")
    if name == "grading":
        base = Profile(name, examples=25, invalid_examples=25, probe_examples=8, probe_steps=20,
                       shrink_calls=300, seed=GRADING_SEED if seed is None else seed, database_dir=None)
    elif name == "thorough":
        base = Profile(name, examples=200, invalid_examples=200, probe_examples=40, probe_steps=50,
                       shrink_calls=2000,
                       seed=seed if seed is not None else random.randrange(2**32), database_dir=database_dir)
    else:
        base = Profile(name, examples=50, invalid_examples=50, probe_examples=15, probe_steps=30,
                       shrink_calls=600,
                       seed=seed if seed is not None else random.randrange(2**32), database_dir=database_dir)
    if seed is not None:
        base = Profile(**{**base.__dict__, "database_dir": None})  # a given seed must repeat exactly
    if max_examples is not None:
        if max_examples < 1:
            raise UsageError("--max-examples must be at least 1")
        base = Profile(**{**base.__dict__, "examples": max_examples, "invalid_examples": max_examples,
                          "probe_examples": max(1, max_examples // 3)})
    return base
