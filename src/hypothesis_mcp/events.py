"""Progress events a run reports while it goes, for a front (the CLI's status line) to show."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hypothesis_mcp.connection import ServerInfo


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
class StageStarted:
    """A stage of the run begins: searches (on `workers` lanes), smoke, scenarios or probes."""

    name: str
    workers: int | None = None


@dataclass(frozen=True)
class Counts:
    """Work so far: examples run, calls made, failures found."""

    examples: int = 0
    calls: int = 0
    failures: int = 0


@dataclass(frozen=True)
class RunStarted:
    """The run begins; `counts` gives the work so far at any moment (a live display asks it from
    another thread)."""

    counts: Callable[[], Counts]


@dataclass(frozen=True)
class Step:
    """A tool's searches, or a check of a stage, reached `phase` ("start" or "done"), with the
    counts of the whole run at that moment."""

    stage: str
    name: str
    phase: str
    status: str
    elapsed: float
    examples: int
    calls: int
    failures: int


Event = CatalogRead | Planned | StageStarted | RunStarted | Step
Events = Callable[[Event], None]
