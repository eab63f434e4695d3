"""`hypothesis-mcp learn`: what the run knows of a server before any verdict.

Every tool's profile (its candidate roles with their evidence, identity candidates); with
--allow-writes, the experiments of stateful.watch on a fresh server (each tool's role from the
effects of its calls, the identity that names a record, the arguments by which readers select
records) and each creating tool's calibration (the readers that show its records, whether a second
write with the same key replaces, adds or is refused, its identity field, the id in its answer),
each marked shown or guessed. Before them, what the server's refusals look like, learned as a
test run learns it: from reads of ids nobody wrote (read-only, so always) and from answers to
invalid arguments (read-only tools, and with --allow-writes the others a run calls). The probe
config it writes states what calibration showed, so a run given it back (`--probe-config`) starts
from the same facts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.invalid_answers import invalid_refusals
from hypothesis_mcp.checks.missing_reads import read_missing
from hypothesis_mcp.connection import Connection, LearnedRefusal, Target
from hypothesis_mcp.connection.failure import TEXT, WILDCARD
from hypothesis_mcp.model.facts import GUESSED, SHOWN, Fact
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.search.pool import ServerPool
from hypothesis_mcp.stateful.calibrate import REPLACES, Calibration, calibrated_readers
from hypothesis_mcp.stateful.probes import ProbeRun
from hypothesis_mcp.stateful.roles import GuessedUpdate, updated_id
from hypothesis_mcp.stateful.watch import CREATORS, Seen

MISSING_READS = "reads of ids nobody wrote"
INVALID_ARGUMENTS = "answers to invalid arguments"
EFFECTS = frozenset({"create", "write", "update", "delete"})


@dataclass
class Learned:
    """One tool: its profile, and for a write tool its readers, key and calibration."""

    tool: Tool
    readers: list[str] = field(default_factory=list)
    key: str | None = None
    calibration: Calibration | None = None
    reads_shown: bool = False
    """A write's calibration showed this tool showing its new record: its reading role is shown."""
    seen: Seen | None = None
    """What the experiments showed of this tool, when they ran."""
    refusals: list[tuple[str, LearnedRefusal, Fact]] = field(default_factory=list)
    """Refusal shapes whose first showing call was this tool's, each with what it was learned from."""
    guess: GuessedUpdate | None = None
    """The update its schema's shape proposes, where the experiments showed no role."""

    def to_dict(self) -> dict[str, Any]:
        found = profile(self.tool)
        cal, seen = self.calibration, self.seen or Seen()
        shown = (cal is not None and bool(cal.readers)) or self.reads_shown or seen.role is not None
        guess = self.guess if seen.role is None else None
        data: dict[str, Any] = {
            "name": self.tool.name, "role": seen.role or ("update" if guess else found.role),
            "evidence": SHOWN if shown else GUESSED,
            "roles": [{"role": c.role, "evidence": c.evidence} for c in found.roles],
            "identity_candidates": list(found.identity), "free_text": list(found.free_text),
            "bounds": [{"param": b.param, "kind": b.kind} for b in found.bounds], "cursors": list(found.cursors),
        }
        if seen.fact is not None:
            data["experiment"] = seen.fact.what
        elif guess is not None:
            data["guess"] = guess.fact().source
        if seen.bindings or seen.role in ("read", "list", "search", "count"):
            data["bindings"] = [{"argument": b.argument, "field": b.field, "evidence": SHOWN,
                                 "experiment": b.fact.what} for b in seen.bindings]
        if seen.paging is not None and seen.paging_fact is not None:
            data["paging"] = {"member": seen.paging.member, "param": seen.paging.param, "evidence": SHOWN,
                              "experiment": seen.paging_fact.what}
        if seen.numbered is not None and seen.paging_fact is not None:
            data["paging"] = {"param": seen.numbered.param, "first": seen.numbered.first, "evidence": SHOWN,
                              "experiment": seen.paging_fact.what}
        if (self.tool.is_write and seen.role is None) or seen.role in EFFECTS or guess is not None:
            readers = self.readers or list(seen.readers)
            data["readers"] = [{"name": r, "evidence": SHOWN if (cal and r in cal.readers) or r in seen.readers
                                else GUESSED} for r in readers]
            identity = cal.identity if cal and cal.identity else seen.identity
            data["identity"] = {"field": identity or (guess.id_field if guess else self.key),
                                "evidence": SHOWN if identity else GUESSED}
            # Calibration varies one key, often guessed: a second record beside the first shows only
            # that it is no identity, so that the tool appends is the experiments' to show.
            overwrite = cal.overwrite if cal and cal.overwrite == REPLACES else seen.overwrite
            data["overwrite"] = {"behaviour": overwrite, "evidence": SHOWN if overwrite else GUESSED}
            if (cal is not None and cal.answer_id) or seen.answer_id:
                data["answer_id"] = cal.answer_id if cal is not None and cal.answer_id else seen.answer_id
            if cal is not None and cal.refused is not None:
                data["refusal"] = {"shape": cal.refused.failure or cal.refused.summary(), "evidence": SHOWN}
            if cal is not None and cal.refusal is not None:
                shape = cal.refusal
                data["refusal_shape"] = {"member": shape.member, "value": shape.value, "evidence": SHOWN,
                                         "shape": f"{shape.member!r} is {json.dumps(shape.value)}"}
        return data


