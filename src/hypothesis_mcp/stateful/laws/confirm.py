"""A broken law, confirmed on fresh servers: its example's calls replayed from a fresh start (the
checks' reads and the calls the warm server refused left out first), then made smaller one call at a
time while a fresh replay still breaks the law (halves, then quarters, down to single calls). Only
what a fresh server shows again is reported.

A warm server had taken many writes before the law broke; a fresh one has taken none. Where the
calls alone keep the law on a fresh server, they are replayed again after k copies of the record's
write (its marker swapped for a new one of the run's), k = 1, 2, ... up to the writes the warm
server had taken: a fault that follows the server's history (every third write dropped, a store
that evicts past a size) shows again, and the copies stay in its reproduction only while each is
needed (a replay without it keeps the law)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType

from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.results import Call
from hypothesis_mcp.rules.answers import numbers_in
from hypothesis_mcp.rules.expectations import (
    ContainsAny,
    FieldEquals,
    FieldShown,
    FindsNothing,
    NoRecordFor,
    NumberAt,
    SameAnswer,
    ShowsNone,
)
from hypothesis_mcp.stateful.judge import ProbeFinding, Replay
from hypothesis_mcp.stateful.laws.laws import Breach
from hypothesis_mcp.stateful.shrink import plain_calls
from hypothesis_mcp.strategies.markers import MARKER

LAWS_BASIS = "laws machine: "
"""How a finding of the machine's basis begins (grading keeps another probe's finding of the same rule
on the same tool instead)."""
SHRINK_REPLAYS = 16
"""Fresh replays that make one confirmed breach smaller, at most."""
EARLIER = 4
"""Copies of the record's write put before a reproduction a fresh server does not show, at most."""
OWN = (ContainsAny, ShowsNone, FieldEquals, FieldShown, SameAnswer, FindsNothing, NoRecordFor)
"""What a law judges of one record's own values, which copies of its write before it leave as they
are. A count, a walk's pages or an order judge the whole store: the copies' records move them
(stored or not), whether or not the server is right, so those are never tried with copies."""
REPLAYS = SHRINK_REPLAYS + 5 * EARLIER + 4
"""Fresh replays one breach's confirmation takes at most: its start, each count of copies (two ways),
each copy dropped once a pass while one more can go, the shrinking, the read blamed."""


def finding_of(breach: Breach, calls: list[Call]) -> ProbeFinding:
    return ProbeFinding(breach.rule, breach.tool, breach.message, breach.confidence,
                        LAWS_BASIS + "; ".join(f.what for f in breach.facts[:2]), calls=calls,
                        expect=breach.expect, fresh=False, details=dict(breach.details or {}), facts=breach.facts)


def confirmed(breach: Breach, calls: list[Call], checks: set[int], replays: Callable[[ProbeFinding], bool],
              reads: Mapping[str, tuple[Fact, ...]] = MappingProxyType({}), budget: int = SHRINK_REPLAYS,
              marker: Callable[[], str] | None = None) -> ProbeFinding | None:
    """The breach as a finding seen on a fresh server, as small as `budget` replays make it; None
    when no fresh replay shows it. `marker` gives the run's new markers (copies of a write)."""
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
    copies: list[Call] = []
    for candidate in (steps, head):
        if replays(replace(finding, calls=candidate + tail)):
            head = candidate
            break
    else:
        placed = placed_later(breach, finding, (steps, head), tail, pinned, marker, replays)
        if placed is None:
            return None
        copies, head = placed
    plain, _ = plain_calls(head + tail)
    # A value judged as written, or an identity variant (one more character), must keep its exact text.
    if plain != head + tail and not isinstance(breach.expect, FieldEquals) and "variant" not in (breach.details or {}):
        budget -= 1
        if replays(replace(finding, calls=plain)):
            pinned = [plain[i] for i, c in enumerate(head) if any(c is p for p in pinned)]
            copies = [plain[i] for i, c in enumerate(head) if any(c is k for k in copies)]
            head, tail = plain[:len(head)], plain[len(head):]
    unread = [c for c in head if c.tool not in reads or any(c is p for p in pinned)]
    if len(unread) < len(head) and budget > 0:
        # The example's reads go first, all at once: most change nothing, and one replay without them
        # leaves the budget to the writes. A read the law needs stays (the halving below keeps it).
        budget -= 1
        if replays(replace(finding, calls=unread + tail)):
            head = unread
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
    if copies:
        head, kept = needed(copies, head, tail, finding, replays)
        found = replace(finding, calls=head + tail, fresh=True)
        if kept is not None:
            found = elsewhere(found, breach, copies[0].tool, kept, sum(any(c is k for k in copies) for c in head))
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
                  reads: Mapping[str, tuple[Fact, ...]],
                  replays: Callable[[ProbeFinding], bool]) -> ProbeFinding | None:
    """A read the broken law needs: without that one call a fresh replay keeps the law, so the read
    changed what the later read shows (a get that consumes, a search that archives). The finding also
    rests on what says the tool reads: a verb in its name keeps it low."""
    if finding.rule == "probe-read-changed-state":
        return None
    for index, call in enumerate(head):
        if call.tool not in reads or any(call is p for p in pinned) or call.tool == tail[-1].tool:
            continue
        if not replays(replace(finding, calls=head[:index] + head[index + 1:] + tail)):
            return replace(finding, rule="probe-read-changed-state", tool=call.tool,
                           facts=(*reads[call.tool], *finding.facts),
                           message=f"a call of {call.tool}, which only reads, changed what {tail[-1].tool} shows: "
                           f"without it the law holds ({finding.message})")
    return None


