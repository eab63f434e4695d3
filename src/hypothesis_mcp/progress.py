"""Progress of a run on stderr, built on the engine's events.

On a terminal: a live display per phase with the tool or check under test, examples, calls and
failures so far and the elapsed time. Elsewhere (CI logs): a line per finished stage, and one per
tool or check that failed (every one with --verbose). Quiet: nothing. The report itself is printed
after, by the report formats.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import Progress, ProgressColumn, SpinnerColumn, Task, TextColumn, TimeElapsedColumn
from rich.text import Text

from hypothesis_mcp.events import Counts, Event, Events, Planned, RunStarted, StageStarted, Step


def _counts_text(counts: Counts | Step) -> str:
    failures = "1 failure" if counts.failures == 1 else f"{counts.failures} failures"
    return f"{counts.examples} examples · {counts.calls} calls · {failures}"


class _CountsColumn(ProgressColumn):
    """Asks the engine for its counts at every refresh, so they move during a long search."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: Callable[[], Counts] | None = None

    def render(self, task: Task) -> Text:
        if self.counts is None or task.finished:
            return Text(str(task.fields.get("final", "")), style="dim")
        try:
            return Text(_counts_text(self.counts()), style="cyan")
        except RuntimeError:  # a cache changed size while it was read: show it at the next refresh
            return Text("")


class LiveDisplay:
    def __init__(self, console: Console) -> None:
        self.console = console
        self.column = _CountsColumn()
        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), self.column,
                                 TimeElapsedColumn(), console=console, transient=False)
        self.task: Any = None
        self.stage = ""

    def __call__(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            self.column.counts = event.counts
        elif isinstance(event, Planned) and event.announcement:
            self.progress.console.print(event.announcement, soft_wrap=True, markup=False)
        elif isinstance(event, StageStarted):
            self._finish()
            self.stage = event.name
            self.task = self.progress.add_task(self.stage, total=None)
        elif isinstance(event, Step) and self.task is not None:
            label = f"{self.stage}: {event.name}"
            if event.phase == "done" and event.status:
                label += f" ({event.status})"
            self.progress.update(self.task, description=label)

    def _finish(self) -> None:
        if self.task is not None and self.column.counts is not None:
            final = _counts_text(self.column.counts())
            self.progress.update(self.task, description=self.stage, total=1, completed=1, final=final)

    def __enter__(self) -> LiveDisplay:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._finish()
        self.progress.stop()


class LineDisplay:
    """For logs that are not a terminal: a stage's single tool or check as its line; a stage of several
    as a line for each one that found a failure or did not pass, then a line that counts them all.
    `verbose` prints a line for every one."""

    def __init__(self, console: Console, *, verbose: bool = False) -> None:
        self.console = console
        self.verbose = verbose
        self.stage = ""
        self.steps: list[tuple[Step, bool]] = []
        """The stage's finished steps, each with whether its line was printed."""

    def __call__(self, event: Event) -> None:
        if isinstance(event, Planned) and event.announcement:
            self._print(event.announcement)
        elif isinstance(event, StageStarted):
            self.finish()
            self.stage = event.name
        elif isinstance(event, Step) and event.phase == "done":
            found = event.failures > (self.steps[-1][0].failures if self.steps else 0)
            shown = self.verbose or found or event.status not in ("", "pass")
            if shown:
                self._print(_step_line(event))
            self.steps.append((event, shown))

    def finish(self) -> None:
        """The finished stage's closing line."""
        if len(self.steps) == 1 and not self.steps[0][1]:
            self._print(_step_line(self.steps[0][0]))
        elif len(self.steps) > 1:
            last = self.steps[-1][0]
            flagged = sum(shown for _, shown in self.steps) if not self.verbose else 0
            others = f", {flagged} shown above" if flagged else ""
            self._print(f"[{self.stage}] {len(self.steps)} done{others}: {_counts_text(last)}, {last.elapsed:.1f}s")
        self.steps = []

    def _print(self, text: str) -> None:
        self.console.print(text, soft_wrap=True, markup=False, highlight=False)


def _step_line(step: Step) -> str:
    status = f" {step.status}" if step.status else ""
    return f"[{step.stage}] {step.name}{status}: {_counts_text(step)}, {step.elapsed:.1f}s"


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
