"""What a probe finding's message claims of its reproduction, so shrinking keeps it true.

"A second write to key K reported success; state unchanged" needs two writes in the calls,
"record K is gone after a later write" needs the write of K and a later one, and "after a call of
R, reader X no longer shows it" needs the call of R. A shrunk candidate that lost one of them may
still fail on replay (for a reason of its own, such as a write the server refused), but its
message would then say what its calls do not show.
"""

from __future__ import annotations

from hypothesis_mcp.results import RuleId
from hypothesis_mcp.stateful.judge import ProbeFinding

WRITES_CLAIMED: dict[RuleId, int] = {"probe-silent-noop": 2, "probe-data-lost": 2, "probe-write-not-observable": 1,
                  "probe-value-changed": 1, "probe-read-changed-state": 1, "probe-identity-folded": 2,
                  "probe-identity-prefix": 2}
"""The fewest calls of the write tool a finding of each rule speaks of."""
READ_CLAIMED: frozenset[RuleId] = frozenset({"probe-read-changed-state"})
"""Rules whose finding blames a call of its own tool before the judged read."""


def claims_hold(finding: ProbeFinding, write: str) -> bool:
    """The reproduction still holds the writes the finding's message speaks of."""
    writes = sum(1 for call in finding.calls if call.tool == write)
    if finding.rule in READ_CLAIMED and not any(call.tool == finding.tool for call in finding.calls[:-1]):
        return False
    return writes >= WRITES_CLAIMED.get(finding.rule, 0)
