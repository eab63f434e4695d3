"""Facts a verdict rests on: each shown (by calls of this run, or stated by the user) or guessed
(from words or annotations), and the confidence they allow.

A finding is as sure as its weakest fact: high only when every fact it needs was shown; one that
rests on a guess is at most low, so it is a warning that never caps the grade. A guess of a tool's
role from the shape of its schema (it takes a held record's id and a field that record shows, and
answered success) is at most medium: still a warning, named the same with or without words.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis_mcp.results import CONFIDENCE_ORDER, Call

SHOWN, GUESSED = "shown", "guessed"


@dataclass(frozen=True)
class Fact:
    """One thing the run knows of the server. `shown_by` are the calls that showed it (located in a
    reproduction by `marker` and the tools named), `source` what a guess was read from."""

    what: str
    evidence: str
    source: str = ""
    shown_by: tuple[Call, ...] = ()
    marker: str | None = None
    tools: tuple[str, ...] = ()
    at: tuple[int, ...] = field(default=())
    """1-based places of the showing calls in the finding's reproduction, once located."""
    at_most: str = "low"
    """For a guess: the surest confidence a finding resting on it may claim."""

    @property
    def shown(self) -> bool:
        return self.evidence == SHOWN

    def located(self, calls: list[Call]) -> Fact:
        """The fact with the places of its showing calls in `calls`: the first call of a named tool
        that carries the marker, and the first call of each other named tool after it."""
        if not self.shown or self.marker is None:
            return self
        places: list[int] = []
        for tool in self.tools:
            start = places[0] if places else 0
            for index, call in enumerate(calls[start:], start + 1):
                carries = self.marker in json.dumps(call.arguments, ensure_ascii=False)
                if call.tool == tool and (carries or places):
                    places.append(index)
                    break
        return replace(self, at=tuple(sorted(places)))

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {"what": self.what, "evidence": self.evidence}
        if self.source:
            found["source"] = self.source
        if not self.shown and self.at_most != "low":
            found["at_most"] = self.at_most
        if self.at:
            found["calls"] = list(self.at)
        elif self.shown_by:
            found["calls"] = [c.to_dict() for c in self.shown_by]
        return found


def fact_shown(what: str, *, marker: str | None = None, tools: Iterable[str] = (), calls: Iterable[Call] = (),
          source: str = "") -> Fact:
    return Fact(what, SHOWN, source, tuple(calls), marker, tuple(tools))


def fact_guessed(what: str, source: str, at_most: str = "low") -> Fact:
    return Fact(what, GUESSED, source, at_most=at_most)


def allowed(confidence: str, facts: Iterable[Fact]) -> str:
    """The confidence a finding may claim: its own, capped by the guesses it rests on (low, or what
    a guess allows)."""
    caps = [f.at_most for f in facts if not f.shown]
    return max([confidence, *caps], key=lambda c: CONFIDENCE_ORDER[c])


def rests_on(facts: Iterable[Fact], calls: list[Call]) -> list[dict[str, Any]]:
    return [f.located(calls).to_dict() for f in facts]
