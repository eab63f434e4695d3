"""Loading the heavy modules (the SDK's protocol models, Hypothesis, the engine) with the collector paused.

They make a few hundred thousand objects that live as long as the process; collecting while they
are made only walks them again and again, about a third of the load's CPU. The command line loads
them only inside the commands that need them, so `--help` and `--version` answer at once.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused(*, freeze: bool = False) -> Iterator[None]:
    """Pause the garbage collector while the block imports; `freeze` moves what was loaded out of
    later collections' way (the command line's choice: it lives for one run)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if collecting:
            gc.enable()
