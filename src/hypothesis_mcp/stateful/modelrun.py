"""A model machine over one write tool's records, run the one way every such probe runs it.

The reads, fields, variants, agreement and deletes probes differ in what their machine does, not
in how it runs: seeded for its scope, its draws its own, a failure it raised kept among the
context's candidates, any other error (Hypothesis shrinking on a server that answered differently)
said in words, and its examples counted.
"""

from __future__ import annotations

from hypothesis.errors import Flaky
from hypothesis.stateful import RuleBasedStateMachine, run_state_machine_as_test

from hypothesis_mcp.results import CONFIDENCE_ORDER
from hypothesis_mcp.search.seeding import Scope, own_draws, scope_salt, seeded
from hypothesis_mcp.stateful.context import ProbeContext
from hypothesis_mcp.stateful.host import ProbeHost
from hypothesis_mcp.stateful.judge import ProbeFailure, ProbeFinding


def marker_salt(run: ProbeHost, *scope: Scope) -> int:
    """The salt of the markers a probe of this scope writes, so no two probes write the same."""
    return scope_salt(run.profile.seed, *scope)


def run_model(run: ProbeHost, ctx: ProbeContext, machine: type[RuleBasedStateMachine], examples: int, steps: int,
              *scope: Scope) -> str | None:
    """Run `machine` seeded for `scope`; the error that stopped it, if any (a failure seen before
    the error is still among `ctx.candidates`)."""
    try:
        with own_draws():
            run_state_machine_as_test(seeded(machine, run.profile.seed, *scope),
                                      settings=run.profile.settings(examples, stateful_steps=steps))
    except (ProbeFailure, Flaky):
        pass
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    finally:
        run.examples += ctx.runs
    return None


def surest(candidates: list[ProbeFinding]) -> ProbeFinding | None:
    """The surest candidate, then the one with the fewest calls."""
    return min(candidates, key=lambda f: (CONFIDENCE_ORDER[f.confidence], len(f.calls)), default=None)
