"""Whether a grading run needs the tools' names: the suite's store servers graded named and blind.

    python bench/bench_blind_grading.py [--jobs 2] [--only NAME]

Each server (a buggy store of tests/servers/ and its correct twin, and the sample server's bugs) is
graded twice in-process with the grading profile, `--probes --allow-writes`: as it is, and through
the name-blind proxy (tests/blind.py: tools `t1`, `t2`… in catalogue order, no descriptions or
titles). A probe finding is (rule, the tool's place in the catalogue, confidence); the two runs agree
when they hold the same findings. Prints one line per server and the count that agree.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import ROOT, SERVE, blind, engine, grading
from hypothesis_mcp import connect

SERVERS: dict[str, list[str]] = {
    f"{script} {' '.join(flags) or '(twin)'}": [*SERVE, str(ROOT / "tests/servers" / script), *flags]
    for script, flag_sets in {
        "parts_bin.py": [[], ["--bug", "cache"], ["--bug", "refusal"]],
        "task_patches.py": [[], ["--bug", "keeps-note"], ["--bug", "drops-title"]],
        "item_edits.py": [[], ["--bug", "keeps-title"], ["--bug", "drops-note"]],
        "shelf_store.py": [[], ["--bug", "keeps-old-notes"]],
        "memo_pad.py": [[], ["--bug", "drops-body-on-overwrite"]],
        "probe_bugs.py": [[], ["--bug", "evict-after-3"], ["--bug", "noop-some-values"]],
    }.items()
    for flags in flag_sets
} | {
    f"sample_server {' '.join(flags) or '(twin)'}": [sys.executable, "-m", "hypothesis_mcp.sample_server", *flags]
    for flags in ([], ["--bug", "silent-skip"], ["--bug", "lose-on-write"])
}

Finding = tuple[str, int, str]


def findings(command: list[str], places: dict[str, int]) -> set[Finding]:
    report = engine(command, grading(), probes=True, allow_writes=True)
    return {(r.rule, places.get(r.tool or "", -1), r.confidence or "") for r in report.results
            if r.kind == "probe" and r.status in ("fail", "warn")}


def compare(name: str) -> tuple[str, set[Finding], set[Finding], float]:
    start = time.perf_counter()
    command = SERVERS[name]
    with connect(command) as server:
        names = [t.name for t in server.tools]
    named = findings(command, {n: i for i, n in enumerate(names)})
    hidden = findings(blind(command), {f"t{i + 1}": i for i in range(len(names))})
    return name, named, hidden, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", action="append", help="a server's name as printed (repeatable)")
    args = parser.parse_args()
    names = args.only or list(SERVERS)
    unknown = [n for n in names if n not in SERVERS]
    if unknown:
        parser.error(f"unknown server(s) {unknown}; known: {list(SERVERS)}")
    start = time.perf_counter()
    agree = 0
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for name, named, hidden, took in pool.imap(compare, names):
            same = named == hidden
            agree += same
            print(f"{'same' if same else 'DIFF'}  {name}  ({took:.0f} s): {len(named)} finding(s) named", flush=True)
            for finding in sorted(named - hidden):
                print(f"      named only: {finding}")
            for finding in sorted(hidden - named):
                print(f"      blind only: {finding}")
    print(f"{agree} of {len(names)} servers draw the same probe findings named and blind "
          f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
