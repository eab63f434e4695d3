"""The effect machine as a user's own test suite runs it: fresh servers to explore, a warm one to shrink.

Hypothesis shrinks a failure by running hundreds of smaller step sequences. On a fresh process each,
shrinking the sample server's silent skip took minutes; on one warm server (markers keep the
candidates apart) it takes seconds; only failures about one key's records shrink warm (see
ONE_KEY_RULES). Hypothesis ends with one more run of the shrunk steps, the one it prints: that run
gets a fresh server, so what the user reads reproduces from the initial state, as the CLI verifies
its findings. A reproduction that fails only on the warm server's leftovers then passes there, and
Hypothesis reports it as flaky instead of printing it.
"""

from __future__ import annotations

from typing import Any

from hypothesis.control import current_build_context
from hypothesis.stateful import RuleBasedStateMachine

from hypothesis_mcp.results import RuleId
from hypothesis_mcp.snippet import python_lines
from hypothesis_mcp.stateful.context import ProbeContext
from hypothesis_mcp.stateful.frames import raise_at
from hypothesis_mcp.stateful.judge import ProbeFailure, ProbeFinding

ONE_KEY_RULES: tuple[RuleId, ...] = ("probe-silent-noop",)
"""Failures judged on one key's records, whatever else is stored: these shrink on the warm server.
A silent no-op compares two reads of one key through a reader that showed it on the same server. A
lost record, an unseen write or a broken bound can depend on how much is stored (eviction, a full
page), which a warm server's leftovers change, so those shrink on fresh servers, one per candidate."""


def shrinking_warm(machine: type[RuleBasedStateMachine], ctx: ProbeContext,
                   built_at: tuple[str, int]) -> type[RuleBasedStateMachine]:
    """`machine`, with shrink candidates on a warm server and Hypothesis's final run on a fresh one;
    its unittest `TestCase` raises a failure from `built_at`, the user's line that built it."""

    class SuiteMachine(machine):  # type: ignore[valid-type, misc]
        def __init__(self) -> None:
            self.final = current_build_context().is_final
            found = ctx.smallest
            ctx.warm_shrink = not self.final and found is not None and found.rule in ONE_KEY_RULES
            super().__init__()

        def teardown(self) -> None:
            super().teardown()
            if self.final:
                ctx.pool.retire_warm()  # the last run of a failure: nothing is shrunk after it

        @classmethod
        def _to_test_case(cls) -> Any:
            case = super()._to_test_case()
            run = case.runTest

            def runTest(self: Any) -> None:
                __tracebackhide__ = True
                try:
                    run(self)
                except ProbeFailure as failure:
                    raise_at(failure, *built_at)

            runTest.is_hypothesis_test = True  # type: ignore[attr-defined]
            runTest._hypothesis_state_machine_class = cls  # type: ignore[attr-defined]
            case.runTest = runTest
            return case

    SuiteMachine.__name__ = SuiteMachine.__qualname__ = machine.__name__
    return SuiteMachine


def shown_failure(finding: ProbeFinding, target: str, site: str) -> str:
    """The finding, then the calls of the run that found it as Python to paste: Hypothesis prints
    the steps with the placeholder marker each write replaces, not the values it sent."""
    origin = "from a fresh server" if finding.fresh else "on a server earlier examples used"
    calls = "\n".join(f"    {line}" for line in python_lines(finding.calls, target))
    return (f"{finding.rule} on {finding.tool} ({finding.confidence} confidence): {finding.message}\n"
            f"found by the effect machine built at {site}; the calls it made, {origin}, with the "
            f"values sent (the steps below print each write's placeholder marker):\n{calls}")
