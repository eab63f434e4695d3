"""Progress of a run on stderr, built on the engine's events.

On a terminal: a live display per phase with the tool or check under test, examples, calls and
failures so far and the elapsed time. Elsewhere (CI logs): a line per finished phase, and one per
tool or check that failed (every one with --verbose). Quiet: nothing. The report itself is printed
after, by the report formats.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import Progress, ProgressColumn, SpinnerColumn, Task, TextColumn, TimeElapsedColumn
from rich.text import Text

from hypothesis_mcp.events import (
    Counts,
    CountsMoved,
    Event,
    Events,
    ItemFinished,
    ItemStarted,
    PhaseFinished,
    PhaseStarted,
    Planned,
)


def _counts_text(counts: Counts) -> str:
    failures = "1 failure" if counts.failures == 1 else f"{counts.failures} failures"
    return f"{counts.examples} examples · {counts.calls} calls · {failures}"


class _CountsColumn(ProgressColumn):
    """Shows the counts the latest event brought, so they move during a long search."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: Counts | None = None

    def render(self, task: Task) -> Text:
        if self.counts is None or task.finished:
            return Text(str(task.fields.get("final", "")), style="dim")
        return Text(_counts_text(self.counts), style="cyan")


class LiveDisplay:
    def __init__(self, console: Console) -> None:
        self.console = console
        self.column = _CountsColumn()
        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), self.column,
                                 TimeElapsedColumn(), console=console, transient=False)
        self.task: Any = None
        self.phase = ""

    def __call__(self, event: Event) -> None:
        if isinstance(event, (CountsMoved, ItemStarted, ItemFinished, PhaseFinished)):
            self.column.counts = event.counts
        if isinstance(event, Planned) and event.announcement:
            self.progress.console.print(event.announcement, soft_wrap=True, markup=False)
        elif isinstance(event, PhaseStarted) and event.items:
            self.phase = event.name
            self.task = self.progress.add_task(self.phase, total=None)
        elif isinstance(event, PhaseFinished) and event.name == self.phase:
            self._finish()
        elif isinstance(event, (ItemStarted, ItemFinished)) and self.task is not None:
            label = f"{self.phase}: {event.name}"
            if isinstance(event, ItemFinished) and event.status:
                label += f" ({event.status})"
            self.progress.update(self.task, description=label)

    def _finish(self) -> None:
        if self.task is not None and self.column.counts is not None:
            final = _counts_text(self.column.counts)
            self.progress.update(self.task, description=self.phase, total=1, completed=1, final=final)
        self.task = None

    def __enter__(self) -> LiveDisplay:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._finish()
        self.progress.stop()


class LineDisplay:
    """For logs that are not a terminal: a phase's single tool or check as its line; a phase of several
    as a line for each one that found a failure or did not pass, then a line that counts them all.
    `verbose` prints a line for every one."""

    def __init__(self, console: Console, *, verbose: bool = False) -> None:
        self.console = console
        self.verbose = verbose
        self.phase = ""
        self.items: list[tuple[ItemFinished, bool]] = []
        """The phase's finished items, each with whether its line was printed."""

    def __call__(self, event: Event) -> None:
        if isinstance(event, Planned) and event.announcement:
            self._print(event.announcement)
        elif isinstance(event, PhaseStarted) and event.items:
            self.finish()
            self.phase = event.name
        elif isinstance(event, PhaseFinished) and event.name == self.phase:
            self.finish()
        elif isinstance(event, ItemFinished):
            found = event.counts.failures > (self.items[-1][0].counts.failures if self.items else 0)
            shown = self.verbose or found or event.status not in ("", "pass")
            if shown:
                self._print(_item_line(event))
            self.items.append((event, shown))

    def finish(self) -> None:
        """The finished phase's closing line."""
        if len(self.items) == 1 and not self.items[0][1]:
            self._print(_item_line(self.items[0][0]))
        elif len(self.items) > 1:
            last = self.items[-1][0]
            flagged = sum(shown for _, shown in self.items) if not self.verbose else 0
            others = f", {flagged} shown above" if flagged else ""
            self._print(f"[{self.phase}] {len(self.items)} done{others}: {_counts_text(last.counts)}, "
                        f"{last.elapsed:.1f}s")
        self.items = []

    def _print(self, text: str) -> None:
        self.console.print(text, soft_wrap=True, markup=False, highlight=False)


def _item_line(item: ItemFinished) -> str:
    status = f" {item.status}" if item.status else ""
    return f"[{item.phase}] {item.name}{status}: {_counts_text(item.counts)}, {item.elapsed:.1f}s"


def _quiet(event: Event) -> None:
    """--quiet: nothing while the run goes on."""


@contextmanager
def progress_display(console: Console, *, quiet: bool = False, verbose: bool = False) -> Iterator[Events]:
    """The engine's event callback for this console: live on a terminal, lines elsewhere."""
    if quiet:
        yield _quiet
    elif console.is_terminal:
        with LiveDisplay(console) as live:
            yield live
    else:
        lines = LineDisplay(console, verbose=verbose)
        yield lines
        lines.finish()
