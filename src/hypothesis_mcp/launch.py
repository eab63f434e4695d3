"""The `hypothesis-mcp` console script: the command line, loaded with the collector paused.

Loading the command line makes a few hundred thousand objects that live as long as the process
(the SDK's protocol models, Hypothesis, the rules); collecting while they are made only walks them
again and again, about a third of the start-up's CPU. Frozen once loaded, later collections of a
run skip them too. (Every module the command line loads stays loaded: Hypothesis draws from the
literals of the loaded modules, so loading a report format lazily would change a run's draws.)
"""

from __future__ import annotations

import gc


def main() -> None:
    collecting = gc.isenabled()
    gc.disable()
    from hypothesis_mcp.cli import main as run_cli

    gc.freeze()
    if collecting:
        gc.enable()
    run_cli()
