"""Making a verified probe failure smaller with fresh replays.

Hypothesis shrinks an effect failure on a warm server, and cannot always delete a step that sits
between a record and the step that judges it. These passes run after the failure has been seen
from a fresh server; every smaller candidate is replayed on a fresh server again and kept only if
it still fails. A candidate must never fail for a reason of its own making, so a write whose
arguments carry what the last read is expected to show is never removed: without it, the read
would miss the record on any server.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from hypothesis_mcp.results import Call, RuleId
from hypothesis_mcp.rules.expectations import ContainsAny, FieldEquals, FieldKept, FieldShown
from hypothesis_mcp.stateful.claims import claims_hold
from hypothesis_mcp.stateful.judge import ProbeFinding
from hypothesis_mcp.stateful.readers import field_texts
from hypothesis_mcp.strategies import leading_marker

SHOWN_FIRST: tuple[RuleId, ...] = ("probe-silent-noop", "probe-data-lost", "probe-read-changed-state",
                                   "probe-identity-folded", "probe-identity-prefix")

Replays = Callable[[ProbeFinding], bool]


def plain_calls(calls: list[Call]) -> tuple[list[Call], dict[str, str]]:
    """The same calls (what they bind kept) with every marked text cut to its `{marker}-{field}` token,
    and the mapping from old to new texts. The mapping is applied to every string of every call, so a value a
    read repeats under another name (`title` written, `identifier` read) stays the same value."""
    mapping: dict[str, str] = {}

    def cut(value: Any) -> Any:
        if isinstance(value, str):
            for old in sorted(mapping, key=len, reverse=True):
                value = value.replace(old, mapping[old])
            return value
        if isinstance(value, list):
            return [cut(v) for v in value]
        if isinstance(value, dict):
            return {k: cut(v) for k, v in value.items()}
        return value

    for call in calls:
        for field, text in field_texts(call.arguments):
            marker = leading_marker(text)
            token = f"{marker}-{field}"
            if marker is not None and text.startswith(token) and text != token:
                mapping[text] = token
    # Texts that would become one token stay as they were: distinct values stay distinct (a list's
    # items may have to be unique, and a write of two equal items is refused, not plainer).
    targets = [*mapping.values()]
    mapping = {old: new for old, new in mapping.items() if targets.count(new) == 1}
    return [replace(c, arguments=cut(c.arguments)) for c in calls], mapping


def smaller(finding: ProbeFinding, write: str, replays: Replays, budget: int = 12) -> ProbeFinding:
    """The smallest variant of `finding` that `replays` still shows failing, within `budget` replays:
    marked values cut to bare markers, then the calls the judged step does not need dropped, all
    unneeded reads at once first, then in halving chunks. A record shown and then lost keeps the
    earlier read that showed it, as evidence of what was lost."""
    best = finding
    calls, mapping = plain_calls(finding.calls)
    # A changed value is judged against the value written: a plain marker would not carry it.
    if calls != finding.calls and not isinstance(finding.expectation, FieldEquals):
        message = finding.message
        for old, new in mapping.items():
            message = message.replace(repr(old), repr(new))
        budget -= 1
        plain = replace(finding, calls=calls, message=message)
        if replays(plain):
            best = finding = plain
    bound = finding.check == "bound"
    judged = finding.calls[-2:] if bound else finding.calls[-1:]
    head = finding.calls[:-len(judged)]
    expect = finding.expectation
    evidence = ([str(t) for t in expect.tokens] if isinstance(expect, ContainsAny)
                else [expect.marker] if isinstance(expect, FieldEquals | FieldShown)
                else [expect.marker, expect.witness] if isinstance(expect, FieldKept) else [])
    last = judged[-1]
    # The first read that showed what was later lost: the same call as the judged one, made earlier.
    written = [i for i, c in enumerate(head) if c.tool == write]
    witness = next((c for c in head[written[0] + 1:] if finding.rule in SHOWN_FIRST and c == last), None) \
        if written else None

    def needed(call: Call) -> bool:
        if call.tool == write:
            return not bound and any(t in json.dumps(call.arguments, ensure_ascii=False) for t in evidence)
        return call is witness

    def kept(calls: list[Call]) -> ProbeFinding:
        return replace(finding, calls=calls + judged)

    def witnessed(calls: list[Call]) -> bool:
        """A lost record's message says a read showed it earlier: that read still follows a write
        (before any, it shows nothing)."""
        at = next((i for i, c in enumerate(calls) if c is witness), None)
        return finding.rule != "probe-data-lost" or at is None or any(c.tool == write for c in calls[:at])

    def still_fails(candidate: ProbeFinding) -> bool:
        return claims_hold(candidate, write) and witnessed(candidate.calls) and replays(candidate)

    without_reads = [c for c in head if c.tool == write or needed(c)]
    if len(without_reads) < len(head) and budget > 0:
        budget -= 1
        if still_fails(kept(without_reads)):
            head, best = without_reads, kept(without_reads)
    # A call may be needed only beside another that a later drop removes (a read of a record that a
    # dropped read made the server refuse): the passes go on until one drops nothing.
    dropped = True
    while dropped and budget > 0:
        dropped = False
        chunk = max(1, len(head) // 2)
        while chunk >= 1 and budget > 0:
            start = 0
            while start < len(head) and budget > 0:
                part = head[start:start + chunk]
                if any(needed(c) for c in part):
                    start += chunk
                    continue
                fewer = head[:start] + head[start + chunk:]
                budget -= 1
                if still_fails(kept(fewer)):
                    head, best, dropped = fewer, kept(fewer), True
                else:
                    start += chunk
            chunk //= 2
    return best


def without_unpinned(finding: ProbeFinding, pinned: Callable[[ProbeFinding], set[int]], replays: Replays,
                     budget: int) -> ProbeFinding:
    """Drop every call the finding does not rest on (`pinned` names the indexes it does), all at
    once first, then one at a time, within `budget` replays; keep a drop a fresh replay still fails with."""
    keep = pinned(finding)
    if len(keep) < len(finding.calls):
        fewest = replace(finding, calls=[c for i, c in enumerate(finding.calls) if i in keep])
        if replays(fewest):
            return fewest
    best, index = finding, 0
    while index < len(best.calls) and budget > 0:
        if index in pinned(best):
            index += 1
            continue
        fewer = replace(best, calls=best.calls[:index] + best.calls[index + 1:])
        budget -= 1
        if replays(fewer):
            best = fewer
        else:
            index += 1
    return best
