"""A broken law, confirmed on fresh servers: its example's calls replayed from a fresh start (the
checks' reads left out first), then made smaller one call at a time while a fresh replay still
breaks the law (halves, then quarters, down to single calls). Only what a fresh server shows again is
reported."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from hypothesis_mcp.results import Call
from hypothesis_mcp.rules.expectations import FieldEquals, SameAnswer
from hypothesis_mcp.stateful.judge import ProbeFinding
from hypothesis_mcp.stateful.laws.laws import Breach
from hypothesis_mcp.stateful.shrink import plain_calls

LAWS_BASIS = "laws machine: "
"""How a finding of the machine's basis begins (grading keeps another probe's finding of the same rule
on the same tool instead)."""
SHRINK_REPLAYS = 16
"""Fresh replays that make one confirmed breach smaller, at most."""


def finding_of(breach: Breach, calls: list[Call]) -> ProbeFinding:
    return ProbeFinding(breach.rule, breach.tool, breach.message, breach.confidence,
                        LAWS_BASIS + "; ".join(f.what for f in breach.facts[:2]), calls=calls,
                        expect=breach.expect, fresh=False, details=dict(breach.details or {}), facts=breach.facts)


def confirmed(breach: Breach, calls: list[Call], checks: set[int], replays: Callable[[ProbeFinding], bool],
              reads: frozenset[str] = frozenset(), budget: int = SHRINK_REPLAYS) -> ProbeFinding | None:
    """The breach as a finding seen on a fresh server, as small as `budget` replays make it; None
    when no fresh replay shows it."""
    judged = 2 if isinstance(breach.expect, SameAnswer) else 1
    given = replays

    def sound(finding: ProbeFinding) -> bool:
        """A replay whose calls no longer write what the law looks for proves nothing of the server."""
        return breach.expect.written_by([c.arguments for c in finding.calls[:-judged]]) and given(finding)

    replays = sound

    head, tail = calls[:-judged], calls[-judged:]
    pinned = [head[i] for i in breach.pinned if i < len(head)]
    steps = [c for i, c in enumerate(head) if i not in checks or i in breach.pinned]
    finding = finding_of(breach, calls)
    for candidate in (steps, head):
        if replays(replace(finding, calls=candidate + tail)):
            head = candidate
            break
    else:
        return None
    plain, _ = plain_calls(head + tail)
    # A value judged as written, or an identity variant (one more character), must keep its exact text.
    if plain != head + tail and not isinstance(breach.expect, FieldEquals) and "variant" not in (breach.details or {}):
        budget -= 1
        if replays(replace(finding, calls=plain)):
            pinned = [plain[i] for i, c in enumerate(head) if any(c is p for p in pinned)]
            head, tail = plain[:len(head)], plain[len(head):]
    chunk = max(1, len(head) // 2)
    while chunk >= 1 and budget > 0:
        index = 0
        while index < len(head) and budget > 0:
            part = head[index:index + chunk]
            if any(c is p for c in part for p in pinned):
                index += chunk
                continue
            fewer = head[:index] + head[index + chunk:]
            budget -= 1
            if replays(replace(finding, calls=fewer + tail)):
                head = fewer
            else:
                index += chunk
        chunk //= 2
    found = replace(finding, calls=head + tail, fresh=True)
    if judged == 1 and not read_is_cause(found, head, tail, replays):
        return None
    return read_to_blame(found, head, tail, pinned, reads, replays) or found


def read_is_cause(finding: ProbeFinding, head: list[Call], tail: list[Call],
                  replays: Callable[[ProbeFinding], bool]) -> bool:
    """A read blamed for what a later read no longer shows is the cause only where a fresh replay
    without it keeps the law: a listing's window or another write may hide the record all the same."""
    if finding.rule != "probe-read-changed-state":
        return True
    at = max((i for i, c in enumerate(head) if c.tool == finding.tool), default=None)
    return at is None or not replays(replace(finding, calls=head[:at] + head[at + 1:] + tail))


def read_to_blame(finding: ProbeFinding, head: list[Call], tail: list[Call], pinned: list[Call],
                  reads: frozenset[str], replays: Callable[[ProbeFinding], bool]) -> ProbeFinding | None:
    """A read the broken law needs: without that one call a fresh replay keeps the law, so the read
    changed what the later read shows (a get that consumes, a search that archives)."""
    if finding.rule == "probe-read-changed-state":
        return None
    for index, call in enumerate(head):
        if call.tool not in reads or any(call is p for p in pinned) or call.tool == tail[-1].tool:
            continue
        if not replays(replace(finding, calls=head[:index] + head[index + 1:] + tail)):
            return replace(finding, rule="probe-read-changed-state", tool=call.tool,
                           message=f"a call of {call.tool}, which only reads, changed what {tail[-1].tool} shows: "
                           f"without it the law holds ({finding.message})")
    return None
