"""Progress of a run on stderr, built on the engine's events.

On a terminal: a live display per phase with the tool or check under test, examples, calls and
failures so far and the elapsed time. Elsewhere (CI logs): one short line per finished tool or
check. Quiet: nothing. The report itself is printed after, by the report formats.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import Progress, ProgressColumn, SpinnerColumn, Task, TextColumn, TimeElapsedColumn
from rich.text import Text

Counts = Callable[[], dict[str, int]]


def _counts_text(counts: dict[str, int]) -> str:
    examples, calls, failures = (counts.get(key, 0) for key in ("examples", "calls", "failures"))
    return f"{examples} examples · {calls} calls · {failures} failures"


class _CountsColumn(ProgressColumn):
    """Asks the engine for its counts at every refresh, so they move during a long search."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: Counts | None = None

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

    def __call__(self, name: str, info: dict[str, Any]) -> None:
        if name == "start":
            self.column.counts = info["counts"]
        elif name == "plan" and info.get("announcement"):
            self.progress.console.print(info["announcement"], soft_wrap=True, markup=False)
        elif name == "stage":
            self._finish()
            self.stage = str(info["name"])
            self.task = self.progress.add_task(self.stage, total=None)
        elif name == "step" and self.task is not None:
            label = f"{self.stage}: {info['name']}"
            if info.get("phase") == "done" and info.get("status"):
                label += f" ({info['status']})"
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
    """One line per finished tool or check, for logs that are not a terminal."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def __call__(self, name: str, info: dict[str, Any]) -> None:
        if name == "plan" and info.get("announcement"):
            self.console.print(info["announcement"], soft_wrap=True, markup=False, highlight=False)
        elif name == "step" and info.get("phase") == "done":
            status = f" {info['status']}" if info.get("status") else ""
            self.console.print(f"[{info['stage']}] {info['name']}{status}: {_counts_text(info)}, "
                               f"{info.get('elapsed', 0.0):.1f}s", soft_wrap=True, markup=False, highlight=False)


def _quiet(name: str, info: dict[str, Any]) -> None:
    """--quiet: nothing while the run goes on."""


@contextmanager
def progress_display(console: Console, *, quiet: bool = False) -> Iterator[Callable[[str, dict[str, Any]], None]]:
    """The engine's event callback for this console: live on a terminal, lines elsewhere."""
    if quiet:
        yield _quiet
    elif console.is_terminal:
        with LiveDisplay(console) as live:
            yield live
    else:
        yield LineDisplay(console)