def learn(target: Target, *, allow_writes: bool, allow_deletes: bool = False, timeout: float = 30.0) -> list[Learned]:
    """Profiles of every tool; with `allow_writes` the experiments (tools that may delete only with
    `allow_deletes`) and the calibration of every tool they showed creating records."""
    grading = make_profile("grading")
    with Connection(target, timeout=timeout, startup_timeout=timeout) as conn:
        tools = conn.list_tools()
        learned = {t.name: Learned(t) for t in tools}
        learn_refusals(conn, tools, learned, allow_writes, grading.seed)
        pool = ServerPool(target, timeout=timeout, startup_timeout=timeout)
        try:
            run = ProbeRun(conn, pool, tools, grading, allow_writes, allow_deletes=allow_deletes)
            seen = run.watched()
            for name, what in seen.items():
                learned[name].seen = what
            for name, guess in run.guesses().items():
                learned[name].guess = guess
            for tool in writes(tools, seen, run.write_tools()):
                readers = run.readers(tool)
                key = run.key_of(tool, readers, run.write_args(tool, None), None)
                entry = learned[tool.name]
                entry.key, entry.readers = key, [r.tool.name for r in readers]
                if allow_writes and readers and updated_id(tool, set(run.write_args(tool, None)), seen,
                                                           run.guesses()) is None:
                    entry.calibration = run.calibrated(tool, readers, key, run.write_args(tool, None))
                    entry.readers = [r.tool.name for r in calibrated_readers(readers, entry.calibration)]
        finally:
            pool.close()
    for entry in learned.values():
        if entry.calibration is not None:
            for name in entry.calibration.readers:
                learned[name].reads_shown = True
    return list(learned.values())


def learn_refusals(conn: Connection, tools: list[Tool], learned: dict[str, Learned], allow_writes: bool,
                   seed: int) -> None:
    """The refusal shapes a test run learns before its searches: from reads of ids nobody wrote, and
    from invalid arguments sent to the tools a run may call here (read-only ones without
    --allow-writes: each is also sent its plainest valid call)."""
    callable_tools = [t for t in tools if not t.is_destructive and (allow_writes or t.is_read)]
    reads = read_missing(conn, tools, None, seed, lambda: False).shapes
    invalid = invalid_refusals(conn, callable_tools, None, lambda: False)
    shapes = [*((MISSING_READS, *found) for found in reads), *((INVALID_ARGUMENTS, *found) for found in invalid)]
    for source, shape, fact in shapes:
        tool = fact.shown_by[0].tool if fact.shown_by else tools[0].name
        learned[tool].refusals.append((source, shape, fact))


def refusals_json(learned: list[Learned]) -> list[dict[str, Any]]:
    """Each refusal shape learned: the tool whose call first showed it, what it was learned from,
    its member and value (a text with `…` where it named the id), and the fact."""
    return [{"tool": entry.tool.name, "learned_from": source, "member": shape.member or "text",
             "value": str(shape.value).replace(WILDCARD, "\u2026") if shape.member == TEXT else shape.value,
             **fact.to_dict()} for entry in learned for source, shape, fact in entry.refusals]


