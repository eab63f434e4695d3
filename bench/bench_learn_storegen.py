"""How right `learn` is on generated store servers, named and name-blind.

    python bench/bench_learn_storegen.py [--seeds 0-199] [--jobs 2] [--show 40]

For every seed, `hypothesis-mcp learn "python storegen.py --seed N --correct" --allow-writes
--allow-deletes --json`
runs twice: on the server as drawn, and through the name-blind proxy (tests/blind.py: tools `t1`,
`t2`…, no descriptions or titles). Each answer is compared with the seed's `--describe` truth
(tests/storegen_truth.py): per tool, its role class, its identity and its reader bindings. Prints
the share right per dimension and per tool (all three right), every belief marked shown that is
false, and the seeds where the blind run showed other things than the named one.

Each run is the `learn` command itself, in a process forked from this one (the imports are paid
once), `--jobs` at a time.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import hypothesis_mcp.learn  # noqa: F401 - imported before the forks, not once per run
from hypothesis_mcp.cli import app
from storegen_truth import SKIP_REASON, Graded, command, describe, grade, seeds_of, shown_model, storegen_dir

FLAGS = ["--allow-writes", "--allow-deletes"]
"""storegen's creates and updates are often annotated destructive: without deletes allowed no
experiment may call them, blind or named."""


def learn_one(job: tuple[int, bool]) -> tuple[int, bool, dict[str, Any] | str, float]:
    """One `learn` run of one seed, in a forked process: its JSON, or why it failed."""
    seed, blind = job
    start = time.perf_counter()
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "learned.json"
        target = " ".join(command(seed, blind=blind))
        with contextlib.redirect_stderr(io.StringIO()) as said:
            try:
                app(["learn", target, *FLAGS, "--json", str(out)], standalone_mode=False)
            except SystemExit as exit_:
                if exit_.code:
                    return seed, blind, f"exit {exit_.code}: {said.getvalue()[-400:]}", time.perf_counter() - start
            except Exception as error:
                return seed, blind, f"{type(error).__name__}: {error}", time.perf_counter() - start
        if not out.exists():
            return seed, blind, f"no JSON written: {said.getvalue()[-400:]}", time.perf_counter() - start
        return seed, blind, json.loads(out.read_text(encoding="utf-8")), time.perf_counter() - start


def percent(right: int, total: int) -> str:
    return f"{100 * right / total:5.1f}% ({right}/{total})" if total else "  n/a"


def report(name: str, graded: Graded) -> None:
    print(f"{name}: tools all right {percent(graded.tools_right, graded.tools)}")
    for key in graded.right:
        print(f"    {key:<10} {percent(graded.right[key], graded.total[key])}")
    print(f"    false shown beliefs: {len(graded.false_shown)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="0-199", help="seeds, as 0-199 or 1,5,9-12")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show", type=int, default=40, help="wrong beliefs to print per run kind")
    parser.add_argument("--json", dest="json_out", help="write every learned answer and grade here")
    options = parser.parse_args()
    if storegen_dir() is None:
        print(SKIP_REASON, file=sys.stderr)
        return 2
    seeds = seeds_of(options.seeds)
    truths = {seed: describe(seed) for seed in seeds}
    jobs = [(seed, blind) for seed in seeds for blind in (False, True)]
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(options.jobs, maxtasksperchild=1) as pool:
        answers = {(seed, blind): (found, took) for seed, blind, found, took in pool.imap_unordered(learn_one, jobs)}
    wall = time.perf_counter() - start
    failed = [f"seed {s} {'blind' if b else 'named'}: {a}" for (s, b), (a, _) in sorted(answers.items())
              if isinstance(a, str)]
    totals = {False: Graded(), True: Graded()}
    differ: list[int] = []
    for seed in seeds:
        named, blind = answers[(seed, False)][0], answers[(seed, True)][0]
        real = [t["name"] for t in named["tools"]] if isinstance(named, dict) else None
        for is_blind, found in ((False, named), (True, blind)):
            if isinstance(found, dict):
                totals[is_blind].add(grade(found, truths[seed], real if is_blind else None))
        if isinstance(named, dict) and isinstance(blind, dict) and shown_model(named) != shown_model(blind):
            differ.append(seed)
    print(f"seeds {options.seeds}: {len(seeds)} servers, {len(jobs)} learn runs in {wall:.0f} s "
          f"({options.jobs} jobs; mean run {sum(t for _, t in answers.values()) / len(jobs):.1f} s)")
    for is_blind in (False, True):
        report("blind" if is_blind else "named", totals[is_blind])
    print(f"blind shows other things than named: {len(differ)} seed(s) {differ[:30]}")
    for is_blind in (False, True):
        kind = "blind" if is_blind else "named"
        for line in totals[is_blind].false_shown:
            print(f"  FALSE SHOWN ({kind}) {line}")
        for line in totals[is_blind].wrong[:options.show]:
            print(f"  wrong ({kind}) {line}")
    for line in failed:
        print(f"  FAILED {line}")
    if options.json_out:
        Path(options.json_out).write_text(json.dumps(
            {f"{s}:{'blind' if b else 'named'}": a for (s, b), (a, _) in answers.items()}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
