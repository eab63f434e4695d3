"""What a probe concluded, and how a replay on a fresh server tells whether it still holds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from hypothesis_mcp.connection import Connection, Outcome
from hypothesis_mcp.model.facts import Fact, allowed
from hypothesis_mcp.results import Call, Check, RuleId
from hypothesis_mcp.rules.bindings import Rebinder
from hypothesis_mcp.rules.expectations import (
    ContainsAny,
    Expectation,
    ShowsNone,
    Unjudged,
    from_dict,
    premise_refused,
    premise_unstored,
    rebound,
)
from hypothesis_mcp.stateful.frames import without_library_lines

Rest = Callable[[Connection, Call, Outcome], Outcome]
"""The whole listing a read's answer is the first page of, read on to its end on the same server
(the answer itself where the read is no listing that continues)."""


@dataclass
class ProbeFinding:
    """A violated effect property, with the calls (from a fresh server) that show it.

    `expect` is what a correct server's last answer in `calls` satisfies; a replay judges it. The
    state machine hands it over in its report form (a dict), which becomes the typed expectation.
    """

    rule: RuleId
    tool: str
    message: str
    confidence: str
    basis: str
    calls: list[Call] = field(default_factory=list)
    expect: Expectation | dict[str, Any] = field(default_factory=Unjudged)
    check: Check = "round-trip"
    fresh: bool = True
    details: dict[str, Any] = field(default_factory=dict)
    """Shown with the result: the written and the read value of a changed field."""
    facts: tuple[Fact, ...] = ()
    """What the finding rests on; a guess among them makes it low (model.facts)."""

    def __post_init__(self) -> None:
        if isinstance(self.expect, dict):
            self.expect = from_dict(self.expect)
        self.facts = tuple(f for f in self.facts if isinstance(f, Fact))
        self.confidence = allowed(self.confidence, self.facts)

    @property
    def expectation(self) -> Expectation:
        assert isinstance(self.expect, Expectation)
        return self.expect

    def to_dict(self) -> dict[str, Any]:
        """The finding as kept between runs (`ProbeFinding(**data)` reads it back)."""
        kept = {k: v for k, v in asdict(self).items() if k != "facts"}
        return {**kept, "calls": [c.to_dict() for c in self.calls], "expect": self.expectation.to_dict()}


class ProbeFailure(AssertionError):
    """A probe's finding as an assertion; `shown` is its text where a user reads it (their suite)."""

    def __init__(self, finding: ProbeFinding, shown: str | None = None) -> None:
        super().__init__(shown or finding.message)
        self.finding = finding
        self.notes_added: list[str] = []

    def add_note(self, note: str, /) -> None:
        """Hypothesis explains a failure by the source lines only failing runs executed; for a probe
        those are this library's judging lines, which say nothing about the server: they go."""
        self.notes_added.append(note)
        self.__notes__ = without_library_lines(self.notes_added)


@dataclass(frozen=True)
class Replay:
    """A finding's calls made on a fresh server: each call with its answer, and what the last answer
    should satisfy there (settled on these answers: a count moves by the calls the server accepted)."""

    steps: list[tuple[Call, Outcome]]
    expect: Expectation
    last: Call
    """The last call as sent, the ids an earlier answer made bound into it."""


def replayed(finding: ProbeFinding, conn: Connection) -> Replay:
    rebinder = Rebinder()
    outcomes = []
    last = finding.calls[-1]
    for call in finding.calls:
        last = call = rebinder.before(call)
        outcomes.append(conn.call(call.tool, call.arguments))
        rebinder.after(call, outcomes[-1])
    steps = list(zip(finding.calls, outcomes, strict=True))
    return Replay(steps, rebound(finding.expectation, rebinder).settled(steps), last)


def reproduces(finding: ProbeFinding, conn: Connection, rest: Rest | None = None) -> bool:
    """Replay the calls on `conn` (a fresh server) and see the last answer break the property. A call
    of the finding's own tool refused before the read that judges it shows nothing (premise_refused),
    nor does a read missing what only refused calls sent (premise_unstored): the failure rested on
    their success, unless the finding is that a refused call changed something. With `rest`, a record
    said missing from a listing is looked for on its later pages too: a replay may write more records
    than its first page holds, and a correct listing shows the rest on the next. So is a record said
    to be gone (`ShowsNone`): a listing that keeps it may show it past its first page only."""
    if not finding.calls:
        return False
    replay = replayed(finding, conn)
    steps, expect = replay.steps, replay.expect
    if finding.rule != "probe-refusal-changed-state" and (
            premise_refused(steps, finding.tool) or premise_unstored(steps, expect)):
        return False
    previous = steps[-2][1] if len(steps) > 1 else None
    if finding.fresh and not expect.written_by([c.arguments for c in finding.calls[:-1]]):
        return False
    answer = steps[-1][1]
    held = expect.holds(answer, previous)
    if rest is not None and isinstance(expect, ContainsAny | ShowsNone) and held == isinstance(expect, ShowsNone):
        # The first page does not show the record: whether the listing holds it is known once its
        # later pages are read too.
        held = expect.holds(rest(conn, replay.last, answer), previous)
    return not held
