"""Grading's wall with the laws machine alone (`laws: only`) against today's default (the per-invariant
machines), side by side in one process.

    python bench/bench_laws_cost.py [--repeat 2] [--pairs 16]

On bench/kv_server.py, tests/servers/parts_bin.py and `bench/kv_server.py --pairs N` (2N + 1 tools),
each graded in-process under the grading profile with --probes --allow-writes --allow-deletes, the
two configurations alternating within each round so load from other work slows both alike. Prints
each side's best wall of the rounds, the ratio laws/default, and the probe findings each drew.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import ROOT, SERVE, engine, grading
from hypothesis_mcp.stateful.config import ProbeConfig

SIDES = {"default": ProbeConfig(), "laws": ProbeConfig(laws="only")}


def targets(pairs: int) -> dict[str, list[str]]:
    kv = [sys.executable, str(ROOT / "bench/kv_server.py")]
    return {"kv_server": kv, "parts_bin": [*SERVE, str(ROOT / "tests/servers/parts_bin.py")],
            f"kv_server --pairs {pairs}": [*kv, "--pairs", str(pairs)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--pairs", type=int, default=16)
    args = parser.parse_args()
    print("| server | default (s) | laws alone (s) | laws / default | findings default | findings laws |")
    print("|---|---|---|---|---|---|")
    for name, argv in targets(args.pairs).items():
        best = {side: float("inf") for side in SIDES}
        found: dict[str, int] = {}
        for round_ in range(args.repeat):
            for side in sorted(SIDES, reverse=round_ % 2 == 1):
                start = time.perf_counter()
                report = engine(argv, grading(), probes=True, allow_writes=True, allow_deletes=True,
                                probe_config=SIDES[side])
                best[side] = min(best[side], time.perf_counter() - start)
                found[side] = sum(r.kind == "probe" and r.status in ("fail", "warn") for r in report.results)
        print(f"| {name} | {best['default']:.1f} | {best['laws']:.1f} | {best['laws'] / best['default']:.2f} "
              f"| {found['default']} | {found['laws']} |", flush=True)


if __name__ == "__main__":
    main()
