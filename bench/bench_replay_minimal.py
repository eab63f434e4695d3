"""Whether every failure of a folder of JSON reports replays from a fresh server, and whether any
call of its reproduction could go (issue #43: "every finding replays from a fresh server, and no call
of its reproduction can be removed").

    python bench/bench_replay_minimal.py DIR [DIR ...] [--twin --correct] [--rules R1,R2] [--jobs 1]
                                         [--show 4] [--timeout 30]

Each report of DIR (`test --json`) is read as `hypothesis-mcp replay` reads it: every failure with a
reproduction (fail or warn, not covered by another) is replayed on a fresh server of the report's
target (replay.replay, the CLI's judgement). Then it is replayed once with each single call left out
(the judged call stays, and so does the answer before it where the rule compares the two, and the
last call of the finding's own tool: without it the reproduction says nothing of that tool). A call
could go (not minimal) where the replay without it still fails and, with a twin, passes there.

`--twin` (storegen's `--correct`, the default; `--twin ''` for none) names the flags that make the
target its correct twin; a report whose target has them already is a twin's and gets no twin replay.
A finding of the injected bug whose reproduction fails on the twin too proves nothing of the bug
(unsound, however it replays on the buggy server); one of a flaw both servers share (storegen's
refusals answered as successes) fails on both as it should.

Prints per rule: findings, sound (fails on a fresh server, and not on the twin), also on the twin,
did not reproduce (or cannot confirm), not minimal; then examples of each kind.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import shlex
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import Replay, replay
from hypothesis_mcp.results import Result
from hypothesis_mcp.rules.registry import expectation_for

Job = tuple[str, str, str, str, float]
"""A report's name, the result as JSON, the report's target, the twin's flags ('' for none), the timeout."""
KINDS = ("sound", "twin", "lost", "loose")
HEAD = {"sound": "sound", "twin": "also on twin", "lost": "did not reproduce", "loose": "not minimal"}


@dataclass
class Verdict:
    """One finding replayed: where from, what each replay showed."""

    report: str
    result: str
    rule: str
    calls: int
    fails: bool = False
    on_twin: bool = False
    why: str = ""
    removable: list[str] = field(default_factory=list)
    """Each call (index and tool) a replay without it still failed."""
    error: str = ""

    def kinds(self) -> set[str]:
        if self.error or not self.fails:
            return {"lost"}
        found = {"twin"} if self.on_twin else {"sound"}
        return found | ({"loose"} if self.removable else set())

    def line(self) -> str:
        tail = f"; removable: {', '.join(self.removable)}" if self.removable else ""
        return f"{self.report} {self.result} ({self.calls} calls): {self.error or self.why}{tail}"


def failures(path: Path) -> list[Result]:
    """The results `hypothesis-mcp replay` replays by default."""
    data = json.loads(path.read_text(encoding="utf-8"))
    results = [Result.from_dict(r) for r in data.get("results", [])]
    return [r for r in results if r.status in ("fail", "warn") and r.reproduction and r.covered_by is None]


def judged_with_previous(result: Result, done: Replay) -> bool:
    """The rule compares the last answer with the one before it (a repeated read, a page and the
    one before): that call is part of the judgement, not a step to leave out."""
    if len(done.steps) < 2:
        return False
    expect = expectation_for(result, None)
    last, before = done.steps[-1][1], done.steps[-2][1]
    return expect.holds(last, None) != expect.holds(last, before)


def one(job: Job) -> Verdict:
    """One finding: its replay, its replay on the twin, and one replay per call left out."""
    report, raw, target, twin, timeout = job
    result = Result.from_dict(json.loads(raw))
    assert result.reproduction is not None
    calls = result.reproduction.calls
    verdict = Verdict(report, result.id, result.rule, len(calls))
    try:
        done = replay(result, parse_target(target), timeout=timeout)
        verdict.fails, verdict.why = done.still_fails and not done.unconfirmed, done.verdict
        if not verdict.fails:
            return verdict
        twin_target = parse_target(f"{target} {twin}") if twin else None
        if twin_target is not None:
            verdict.on_twin = replay(result, twin_target, timeout=timeout).still_fails
        kept = 2 if judged_with_previous(result, done) else 1
        own = max((i for i, c in enumerate(calls) if c.tool == result.tool), default=None)
        for index in range(len(calls) - kept):
            if index == own:
                continue
            fewer = replace(result, reproduction=replace(result.reproduction, calls=calls[:index] + calls[index + 1:]))
            if replay(fewer, parse_target(target), timeout=timeout).still_fails and (
                    twin_target is None or not replay(fewer, twin_target, timeout=timeout).still_fails):
                verdict.removable.append(f"#{index} {calls[index].tool}")
    except Exception as error:  # a server that cannot start, a reproduction that cannot be read back
        verdict.error = f"{type(error).__name__}: {error}"
    return verdict


def jobs_of(folders: list[Path], twin: str, rules: set[str] | None, timeout: float) -> list[Job]:
    jobs: list[Job] = []
    for folder in folders:
        for path in sorted(folder.glob("*.json")):
            target = json.loads(path.read_text(encoding="utf-8")).get("target", "")
            is_twin = bool(twin) and set(shlex.split(twin)) <= set(shlex.split(target))
            for result in failures(path):
                if rules is None or result.rule in rules:
                    jobs.append((path.name, json.dumps(result.to_dict()), target, "" if is_twin else twin, timeout))
    return jobs


def table(verdicts: list[Verdict], show: int) -> None:
    by_rule: dict[str, Counter[str]] = defaultdict(Counter)
    for v in verdicts:
        by_rule[v.rule]["findings"] += 1
        for kind in v.kinds():
            by_rule[v.rule][kind] += 1
    head = ["rule", "findings", *(HEAD[k] for k in KINDS)]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    total: Counter[str] = Counter()
    for rule, counts in sorted(by_rule.items(), key=lambda item: (-item[1]["findings"], item[0])):
        total.update(counts)
        print(f"| {rule} | {counts['findings']} | " + " | ".join(str(counts[k]) for k in KINDS) + " |")
    print(f"| **all** | {total['findings']} | " + " | ".join(str(total[k]) for k in KINDS) + " |")
    for kind in ("twin", "lost", "loose"):
        shown = [v for v in verdicts if kind in v.kinds()]
        if shown:
            print(f"\n{HEAD[kind]} ({len(shown)}):")
            for v in shown[:show]:
                print(f"  {v.line()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+", type=Path, help="folders of JSON reports")
    parser.add_argument("--twin", default="--correct", help="flags that make the target its correct twin ('' for none)")
    parser.add_argument("--rules", help="only these rules, comma-separated")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--show", type=int, default=4, help="examples of each kind to print")
    parser.add_argument("--timeout", type=float, default=30.0)
    options = parser.parse_args()
    twin = " ".join(shlex.quote(a) for a in shlex.split(options.twin))
    rules = set(options.rules.split(",")) if options.rules else None
    jobs = jobs_of(options.folders, twin, rules, options.timeout)
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(options.jobs) as pool:
        verdicts = pool.map(one, jobs, chunksize=1)
    print(f"{len(jobs)} finding(s) of {', '.join(str(f) for f in options.folders)} replayed in "
          f"{time.perf_counter() - start:.0f} s" + (f", twin: target + {twin}" if twin else ""))
    table(verdicts, options.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
