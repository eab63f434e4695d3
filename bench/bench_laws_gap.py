"""What the laws machine alone draws on the suite's buggy test servers, against the per-invariant machines.

    python bench/bench_laws_gap.py [--cases agreeing,vault] [--sides default,laws] [--jobs 1]
                                   [--out bench/results/laws-gap] [--summary-only] [--roles]

Every buggy test server the probe tests grade (tests/test_probe_*.py, with the profile, options and
excluded tools of its test) is graded twice in-process: as today (`default`: the per-invariant
machines, no laws machine) and with `laws: only` in the probe config (`laws`: the laws machine alone).
Each correct twin is graded with `laws: only` too (`twin`). Prints, per server and bug, each probe
finding of the default run (tool, rule, confidence), and what the laws-alone run drew on it: the same
rule on the same tool (`found`, with its confidence), another rule on that tool (`other: RULE`), a
finding on another tool that the default run did not draw (`elsewhere: TOOL RULE`: a reader blamed
where the writer was, say), or `MISSING`; then what the laws alone drew beyond it, every medium or
high finding a twin drew, and the walls. Each run's findings are kept as JSON under `--out`, so
`--summary-only` prints the table again, and a later run of `--sides laws` after a change to the
machine redoes only its side.
`--roles` prints instead what the experiments the machine stands on showed of each buggy server (the
tools it takes as creators, readers, updates, removals and counts): a machine with no creator or no
reader does not run.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import ROOT, SERVE, engine, grading, hunting
from hypothesis_mcp.connection import Connection, parse_target
from hypothesis_mcp.profiles import Profile
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.laws.observe import learned
from hypothesis_mcp.stateful.probes import base_arguments


@dataclass(frozen=True)
class Case:
    """One buggy server of a probe test, its twin, and how its test grades it."""

    group: str
    bug: str
    argv: tuple[str, ...]
    twin: tuple[str, ...]
    profile: str = "grading"
    """grading, hunting (two examples per effect machine) or grading:N (N examples)."""
    deletes: bool = False
    exclude: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)


def served(script: str, *args: str) -> tuple[str, ...]:
    return (*SERVE, str(ROOT / "tests/servers" / script), *args)


def bugs(*names: str) -> tuple[str, ...]:
    return tuple(a for name in names for a in ("--bug", name))


VARIETY = {"evict-5": "doc_put", "evict-7": "doc_put", "evict-9": "doc_put", "skip-odd-chars": "profile_upsert",
           "clamp-points": "score_set", "cut-text": "note_save", "drop-tags": "entry_add",
           "drop-fourth": "item_write"}
LEARNED = ("queue", "shelf", "contacts", "readonly", "ledger", "bookmarks", "journal", "catalog", "devices")
CASES: tuple[Case, ...] = (
    *(Case("agreeing", style, served("agreeing_stores.py", "--style", style, "--bug"),
           served("agreeing_stores.py", "--style", style)) for style in ("snake", "dotted")),
    *(Case("deletes", name, served("record_deletes.py", *bugs(*these)), served("record_deletes.py"), "hunting", True)
      for name, these in (("kept", ("notes-kept", "deck-neighbour")), ("neighbour", ("notes-neighbour", "deck-kept")),
                          ("again", ("notes-again",)))),
    Case("fields", "typed_fields", served("typed_fields.py", "--bug"), served("typed_fields.py", "--alarms")),
    Case("fields", "gear_catalog", served("gear_catalog.py", "--bug"), served("gear_catalog.py")),
    *(Case("laws", bug, served("parts_bin.py", *bugs(bug)), served("parts_bin.py"), deletes=True)
      for bug in ("refusal", "cache")),
    *(Case("vault", bug, served("seed_vault.py", *bugs(bug)), served("seed_vault.py"), "grading:5", True)
      for bug in ("evicts", "fold", "merge", "pages", "dangle")),
    *(Case("learned", name, served("learned_stores.py", "--store", name, "--bug"),
           served("learned_stores.py", "--store", name)) for name in LEARNED),
    *(Case("pages", bug, served(script, *bugs(bug)), served(script))
      for script, bug in (("ledger_pages.py", "offset-skips"), ("ledger_pages.py", "offset-overlaps"),
                          ("bookmark_cursor.py", "last-page-lost"), ("bookmark_cursor.py", "cursor-repeats"))),
    *(Case("reads", name, served("read_effects.py", "--store", name, "--bug"),
           served("read_effects.py", "--store", name), "hunting") for name in ("inbox", "kv")),
    *(Case("renames", name, served("rename_stores.py", *bugs(*these)), served("rename_stores.py"), "hunting")
      for name, these in (("a", ("copy", "lose-owner", "amend-noop", "relabel-drops-owner")),
                          ("b", ("drop-tags", "keep-source", "amend-drops-tags", "relabel-noop")))),
    *(Case("retries", bug, served(script, *bugs(bug)), served(script))
      for script, bug in (("shelf_store.py", "keeps-old-notes"), ("memo_pad.py", "drops-body-on-overwrite"))),
    *(Case("shapes", name, served("shape_stores.py", "--store", name, "--bug"),
           served("shape_stores.py", "--store", name), "grading:6") for name in ("cookbook", "logbook", "pinboard")),
    *(Case("store_shapes", bug, served("task_ledger.py", *bugs(bug)), served("task_ledger.py"), "grading:6")
      for bug in ("loses-jottings", "loses-summaries")),
    *(Case("updates", bug, served(script, *bugs(bug)), served(script), "grading:12")
      for script, bug in (("task_patches.py", "keeps-note"), ("task_patches.py", "drops-title"),
                          ("item_edits.py", "keeps-title"), ("item_edits.py", "drops-note"))),
    Case("variants", "notes", served("identity_variants.py", "--store", "notes", *bugs("fold-case", "prefix")),
         served("identity_variants.py", "--store", "notes")),
    Case("variants", "pages", served("identity_variants.py", "--store", "pages", *bugs("trim", "nfc", "prefix-get")),
         served("identity_variants.py", "--store", "pages")),
    *(Case("variety", bug, served("effect_variety.py", *bugs(bug)), served("effect_variety.py"), "grading:9",
           exclude=tuple(w for w in dict.fromkeys(VARIETY.values()) if w != tool))
      for bug, tool in VARIETY.items()),
    Case("windows", "drops-fourth", served("oldest_first.py", *bugs("drops-fourth")), served("oldest_first.py")),
)
SIDES = ("default", "laws", "twin")


def profile_of(name: str) -> Profile:
    if name == "hunting":
        return hunting()
    return grading(int(name.split(":")[1])) if ":" in name else grading()


def key(case: Case, side: str) -> str:
    return f"{case.group}-{case.bug}-{side}"


def grade(job: tuple[Case, str, Path]) -> tuple[str, float]:
    """One grading run; its probe findings (fail and warn) go to OUT/KEY.json."""
    case, side, out = job
    start = time.perf_counter()
    config = ProbeConfig(exclude=list(case.exclude), laws=False if side == "default" else "only")
    report = engine(list(case.twin if side == "twin" else case.argv), profile_of(case.profile), probes=True,
                    allow_writes=True, allow_deletes=case.deletes, probe_config=config)
    wall = time.perf_counter() - start
    found = [{"tool": r.tool, "rule": r.rule, "confidence": r.confidence, "status": r.status, "message": r.message}
             for r in report.results if r.kind == "probe" and r.status in ("fail", "warn")]
    (out / f"{key(case, side)}.json").write_text(json.dumps({"wall": wall, "found": found}, indent=1))
    return key(case, side), wall


def roles(case: Case) -> str:
    """What the experiments showed of the buggy server, as the machine reads them."""
    profile = grading()
    with Connection(parse_target(list(case.argv))) as conn:
        tools = [t for t in conn.list_tools() if t.name not in case.exclude]
        model = learned(conn, tools, lambda tool: base_arguments(tool, None, ProbeConfig()), profile.seed,
                        profile.settings(1), case.deletes)
    named = {"creators": [t.name for t, _ in model.creators], "readers": [r.tool.name for r in model.readers],
             "updates": [a.tool.name for a in model.updaters], "removals": [a.tool.name for a in model.removers],
             "counts": [c.tool.name for c in model.counters]}
    return f"{case.group}/{case.bug}: " + "; ".join(f"{k} {', '.join(v) or '-'}" for k, v in named.items())


def load(out: Path, case: Case, side: str) -> dict[str, Any] | None:
    path = out / f"{key(case, side)}.json"
    return json.loads(path.read_text()) if path.exists() else None


def verdict(finding: dict[str, Any], laws: list[dict[str, Any]], known: set[tuple[str, str]]) -> str:
    same = [f for f in laws if (f["tool"], f["rule"]) == (finding["tool"], finding["rule"])]
    if same:
        return f"found ({same[0]['confidence']})"
    other = sorted({f["rule"] for f in laws if f["tool"] == finding["tool"]})
    elsewhere = sorted({f"{f['tool']} {f['rule']}" for f in laws if (f["tool"], f["rule"]) not in known})
    return f"other: {', '.join(other)}" if other else f"elsewhere: {', '.join(elsewhere)}" if elsewhere \
        else "MISSING"


def table(out: Path, cases: list[Case]) -> None:
    rows, extra, alarms, walls = [], [], [], {side: 0.0 for side in SIDES}
    for case in cases:
        default, laws, twin = (load(out, case, side) for side in SIDES)
        for side, data in zip(SIDES, (default, laws, twin), strict=True):
            walls[side] += data["wall"] if data else 0.0
        if default is not None:
            known = {(f["tool"], f["rule"]) for f in default["found"]}
            for f in default["found"]:
                got = verdict(f, laws["found"], known) if laws else "not run"
                rows.append(f"| {case.group}/{case.bug} | {f['tool']} | {f['rule']} | {f['confidence']} | {got} |")
        if default is not None and laws is not None:
            known = {(f["tool"], f["rule"]) for f in default["found"]}
            extra += [f"{case.group}/{case.bug}: {f['tool']} {f['rule']} {f['confidence']}"
                      for f in laws["found"] if (f["tool"], f["rule"]) not in known]
        if twin is not None:
            alarms += [f"{case.group}/{case.bug} twin: {f['tool']} {f['rule']} {f['confidence']}: {f['message'][:90]}"
                       for f in twin["found"] if f["confidence"] in ("high", "medium")]
    print("| server/bug | tool | rule (per-invariant) | confidence | laws alone |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    missing = sum("found" not in r for r in rows)
    print(f"\n{len(rows) - missing} of {len(rows)} per-invariant findings drawn by the laws alone")
    print("\nlaws alone, beyond the per-invariant findings:", *extra or ["none"], sep="\n  ")
    print("\nmedium or high findings on twins (laws alone):", *alarms or ["none"], sep="\n  ")
    print("\nwall (s): " + ", ".join(f"{side} {walls[side]:.0f}" for side in SIDES))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default="", help="groups or group/bug names, comma-separated (default: all)")
    parser.add_argument("--sides", default=",".join(SIDES))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/laws-gap")
    parser.add_argument("--summary-only", action="store_true")
    parser.add_argument("--roles", action="store_true")
    args = parser.parse_args()
    wanted = {w for w in args.cases.split(",") if w}
    cases = [c for c in CASES if not wanted or c.group in wanted or f"{c.group}/{c.bug}" in wanted]
    if args.roles:
        for case in cases:
            print(roles(case), flush=True)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.summary_only:
        jobs = [(case, side, args.out) for case in cases for side in args.sides.split(",")]
        with multiprocessing.get_context("fork").Pool(args.jobs, maxtasksperchild=1) as pool:
            for name, wall in pool.imap_unordered(grade, jobs):
                print(f"{name}: {wall:.1f} s", file=sys.stderr, flush=True)
    table(args.out, cases)


if __name__ == "__main__":
    main()
