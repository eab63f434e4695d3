"""What every example of one probe run shares (the probe context) and the records it keeps."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.catalog import Bound, Tool
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.model.facts import Fact
from hypothesis_mcp.results import CONFIDENCE_ORDER
from hypothesis_mcp.search.pool import ServerPool
from hypothesis_mcp.stateful.judge import ProbeFinding
from hypothesis_mcp.stateful.readers import Reader
from hypothesis_mcp.stateful.unmarked import Plan
from hypothesis_mcp.strategies import salted_marker

MANY = 10
"""Records one step stores in a row: enough for a store that evicts at its 5th, 7th or 9th."""
MANY_EVERY = 8
"""The first example, and one in this many after it, opens with a long batch; the others stay
short, since a long batch costs a dozen writes and their reads."""


@dataclass
class Record:
    key: Any
    marker: str
    args: dict[str, Any]
    key_tokens: set[str]
    value_tokens: set[str]
    confirmed_by: Reader | None = None
    shown_among: int = 0
    """Records the answer that showed the record held (example.records_in: items, rows or markers, never lines);
    0 where only a larger or a later page showed it: the reader's own read, a window, never did."""
    by_marker: bool = False
    """A reader found it only when asked by its marker (the store rewrites the values it was written
    with, stripping controls or folding case): every later read asks so."""

    @property
    def evidence(self) -> set[str]:
        """Tokens whose presence shows the record. Key tokens only when nothing else was marked:
        a reader that echoes its query ("no note titled X") shows the key without the record."""
        return self.value_tokens or self.key_tokens


@dataclass
class ProbeContext:
    """Everything the machine needs, shared by every example of one probe run."""

    pool: ServerPool
    write: Tool
    readers: list[Reader]
    key_path: str | None
    base_args: dict[str, dict[str, Any]]
    write_args: dict[str, Any] = field(default_factory=dict)
    overwrite: Fact | None = None
    """That a second write with the same key replaces the first, when stated or calibrated."""
    identity: Fact | None = None
    """That the key field tells records apart, when stated or calibrated."""
    appends: bool = False
    """Calibration showed a second write with the same key adds a record: no overwrite is judged,
    and both records are expected to stay."""
    refusals: tuple[Fact, ...] = ()
    """The server's own refusal shapes calibration showed: every write judged accepted rests on them."""
    bounds: list[tuple[Tool, Bound]] = field(default_factory=list)
    slices: bool = True
    salt: int = 0
    shrink_runs: int = 30
    give_up_after: int | None = 4
    runs: int = 0
    runs_after_failure: int = 0
    writes_ok: int = 0
    writes_unmarked: int = 0
    writes_refused: list[Outcome] = field(default_factory=list)
    unmarked: Plan | None = None
    """The fields that, left unmarked, made the server accept a write it had refused: every later
    write of the run leaves them unmarked from the start."""
    retries_refused: list[tuple[Plan, Outcome]] = field(default_factory=list)
    """Retries with fewer marked fields that were refused too."""
    confirmed: int = 0
    fields_judged: int = 0
    overwrites_judged: int = 0
    stop: Callable[[], bool] = lambda: False
    shown: Callable[[ProbeFinding], str] | None = None
    """A failure's text where a user reads it (their own suite: with its calls as Python); the
    probe run reads the finding itself."""
    warm_shrink: bool = True
    warm: bool = False
    """Every example runs on the pool's one warm server (markers keep them apart): the write tool
    repeats the shape of one whose examples ran fresh, so nothing is judged of a new process, and
    each finding is replayed on a fresh server before it is reported."""
    open_many: bool = True
    """The first example and one in MANY_EVERY open with a long batch, chosen by the run's count of
    examples. A replay then meets other rules than the run that failed, which the probe run survives
    (it keeps the failure it saw) but a plain Hypothesis run does not: there a long batch is one
    rule among the others."""
    out_of_time: bool = False
    smallest: ProbeFinding | None = None
    persisted: list[tuple[str, list[str]]] = field(default_factory=list)
    """(reader, markers) a fresh server's first read showed from earlier examples: state persists."""
    candidates: list[ProbeFinding] = field(default_factory=list)
    resources_shown: set[str] = field(default_factory=set)
    """Resources that showed a record no read tool showed."""
    _counter: itertools.count[int] = field(default_factory=itertools.count)

    def next_marker(self) -> str:
        return salted_marker(self.salt, next(self._counter))

    def record_failure(self, finding: ProbeFinding) -> None:
        self.candidates.append(finding)
        best = self.smallest
        if best is None or (_rank(finding), len(finding.calls)) < (_rank(best), len(best.calls)):
            self.smallest = finding

    @property
    def spent(self) -> bool:
        if self.stop():
            self.out_of_time = True
            return True
        if self.smallest is not None:
            return self.runs_after_failure > self.shrink_runs
        # Every write refused in several examples: the generated values cannot work, and each further
        # example costs a server start for the same inconclusive answer.
        limit = self.give_up_after
        return limit is not None and self.writes_ok == 0 and self.runs > limit and len(self.writes_refused) >= limit


def _rank(finding: ProbeFinding) -> int:
    return CONFIDENCE_ORDER[finding.confidence]


def get_path(args: Any, path: str) -> Any:
    value = args
    for part in path.replace("[]", ".[]").split("."):
        if not part:
            continue
        if part == "[]":
            if not isinstance(value, list) or not value:
                return None
            value = value[0]
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value


def set_path(args: Any, path: str, new: Any) -> None:
    parts = [p for p in path.replace("[]", ".[]").split(".") if p]
    value = args
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "[]":
            if not isinstance(value, list) or not value:
                return
            if last:
                value[0] = new
                return
            value = value[0]
        elif isinstance(value, dict):
            if last:
                value[part] = new
                return
            value = value.get(part)
        else:
            return


def bound_range(bound: Bound) -> tuple[int, int]:
    """The limits a bounded read is tried with: within the schema's, at most 50."""
    return max(1, bound.minimum or 1), bound.maximum if bound.maximum is not None else 50


