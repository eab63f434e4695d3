"""Where an effect machine's failure points in a user's suite: at their test, not into this
library or Hypothesis, whose frames and lines are the same for every failure and say nothing about
the server."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import TracebackType
from typing import NoReturn

PACKAGE = Path(__file__).resolve().parent.parent
EXPLANATION = "Explanation:"
"""The first note of Hypothesis's explanation; the notes indented under it name source lines."""


@cache
def in_library(filename: str) -> bool:
    import hypothesis  # only once a failure is shown: the CLI's --help does not load it

    path = Path(filename).resolve()
    return any(path.is_relative_to(folder) for folder in (PACKAGE, Path(hypothesis.__file__).resolve().parent))


def user_traceback(tb: TracebackType | None) -> TracebackType | None:
    """The frames of `tb` outside this library and Hypothesis: the user's test and what it calls."""
    kept = []
    while tb is not None:
        if not in_library(tb.tb_frame.f_code.co_filename):
            kept.append(tb)
        tb = tb.tb_next
    trimmed = None
    for entry in reversed(kept):
        trimmed = TracebackType(trimmed, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return trimmed


def without_library_lines(notes: list[str]) -> list[str]:
    """`notes` with Hypothesis's explanation naming only lines outside this library and Hypothesis,
    or left out when it named none."""
    kept: list[str] = []
    block: list[str] = []
    for note in notes:
        if note == EXPLANATION or (block and note.startswith("    ")):
            block.append(note)
            continue
        kept.extend(_explained(block))
        block = []
        kept.append(note)
    return kept + _explained(block)


def _explained(block: list[str]) -> list[str]:
    """An explanation block (header, stub, locations) with the user's locations only. The count
    of lines left out ("and N more") counted the library's too, so it goes."""
    lines = [note for note in block[2:] if not note.strip().startswith("(")
             and not in_library(note.strip().rpartition(":")[0])]
    return block[:2] + lines if lines else []


def raise_at(error: BaseException, filename: str, lineno: int) -> NoReturn:
    """Raise `error` from a frame at line `lineno` of `filename`, without the frames it came from.

    The unittest `TestCase` form of an effect machine runs no function of the user's: the one line
    of theirs is the one that built the class, so the failure is raised there (as template engines
    raise from a template's line) and the traceback shows it with its source."""
    __tracebackhide__ = True
    code = compile("\n" * (lineno - 1) + "raise error", filename, "exec")
    exec(code, {"error": error.with_traceback(None)})
    raise AssertionError("unreachable: the code above raises")
