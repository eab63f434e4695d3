"""The effect machine as a user's own test suite runs it: fresh servers to explore, a warm one to shrink.

Hypothesis shrinks a failure by running hundreds of smaller step sequences. On a fresh process each,
shrinking the sample server's silent skip took minutes; on one warm server (markers keep the
candidates apart) it takes seconds. Hypothesis ends with one more run of the shrunk steps, the one
it prints: that run gets a fresh server, so what the user reads reproduces from the initial state,
as the CLI verifies its findings. A reproduction that fails only on the warm server's leftovers
then passes there, and Hypothesis reports it as flaky instead of printing it.
"""

from __future__ import annotations

from hypothesis.control import current_build_context
from hypothesis.stateful import RuleBasedStateMachine

from hypothesis_mcp.stateful.machine import ProbeContext


def shrinking_warm(machine: type[RuleBasedStateMachine], ctx: ProbeContext) -> type[RuleBasedStateMachine]:
    """`machine`, with shrink candidates on a warm server and Hypothesis's final run on a fresh one."""

    class SuiteMachine(machine):  # type: ignore[valid-type, misc]
        def __init__(self) -> None:
            self.final = current_build_context().is_final
            ctx.warm_shrink = not self.final
            super().__init__()

        def teardown(self) -> None:
            super().teardown()
            if self.final:
                ctx.pool.retire_warm()  # the last run of a failure: nothing is shrunk after it

    SuiteMachine.__name__ = SuiteMachine.__qualname__ = machine.__name__
    return SuiteMachine
