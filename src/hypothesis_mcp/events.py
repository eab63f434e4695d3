"""Progress events a run reports while it goes, for a front (the CLI's status line) to show.

Events are data only: a front learns the run's counts from the events themselves, never by
calling back into the run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hypothesis_mcp.connection import ServerInfo


@dataclass(frozen=True)
class Counts:
    """Work so far: examples run, calls made, failures found."""

    examples: int = 0
    calls: int = 0
    failures: int = 0


@dataclass(frozen=True)
class CatalogRead:
    """The server's tools were listed."""

    tools: int
    server: ServerInfo | None


@dataclass(frozen=True)
class Planned:
    """The tools the scenarios will call, before any call, so a front can warn before anything is
    written; `announcement` is the sentence to show when some of them may write."""

    call: list[str]
    may_write: list[str]
    announcement: str | None


@dataclass(frozen=True)
class PhaseStarted:
    """A phase of the run begins. `items` says whether it reports its tools or checks one by one
    (searches, smoke, resources and prompts, scenarios, probes do; catalog, lint, plan and scoring
    do not); searches run on `workers` lanes."""

    name: str
    items: bool = True
    workers: int | None = None


@dataclass(frozen=True)
class PhaseFinished:
    """The phase ended (done, cut short or interrupted), with the run's counts at that moment."""

    name: str
    elapsed: float
    counts: Counts


@dataclass(frozen=True)
class ItemStarted:
    """A tool's searches, or a check of a phase, began."""

    phase: str
    name: str
    elapsed: float
    counts: Counts


@dataclass(frozen=True)
class ItemFinished:
    """A tool's searches, or a check of a phase, finished with `status` ("" when it has none)."""

    phase: str
    name: str
    status: str
    elapsed: float
    counts: Counts


@dataclass(frozen=True)
class CountsMoved:
    """The run's counts changed while no item started or finished (a long search is under way)."""

    elapsed: float
    counts: Counts


Event = CatalogRead | Planned | PhaseStarted | PhaseFinished | ItemStarted | ItemFinished | CountsMoved
Events = Callable[[Event], None]
