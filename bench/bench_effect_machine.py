"""effect_machine in a user's suite: time to find and shrink the sample server's silent skip.

    python bench/bench_effect_machine.py [--repeat 3] [--no-explain]

Runs `effect_machine(...).TestCase` as pytest would (unittest), with the settings docs/pytest.md
shows (`--no-explain`: without Hypothesis's explain phase), on
`python -m hypothesis_mcp.sample_server --bug silent-skip`, and prints the wall time, the number of
steps and lines Hypothesis printed, and the failure. Target: under 60 s.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import time
import unittest

from hypothesis import Phase, settings

from hypothesis_mcp.stateful import effect_machine

SERVER = [sys.executable, "-m", "hypothesis_mcp.sample_server", "--bug", "silent-skip"]


def one_run(explain: bool) -> tuple[float, str, str]:
    """Wall seconds, Hypothesis's printout, and the failure message. No example database: every
    run finds the failure anew, as a first run in a user's suite does."""
    started = time.perf_counter()
    case = effect_machine(SERVER, write="create_note").TestCase
    phases = [p for p in Phase if explain or p is not Phase.explain]
    case.settings = settings(max_examples=20, stateful_step_count=15, deadline=None, database=None, phases=phases)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        result = unittest.TextTestRunner(stream=printed, verbosity=0).run(
            unittest.defaultTestLoader.loadTestsFromTestCase(case))
    wall = time.perf_counter() - started
    problems = result.failures + result.errors
    return wall, printed.getvalue(), problems[0][1].strip().splitlines()[-1] if problems else "no failure found"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-explain", action="store_true", help="leave out Hypothesis's explain phase")
    options = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    walls = []
    for index in range(options.repeat):
        wall, printed, failure = one_run(not options.no_explain)
        walls.append(wall)
        steps = [line for line in printed.splitlines() if line.lstrip().startswith(("state.", "records_"))
                 or " = state." in line]
        print(f"run {index + 1}: {wall:.1f} s, {len(steps)} step(s), {len(printed.splitlines())} printed line(s); "
              f"{failure}")
        if index == 0:
            print("\n".join(line for line in printed.splitlines() if "state" in line))
    print(f"best {min(walls):.1f} s, spread {min(walls):.1f}-{max(walls):.1f} s (target < 60 s)")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
