"""How many storegen bugs `test` finds by the law they break, and what their correct twins draw.

    python bench/bench_laws_storegen.py [--seeds 0-199] [--jobs 2] [--classes page-skip,key-fold]
                                        [--blind] [--out DIR] [--summary-only]

For every seed, the server with its bug (`--bug auto`, or each class of `--classes`) and its correct
twin are graded as a user would: `hypothesis-mcp test "python storegen.py --seed N --bug auto" --smoke
--probes --allow-writes --allow-deletes --profile grading --timeout 10 --json OUT` (the twin with
`--correct`); `--blind` serves both through the name-blind proxy (tests/blind.py). Each pair is judged
by tests/storegen_laws.py: found (a finding naming the broken law on a tool the bug shows on, not on
the twin), looser found (any finding there not on the twin), the twin's false alarms. Prints a table
by bug class, the twin's false alarms by rule and confidence, the missed (seed, class), and the wall.

Each run is the `test` command itself, in a process forked from this one (the imports are paid once),
`--jobs` at a time; its JSON report stays in `--out`, so `--summary-only` can judge it again.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import hypothesis_mcp.engine  # noqa: F401 - imported before the forks, not once per run
from hypothesis_mcp.cli import app
from storegen_laws import CONFIDENCES, ERROR_AS_SUCCESS, LAW_RULES, Pair, by_class, judge, load, serious_alarms
from storegen_truth import SKIP_REASON, command, describe, seeds_of, storegen_dir

FLAGS = ["--smoke", "--probes", "--allow-writes", "--allow-deletes", "--profile", "grading", "--timeout", "10"]

Job = tuple[int, str, bool, bool]
"""A seed, a bug class (`auto`: the seed's own), whether it is the twin, whether served blind."""


def flags_of(bug_class: str, twin: bool) -> tuple[str, ...]:
    """storegen's flags: `--correct` alone is the twin of `--bug auto`."""
    if twin and bug_class == "auto":
        return ("--correct",)
    return ("--bug", bug_class, *(("--correct",) if twin else ()))


def report_path(out: Path, job: Job) -> Path:
    seed, bug_class, twin, blind = job
    return out / f"seed{seed}-{bug_class}-{'twin' if twin else 'bug'}{'-blind' if blind else ''}.json"


def grade_one(job_and_out: tuple[Job, Path]) -> tuple[Job, str | None, float]:
    """One `test` run, in a forked process: None, or why it wrote no report."""
    job, out = job_and_out
    seed, bug_class, twin, blind = job
    start = time.perf_counter()
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    path = report_path(out, job)
    path.unlink(missing_ok=True)
    target = " ".join(command(seed, blind=blind, flags=flags_of(bug_class, twin)))
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stderr(io.StringIO()) as said:
        os.chdir(tmp)  # whatever a run leaves in its folder stays apart from the other runs
        Path("laws.yaml").write_text("laws: true\n")  # the laws machine, whatever the default
        try:
            app(["test", target, *FLAGS, "--probe-config", "laws.yaml", "--json", str(path), "-q"],
                standalone_mode=False)
        except SystemExit:
            pass  # a gate that fails exits non-zero: the report says why
        except Exception as error:
            return job, f"{type(error).__name__}: {error}", time.perf_counter() - start
    if not path.exists():
        return job, f"no report written: {said.getvalue()[-400:]}", time.perf_counter() - start
    return job, None, time.perf_counter() - start


def pair_of(out: Path, seed: int, bug_class: str, blind: bool) -> Pair | str:
    """The judged pair, or why it cannot be judged."""
    paths = [report_path(out, (seed, bug_class, twin, blind)) for twin in (False, True)]
    if missing := [p.name for p in paths if not p.exists()]:
        return f"seed {seed} {bug_class}: no report {', '.join(missing)}"
    truth = describe(seed, flags_of(bug_class, False))
    names = {f"t{place}": name for place, name in enumerate(truth["tools"], 1)} if blind else None
    return judge(seed, truth["bug"], load(paths[0]), load(paths[1]), names)


def table(pairs: list[Pair]) -> None:
    rows = by_class(pairs)
    head = ["class", "servers", "found", "looser", *(f"FA {c}" for c in CONFIDENCES), "FA e-a-s"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name, row in rows.items():
        print(f"| {name} | {row.servers} | {row.found} | {row.looser} | "
              + " | ".join(str(row.alarms[c]) for c in CONFIDENCES) + f" | {row.error_as_success} |")
    servers = sum(r.servers for r in rows.values())
    found = sum(r.found for r in rows.values())
    looser = sum(r.looser for r in rows.values())
    alarms = {c: sum(r.alarms[c] for r in rows.values()) for c in CONFIDENCES}
    eas = sum(r.error_as_success for r in rows.values())
    share = f" ({100 * found / servers:.0f}%)" if servers else ""
    print(f"| **all** | {servers} | {found}{share} | {looser} | "
          + " | ".join(str(alarms[c]) for c in CONFIDENCES) + f" | {eas} |")
    twins_hit = sum(any(rule != ERROR_AS_SUCCESS and conf != "low" for rule, _, conf in p.alarms) for p in pairs)
    print(f"\ntwins with a medium/high false alarm (error-as-success aside): {twins_hit}/{servers}")
    by_rule: dict[str, Counter[str]] = {}
    for pair in pairs:
        for rule, _, confidence in pair.alarms:
            by_rule.setdefault(rule, Counter())[confidence] += 1
    print("\ntwin false alarms by rule (high / medium / low):")
    for rule, counts in sorted(by_rule.items(), key=lambda item: -sum(item[1].values())):
        print(f"  {rule}: " + " / ".join(str(counts[c]) for c in CONFIDENCES))


def details(pairs: list[Pair], show: int) -> None:
    missed = [(p.seed, p.bug_class) for p in pairs if not p.found]
    print(f"\nmissed ({len(missed)}): " + " ".join(f"{s}:{c}" for s, c in missed))
    looser_only = [f"{p.seed}:{p.bug_class} [{', '.join(p.looser)}]" for p in pairs if p.looser and not p.found]
    if looser_only:
        print("found only loosely (the finding names another law):")
        for line in looser_only[:show]:
            print(f"  {line}")
    serious = serious_alarms(pairs)
    if serious:
        print("twin medium/high false alarms (error-as-success aside):")
        for line in serious[:show]:
            print(f"  {line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="0-199", help="seeds, as 0-199 or 1,5,9-12")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--classes", help="bug classes to inject, comma-separated (default: each seed's own)")
    parser.add_argument("--blind", action="store_true", help="serve through the name-blind proxy")
    parser.add_argument("--out", default="bench/results/laws-storegen", help="folder of the JSON reports")
    parser.add_argument("--summary-only", action="store_true", help="judge the reports already in --out")
    parser.add_argument("--show", type=int, default=60, help="lines of each detail list to print")
    options = parser.parse_args()
    if storegen_dir() is None:
        print(SKIP_REASON, file=sys.stderr)
        return 2
    classes = options.classes.split(",") if options.classes else ["auto"]
    if unknown := [c for c in classes if c != "auto" and c not in LAW_RULES]:
        print(f"unknown bug class(es): {', '.join(unknown)}; known: {', '.join(LAW_RULES)}", file=sys.stderr)
        return 2
    seeds = seeds_of(options.seeds)
    out = Path(options.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    jobs: list[Job] = [(s, c, twin, options.blind) for s in seeds for c in classes for twin in (False, True)]
    start = time.perf_counter()
    failed: list[str] = []
    took: list[float] = []
    if not options.summary_only:
        with multiprocessing.get_context("fork").Pool(options.jobs, maxtasksperchild=1) as pool:
            for job, error, seconds in pool.imap_unordered(grade_one, [(job, out) for job in jobs]):
                took.append(seconds)
                if error:
                    failed.append(f"{report_path(out, job).name}: {error}")
    wall = time.perf_counter() - start
    judged: list[Pair | str] = [pair_of(out, s, c, options.blind) for s in seeds for c in classes]
    pairs = [p for p in judged if isinstance(p, Pair)]
    print(f"seeds {options.seeds}, classes {','.join(classes)}{', blind' if options.blind else ''}: "
          f"{len(pairs)} bug servers and their twins")
    if took:
        print(f"wall {wall:.0f} s for {len(jobs)} servers ({options.jobs} jobs): {wall / len(jobs):.2f} s per server "
              f"of wall, mean run {sum(took) / len(took):.1f} s")
    table(pairs)
    details(pairs, options.show)
    for line in failed + [p for p in judged if isinstance(p, str)]:
        print(f"  FAILED {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
