"""What a probe finding's message claims of its reproduction, so shrinking keeps it true.

"A second write to key K reported success; state unchanged" needs two writes in the calls, and
"record K is gone after a later write" needs the write of K and a later one. A shrunk candidate
that lost one of them may still fail on replay (for a reason of its own, such as a write the
server refused), but its message would then say what its calls do not show.
"""

from __future__ import annotations

from hypothesis_mcp.stateful.judge import ProbeFinding

WRITES_CLAIMED = {"probe-silent-noop": 2, "probe-data-lost": 2, "probe-write-not-observable": 1,
                  "probe-value-changed": 1}
"""The fewest calls of the write tool a finding of each rule speaks of."""


def claims_hold(finding: ProbeFinding, write: str) -> bool:
    """The reproduction still holds the writes the finding's message speaks of."""
    writes = sum(1 for call in finding.calls if call.tool == write)
    return writes >= WRITES_CLAIMED.get(finding.rule, 0)