def writes(tools: list[Tool], seen: dict[str, Seen], guessed: list[Tool]) -> list[Tool]:
    """The tools to calibrate: those the experiments showed creating records, then the write tools
    guessed from words that no experiment showed doing anything else."""
    made = [t for t in tools if t.name in seen and seen[t.name].role in CREATORS]
    return [*made, *(t for t in guessed if t not in made and (t.name not in seen or seen[t.name].role is None))]


def learned_json(learned: list[Learned]) -> dict[str, Any]:
    facts = [{"tool": entry.tool.name, **fact.to_dict()} for entry in learned if entry.calibration
             for fact in entry.calibration.facts()]
    facts += [{"tool": entry.tool.name, **fact.to_dict()} for entry in learned if entry.seen
              for fact in entry.seen.facts()]
    return {"tools": [entry.to_dict() for entry in learned], "refusals": refusals_json(learned), "facts": facts}


def probe_config(learned: list[Learned]) -> str:
    """A probe config (YAML, commented) that states what calibration showed: each write tool's
    first reader that showed its records, and the identity field it showed."""
    lines = ["# Written by `hypothesis-mcp learn`: what calibration showed of this server.",
             "# Edit what is wrong and pass it back with --probe-config; what it states counts as shown.",
             "pairs:"]
    pairs = 0
    for entry in learned:
        cal = entry.calibration
        if cal is None or not cal.readers:
            continue
        reader = next(r for r in entry.readers if r in cal.readers)
        pairs += 1
        lines.append(f"  # {entry.tool.name}: {reader} showed a new record"
                     + (f"; a second write with the same key {cal.overwrite}" if cal.overwrite else ""))
        lines += [f"  - write: {quoted(entry.tool.name)}", f"    read: {quoted(reader)}"]
        if cal.identity is not None:
            lines.append(f"    key: [{quoted(cal.identity)}]")
    if not pairs:
        lines[-1] = "pairs: []"
    return "\n".join(lines) + "\n"


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def print_learned(learned: list[Learned], write: Any) -> None:
    """The console form: one block per tool, each belief marked shown or guessed."""
    for entry in learned:
        data = entry.to_dict()
        why = data.get("experiment") or data.get("guess") or data["roles"][0]["evidence"]
        write(f"{data['name']}: {data['role']} ({data['evidence']}; {why})")
        for binding in data.get("bindings", []):
            write(f"    binding: {binding['argument']} selects by {binding['field']} ({binding['evidence']})")
        if paging := data.get("paging"):
            how = f"its {paging['member']} given back as" if "member" in paging else \
                f"numbered from {paging['first']} in"
            write(f"    pages: {how} {paging['param']} ({paging['evidence']})")
        if data.get("answer_id"):
            write(f"    answer id: {data['answer_id']}")
        for name in ("readers", "identity", "overwrite", "refusal", "refusal_shape"):
            if name not in data:
                continue
            value = data[name]
            if isinstance(value, list):
                shown = ", ".join(f"{r['name']} ({r['evidence']})" for r in value) or "none"
                write(f"    readers: {shown}")
            else:
                said = value.get("field") or value.get("behaviour") or value.get("shape") or "unknown"
                write(f"    {name.replace('_', ' ')}: {said} ({value['evidence']})")
    if shapes := refusals_json(learned):
        write("refusal shapes, each read as a refusal by every check:")
    for shape in shapes:
        write(f"  - {shape['what']} ({shape['evidence']}; {shape['learned_from']}, from {shape['tool']}; "
              f"{len(shape.get('calls', []))} call(s))")
    facts = learned_json(learned)["facts"]
    if facts:
        write("facts, each with the experiment that showed it:")
    for fact in facts:
        write(f"  - {fact['what']} ({fact['evidence']}; {len(fact.get('calls', []))} call(s))")
    if entries := [e for e in learned if e.calibration is None and e.tool.is_write]:
        write(f"{len(entries)} write tool(s) not calibrated: add --allow-writes to run the experiments "
              "on fresh servers.")