def placed_later(breach: Breach, finding: ProbeFinding, candidates: tuple[list[Call], list[Call]],
                 tail: list[Call], pinned: list[Call], marker: Callable[[], str] | None,
                 replays: Callable[[ProbeFinding], bool]) -> tuple[list[Call], list[Call]] | None:
    """The copies of the record's write, and the calls they go before, that a fresh replay shows the
    breach with, the fewest copies first; None when no count up to the warm server's writes does, or
    when the law judges more than the record (see OWN)."""
    if not pinned or marker is None or not isinstance(breach.expect, OWN):
        return None
    unique = [c for i, c in enumerate(candidates) if c not in candidates[:i]]
    for count in range(1, min(EARLIER, breach.history) + 1):
        copies = [copied(pinned[0], marker) for _ in range(count)]
        made = [c for c in copies if c is not None]
        if len(made) < count:
            return None
        for candidate in unique:
            if replays(replace(finding, calls=made + candidate + tail)):
                return made, made + candidate
    return None


def copied(write: Call, marker: Callable[[], str]) -> Call | None:
    """The write again with its own marker (the one it sends most often, the newest of those) swapped for
    a new one: the same call, another record. None where it sent no marker (a copy would write the same
    record). What its answer bound is left out: no later call takes it."""
    text = json.dumps(write.arguments)
    found = Counter(MARKER.findall(text))
    if not found:
        return None
    own = max(found, key=lambda m: (found[m], m))
    return Call(write.tool, json.loads(text.replace(own, marker())), write.method)


def needed(copies: list[Call], head: list[Call], tail: list[Call], finding: ProbeFinding,
           replays: Callable[[ProbeFinding], bool]) -> tuple[list[Call], list[Call] | None]:
    """The head without each copy a fresh replay still breaks the law without, until every copy left is
    needed (no call of the reproduction can be removed); and the calls of a replay, one copy fewer, that
    kept the law (None where no copy is left)."""
    while True:
        left = [c for c in head if any(c is k for k in copies)]
        for copy in left:
            fewer = [c for c in head if c is not copy]
            if replays(replace(finding, calls=fewer + tail)):
                head = fewer
                break
        else:
            return head, [c for c in head if c is not left[0]] + tail if left else None


def elsewhere(found: ProbeFinding, breach: Breach, tool: str, kept: list[Call], count: int) -> ProbeFinding:
    """Law 6's name on a finding that needed copies of the record's write before it: the same call had
    another effect at another place in the history. The rule stays the one the breach showed (what
    the effect was), with the replay that kept the law among the facts."""
    fact = fact_shown(f"a fresh server kept the law on the same calls with one write of {tool} fewer "
                      "before them", calls=tuple(kept), source="experiment")
    message = (f"the same call had another effect at another place in the history: {breach.message} "
               f"(on a fresh server only after {count} more write(s) of {tool} before it)")
    return replace(found, message=message, facts=(*found.facts, fact),
                   details={**found.details, "writes_before": count})


def counted_fresh(finding: ProbeFinding, replay: Replay) -> ProbeFinding:
    """A count's finding told in the numbers of its own reproduction on a fresh server: the warm
    example's (a number moved on a store of other examples' records) are not what the calls below it
    show. Unchanged where this replay kept the law or shows no number there."""
    asked, expect = finding.expectation, replay.expect
    if not isinstance(asked, NumberAt) or not isinstance(expect, NumberAt):
        return finding
    shown = numbers_in(replay.steps[-1][1]).get(expect.path)
    if shown is None or shown == expect.value:
        return finding
    moved = bool(asked.adds or asked.takes)
    change = expect.value - asked.value if moved else finding.details.get("expected_change")
    net = f" ({asked.value:g} before them, {change:+g} net)" if moved else ""
    return replace(finding, message=f"{finding.tool}'s {expect.path} shows {shown:g} on a fresh server after the calls "
                   f"below, where the records they made and removed make it {expect.value:g}{net}",
                   details={**finding.details, "shown": shown, "expected": expect.value, "expected_change": change})
