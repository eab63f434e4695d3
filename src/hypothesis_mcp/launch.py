"""The `hypothesis-mcp` console script.

The command line itself is light: each command loads the engine, the SDK and Hypothesis when it
runs (`loading.collector_paused`), so `--help` answers without them, and `--version` alone is
answered before the command line (typer, rich) loads at all.
"""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        from hypothesis_mcp.version import version_line

        print(version_line())
        return
    from hypothesis_mcp.cli import main as run_cli

    run_cli()
