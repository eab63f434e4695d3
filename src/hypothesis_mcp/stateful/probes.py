"""Running every effect probe a server allows and turning findings into results."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis.errors import Flaky
from hypothesis.stateful import run_state_machine_as_test

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection, LearnedRefusal
from hypothesis_mcp.model.facts import Fact, fact_guessed, fact_shown, rests_on
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.profiles import Profile
from hypothesis_mcp.results import CONFIDENCE_ORDER, Call, Check, Reproduction, Result, RuleId, Status, cause_of
from hypothesis_mcp.rules.expectations import Agree, SameAnswer, item_keys
from hypothesis_mcp.search.lanes import Job, Lane, Lanes
from hypothesis_mcp.search.pool import ServerPool
from hypothesis_mcp.search.saved import SavedFailures, digest
from hypothesis_mcp.search.seeding import own_draws, scope_salt, seeded
from hypothesis_mcp.stateful.agreeing import agreement_probe
from hypothesis_mcp.stateful.bounds import BoundCheck, builtin_relations, run_bound
from hypothesis_mcp.stateful.calibrate import APPENDS, REPLACES, Calibration, calibrate, calibrated_readers
from hypothesis_mcp.stateful.config import Pair, ProbeConfig
from hypothesis_mcp.stateful.context import ProbeContext
from hypothesis_mcp.stateful.deletes import delete_probes
from hypothesis_mcp.stateful.fields import fields_probe
from hypothesis_mcp.stateful.host import ProbeOutput
from hypothesis_mcp.stateful.judge import ProbeFailure, ProbeFinding, Replay, Rest, replayed, reproduces
from hypothesis_mcp.stateful.keys import choose_key
from hypothesis_mcp.stateful.laws.confirm import LAWS_BASIS
from hypothesis_mcp.stateful.laws.probe import Reach, laws_probe
from hypothesis_mcp.stateful.machine import build_machine
from hypothesis_mcp.stateful.modelrun import surest
from hypothesis_mcp.stateful.pages import page_probes, paged_readers
from hypothesis_mcp.stateful.readers import Reader, choose_readers
from hypothesis_mcp.stateful.reads import reads_probe
from hypothesis_mcp.stateful.renames import renames_probe
from hypothesis_mcp.stateful.roles import GUESSED_ROLE, GuessedUpdate, guess_updates, updated_id
from hypothesis_mcp.stateful.shrink import smaller
from hypothesis_mcp.stateful.unmarked import refused_retries
from hypothesis_mcp.stateful.updates import addressed_update_probe, update_probe
from hypothesis_mcp.stateful.variants import variants_probe
from hypothesis_mcp.stateful.watch import Seen, watch
from hypothesis_mcp.strategies import Overrides
from hypothesis_mcp.strategies.boundary import zero_value

MORE_CAUSES = 2
"""Other causes of one rule a probe reports on one write tool beyond the first: each costs a replay
and a shrink on fresh servers."""
REPLAYS = 14
"""Fresh replays that verify one failure, at most: two tries of warm-shrunk candidates, then the
twelve of `smaller`."""
WRITE_ROLES = frozenset({"create", "write", "update"})
"""Roles the experiments show a tool storing in: its round trip runs."""
SHARED_ROUND_TRIPS = 4
"""Write tools whose round trips each get the profile's full probe examples: beyond them a server's
round trips share that budget (each at least the model machines' quarter), so a server's cost grows
with its write tools by what one tool's experiments take, not by a full exploration each."""


def round_trip_profile(profile: Profile, writes: int) -> Profile:
    """The profile each of a server's `writes` round trips runs with: its budget shared out once there
    are more than SHARED_ROUND_TRIPS of them (the catalog alone decides, so runs repeat)."""
    full = profile.probe_examples
    share = min(full, max(1, full // 4, full * SHARED_ROUND_TRIPS // max(1, writes)))
    return profile if share == full else replace(profile, probe_examples=share)


def base_arguments(tool: Tool, overrides: Overrides | None, config: ProbeConfig) -> dict[str, Any]:
    """Starting arguments for a read: the user's values, then zero values for required ones."""
    args = dict(overrides.for_tool(tool)) if overrides else {}
    args.update({k: v for k, v in config.args.get("*", {}).items() if k in tool.properties})
    args.update(config.args.get(tool.name, {}))
    for name in tool.required:
        if name not in args:
            args[name] = zero_value(tool.properties.get(name))
    return args


@dataclass
class ProbeRun:
    conn: Connection
    pool: ServerPool
    tools: list[Tool]
    profile: Profile
    allow_writes: bool
    config: ProbeConfig = field(default_factory=ProbeConfig)
    allow_deletes: bool = False
    """--allow-deletes: the deletes probe may call deleting tools on records the run wrote."""
    overrides: Overrides | None = None
    stop: Callable[[], bool] = lambda: False
    results: list[Result] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    examples: int = 0
    fresh_missed: int = 0
    """Broken laws a warm server showed that no fresh replay showed again (the laws machine's)."""
    lanes: Lanes | None = None
    """Round trips and bounds run on these lanes, each with servers of its own."""
    later: int = 0
    """Fresh servers the works after this one may take from its pool when nothing fails, at most:
    with what the current work may take, the pool starts no spare beyond them."""
    learned: dict[str, Calibration] = field(default_factory=dict)
    """What calibration showed of each write tool (shared by the copies a lane runs)."""
    seen: dict[str, Seen] | None = None
    """What the experiments (stateful.watch) showed of each tool, once run (see `watched`)."""
    guessed: dict[str, GuessedUpdate] | None = None
    """The updates the schema's shape proposes where the experiments showed no role (see `guesses`)."""
    warmed: list[str] = field(default_factory=list)
    """The write tools whose calibration and examples ran on the warm server (`alike_round_trips`)."""

    def base(self, tool: Tool) -> dict[str, Any]:
        return base_arguments(tool, self.overrides, self.config)

    def watched(self) -> dict[str, Seen]:
        """With --allow-writes, the experiments of stateful.watch on one fresh server, run once
        before any probe: each tool's role, identity and readers as its calls showed them. Excluded
        tools and tools that send take no part (deleting ones only with --allow-deletes)."""
        if self.seen is None:
            self.seen = {}
            if self.allow_writes:
                excluded = set(self.config.exclude)
                tools = [t for t in self.tools if t.name not in excluded
                         and ("send" not in t.reading.groups or t.name in self.config.writes)]
                self.pool.expect(1 + self.later)
                self.seen = watch(self.pool, tools, self.base, self.profile.seed, self.profile.settings(1),
                                  self.allow_deletes)
        return self.seen

    def guesses(self) -> dict[str, GuessedUpdate]:
        """Per tool the experiments showed nothing of, the update its schema's shape proposes
        (stateful.roles.guess_update): probed, its findings rest on that guess."""
        if self.guessed is None:
            self.guessed = guess_updates([t for t in self.tools if t.name not in self.config.exclude], self.watched())
        return self.guessed

    def role_fact(self, tool: Tool) -> Fact:
        """What a write tool's role rests on: the experiment that showed it, the probe config that
        states it (`writes`), else a guess (the schema's shape, then words and annotations), which
        allows a finding at most GUESSED_ROLE."""
        shown = self.watched().get(tool.name)
        if shown is not None and shown.role is not None and shown.fact is not None:
            return shown.fact
        if tool.name in self.config.writes:
            return fact_shown(f"{tool.name} changes records", source="stated in the probe config (writes)")
        if (guess := self.guesses().get(tool.name)) is not None:
            return guess.fact()
        claim = tool.reading.claims[0]
        return fact_guessed(f"{tool.name} changes records", f"{claim.role} by {claim.evidence}", GUESSED_ROLE)

    def write_tools(self) -> list[Tool]:
        """The tools whose writes are probed: named under `writes`, or shown storing records by the
        experiments; a tool they showed nothing of, by the update its schema's shape proposes, or by
        its words and annotations (that it sends keeps it out)."""
        excluded = set(self.config.exclude)
        seen = self.watched()
        guessed = self.guesses()

        def writes(tool: Tool) -> bool:
            role = seen[tool.name].role if tool.name in seen else None
            if role is not None:
                return role in WRITE_ROLES and "send" not in tool.reading.groups
            return tool.name in guessed or (tool.is_write and not tool.is_sending)

        return [t for t in self.tools if t.name not in excluded and (t.name in self.config.writes or writes(t))]

    def readers(self, tool: Tool) -> list[Reader]:
        """The readers of a write tool's records (stateful.readers.choose_readers); a guessed update's,
        those the experiments showed showing its creator's records."""
        seen = self.watched()
        if (guess := self.guesses().get(tool.name)) is not None and tool.name in seen:
            seen = {**seen, tool.name: replace(seen[tool.name], acts_on=guess.creator)}
        return choose_readers(tool, self.tools, self.config.pair_for(tool.name), set(self.config.exclude), seen)

    def key_of(self, tool: Tool, readers: list[Reader], given: dict[str, Any], pair: Pair | None) -> str | None:
        """The key calibration starts from: stated in the probe config, else the likeliest key field by
        the schema, else the identity the experiments showed. Calibration then varies it and the
        other identity candidates: what it shows decides (an experiment on a buggy store can mislead)."""
        key = choose_key(tool, readers, given, pair.key if pair and pair.key else [])
        shown = self.watched().get(tool.name)
        if key is None and shown is not None and shown.identity in tool.properties and shown.identity not in given:
            return shown.identity
        return key

    def learn_refusals(self) -> None:
        """Calibrate the write tools, before any search, until one shows the server's own refusal
        shape: from then on the searches, smoke checks and probes all read answers by it. What each
        calibration showed is kept for its probe, so no experiment runs twice."""
        if not self.allow_writes:
            return
        for tool in self.write_tools():
            if self.stop() or self.pool.refusals:
                return
            pair = self.config.pair_for(tool.name)
            readers = self.readers(tool)
            given = self.write_args(tool, pair)
            if readers and updated_id(tool, set(given), self.watched(), self.guesses()) is None:
                self.calibrated(tool, readers, self.key_of(tool, readers, given, pair), given)

    def refusal_facts(self) -> list[tuple[LearnedRefusal, Fact]]:
        """Each refusal shape calibration learned, with the fact that shows it."""
        return [(c.refusal, c.refusal_fact) for c in self.learned.values()
                if c.refusal is not None and c.refusal_fact is not None]

    def run(self) -> list[Result]:
        """Every probe in order; round trips and bounds on the lanes, the declared calls on the run's
        connection. Results are collected here, in the order a sequential run makes them, so the
        choice of the surest, shortest failure sees the same history whatever the number of lanes."""
        batch: list[Piece] = []
        for piece in self.plan():
            if piece.work is None and batch:  # keeps its place after the work before it
                batch.append(Piece(known(piece.outputs)))
            elif piece.work is None:
                self.collect(piece.outputs)
            elif piece.main:
                for outputs in self.on_lanes(batch):
                    self.collect(outputs)
                batch = []
                self.collect(piece.work(self))
            else:
                batch.append(piece)
        for outputs in self.on_lanes(batch):
            self.collect(outputs)
        return self.results

    def plan(self) -> Iterator[Piece]:
        """The probes in order. Asked for one piece at a time while the lanes' work is gathered, so
        --max-time is looked at before any round trip runs."""
        writes = self.write_tools()
        if writes and not self.allow_writes:
            names = ", ".join(t.name for t in writes)
            self.notes.append(f"{len(writes)} probe(s) skipped because they write ({names}); add --allow-writes "
                              "to run them against a disposable server.")
            yield Piece(outputs=tuple(
                self.result(tool.name, "round-trip", "skip", "probe-write-not-observable",
                            "skipped: it writes; add --allow-writes to run it against a disposable server")
                for tool in writes))
        elif writes and self.config.laws != "only":
            shared = round_trip_profile(self.profile, len(writes))
            first_of_shape: dict[str, str] = {}
            alike: dict[str, list[Tool]] = {}
            for tool in writes:
                if self.stop():
                    yield Piece(outputs=(self.out_of_time(tool),))
                    continue
                first = first_of_shape.setdefault(self.shape(tool), tool.name)
                if first == tool.name:
                    yield Piece(round_trip_of(tool), servers=shared.probe_examples, profile=shared)
                else:
                    alike.setdefault(first, []).append(tool)
            for first, tools in alike.items():
                yield Piece(alike_round_trips(tools, first), profile=shared)
            self.notes.extend(f"{', '.join(t.name for t in tools)}: the same shape as {first}, so their model "
                              "machines (reads, variants, agreement, fields, renames) ran only where their round "
                              "trip failed" for first, tools in alike.items())
            if self.config.laws is not True:  # under `laws: true` laws 7 and 4 go first (`laws`)
                yield Piece(ProbeRun.pages, servers=self.profile.probe_examples)
                yield Piece(lambda run: delete_probes(run, run.allow_deletes, run.learned),
                           servers=self.profile.probe_examples // 4 if self.allow_deletes else 0)
        if self.allow_writes and self.config.laws:  # roles come from experiments: names need not call them writes
            retired = bool(writes) and self.config.laws is True
            pages = self.profile.probe_examples if retired else 0
            deletes = self.profile.probe_examples // 4 if retired and self.allow_deletes else 0
            yield Piece(ProbeRun.laws, servers=1 + pages + deletes)
        yield Piece(ProbeRun.bounds, servers=1)
        yield Piece(ProbeRun.agreements, main=True)
        yield Piece(ProbeRun.idempotent, main=True)

    def on_lanes(self, pieces: list[Piece]) -> list[list[ProbeOutput]]:
        """Run each piece's work on a lane, on a copy of this run with the lane's servers and a new
        warm server (one work's leftovers must not steer another's shrinking); outputs in piece order.
        A work is told how many fresh servers the works after it may take (the jobs after it run
        later on this lane or on another, so their sum bounds what this lane's pool still needs)."""
        works = [(piece.work, piece.servers, piece.profile or self.profile) for piece in pieces
                 if piece.work is not None]
        after = [sum(servers for _, servers, _ in works[index + 1:]) for index in range(len(works))]
        outputs: list[list[ProbeOutput]] = [[] for _ in works]
        if self.lanes is None:
            own = self.profile
            try:
                for index, (work, _, budget) in enumerate(works):
                    self.later, self.profile = after[index], budget
                    outputs[index] = list(work(self))
            finally:
                self.profile = own
            return outputs
        copies: list[ProbeRun | None] = [None for _ in works]

        def job(index: int, work: Work, budget: Profile) -> Job:
            def run_on(lane: Lane) -> None:
                lane.pool.retire_warm()
                copy = copies[index] = replace(self, pool=lane.pool, results=[], notes=[], examples=0, fresh_missed=0,
                                               lanes=None, later=after[index], profile=budget, warmed=[])
                outputs[index] = list(work(copy))
            return run_on

        if works:
            self.lanes.run([job(index, work, budget) for index, (work, _, budget) in enumerate(works)])
        for copy in copies:
            if copy is not None:
                self.examples += copy.examples
                self.fresh_missed += copy.fresh_missed
                self.notes.extend(copy.notes)
        return outputs

    def collect(self, outputs: Iterable[ProbeOutput]) -> None:
        for output in outputs:
            if isinstance(output, ProbeFinding):
                self.add_finding(output)
            else:
                self.results.append(output)

    def result(self, tool: str, check: Check, status: Status, rule: RuleId | Check, message: str, *,
               confidence: str = "high",
               basis: str = "", finding: ProbeFinding | None = None) -> Result:
        repro = None
        details: dict[str, Any] = {}
        if finding is not None:
            repro = Reproduction(list(finding.calls), fresh_server=finding.fresh and not self.pool.shared)
            details = {**finding.details, "expect": finding.expectation.to_dict()}
            if finding.facts:
                details["rests_on"] = rests_on(finding.facts, finding.calls)
        return Result(
            kind="probe", check=check, tool=tool, status=status, rule=rule, message=message,
            confidence=confidence, basis=basis, reproduction=repro, details=details,  # type: ignore[arg-type]
        )

    def add_finding(self, finding: ProbeFinding) -> None:
        """One result per tool, rule and cause (the field a write broke): the surest finding, then
        the shortest reproduction. The laws machine's finding of a rule another probe already found on
        the tool as surely adds nothing; a surer one takes that finding's place (a fold the variants
        probe saw in plain sight, which the machine saw lose data)."""
        if finding.basis.startswith(LAWS_BASIS):
            alike = [r for r in self.results if (r.tool, r.rule) == (finding.tool, finding.rule)
                     and r.status in ("fail", "warn")]
            if any(CONFIDENCE_ORDER[r.confidence] <= CONFIDENCE_ORDER[finding.confidence] for r in alike):
                return
            self.results[:] = [r for r in self.results if all(r is not a for a in alike)]
        for i, seen in enumerate(self.results):
            same = ((seen.tool, seen.rule, seen.basis, cause_of(seen.details))
                    == (finding.tool, finding.rule, finding.basis, cause_of(finding.details)))
            if same and seen.status in ("fail", "warn"):
                known = (CONFIDENCE_ORDER[seen.confidence], len(seen.reproduction.calls) if seen.reproduction else 0)
                if (CONFIDENCE_ORDER[finding.confidence], len(finding.calls)) >= known:
                    return
                del self.results[i]
                break
        status: Status = "fail" if finding.confidence == "high" else "warn"
        self.results.append(self.result(finding.tool, finding.check, status, finding.rule, finding.message,
                                        confidence=finding.confidence, basis=finding.basis, finding=finding))

    def shape(self, tool: Tool) -> str:
        """What a write tool's probes depend on apart from names: its schemas, hints and given values,
        and its readers' (in order). Two write tools of one shape on a server repeat one experiment."""
        pair = self.config.pair_for(tool.name)
        readers = self.readers(tool)
        return digest([tool.input_schema, tool.output_schema, tool.annotations, self.write_args(tool, pair),
                       [(r.tool.input_schema, r.tool.output_schema, r.tool.annotations, r.confidence, r.read_args)
                        for r in readers]])

    def round_trip(self, tool: Tool, like: str | None = None) -> Iterator[ProbeOutput]:
        """The round trip of one write tool, then its model machines (reads, variants, agreement,
        fields, renames), unless it is `like` an earlier write tool of the same shape and its own round
        trip found nothing: then they would repeat that tool's experiments. Such a tool's calibration
        and examples run on the pool's warm server (`alike_round_trips`), not a fresh one each."""
        pair = self.config.pair_for(tool.name)
        readers = self.readers(tool)
        if not readers:
            yield self.result(tool.name, "round-trip", "inconclusive", "probe-write-not-observable",
                              "no read tool to observe its writes; declare one in a probe config (pairs)",
                              confidence="low")
            return
        # A key field the user fixed (a repository path, a project) is the same for every record:
        # another key field tells records apart, if there is one.
        given = self.write_args(tool, pair)
        if (needed := updated_id(tool, set(given), self.watched(), self.guesses())) is not None:
            yield from update_probe(self, tool, needed, readers, given)
            return
        key_path = self.key_of(tool, readers, given, pair)
        warm = like is not None and not self.pool.shared
        if warm:
            self.warmed.append(tool.name)
        calibration = self.calibrated(tool, readers, key_path, given, warm)
        readers = calibrated_readers(readers, calibration)
        if calibration.identity is not None and calibration.identity in tool.properties and not (pair and pair.key):
            key_path = calibration.identity
        scope = self.scope(tool, given)
        kept = self.kept(scope, {tool.name, *(r.tool.name for r in readers)})
        if kept is not None and self.reproduces(kept):
            yield kept  # the failure this probe shrank to last time, replayed first
            return
        ctx, error = self.explore(tool, readers, pair, key_path, self.config.builtins, calibration, warm)
        verified = self.verified(ctx)
        if verified is not None and verified.tool != tool.name:
            # A bound of a reader broke first; judge the round trip itself without bounded reads.
            yield verified
            ctx, error = self.explore(tool, readers, pair, ctx.key_path, False, calibration, warm)
            verified = self.verified(ctx)
        yield from self.isolation(tool, ctx)
        machines = like is None or verified is not None
        if machines:
            yield from reads_probe(self, tool, readers, ctx.key_path, given)
            yield from variants_probe(self, tool, readers, calibration, given)
            yield from agreement_probe(self, tool, readers, ctx.key_path, given, calibration)
        others = list(self.other_causes(ctx.candidates, verified, tool.name)) if verified is not None else []
        if machines:
            yield from fields_probe(self, tool, readers, ctx.key_path, given, calibration,
                                    [] if verified is None else [verified, *others])
            yield from renames_probe(self, tool, readers, ctx.key_path, given, calibration)
        if not ctx.out_of_time and error is None:
            self.keep(scope, verified)
        if verified is not None:
            yield verified
            yield from others
        elif ctx.out_of_time:
            yield self.result(tool.name, "round-trip", "skip", "probe-write-not-observable",
                              f"not run to the end: --max-time was reached after {ctx.runs} example(s)")
        elif error is not None:
            yield self.result(tool.name, "round-trip", "inconclusive", "probe-write-not-observable",
                              f"the probe could not run: {error}", confidence="low")
        elif ctx.writes_ok == 0 and (addressed := list(addressed_update_probe(self, tool, readers, given))):
            yield from addressed
        elif ctx.writes_ok == 0:
            reason = ctx.writes_refused[-1].summary() if ctx.writes_refused else "no write was attempted"
            yield self.result(tool.name, "round-trip", "inconclusive", "probe-write-not-observable",
                              f"the write failed with generated values ({len(ctx.writes_refused)} tries, last: "
                              f"{reason}){refused_retries(ctx.retries_refused)}; supply values with --arg",
                              confidence="low")
        elif ctx.writes_unmarked == ctx.writes_ok:
            yield self.result(tool.name, "round-trip", "inconclusive", "probe-write-not-observable",
                              "no value of the write can carry a marker (it takes no text, or every text was given), "
                              "so no read can show it", confidence="low")
        elif ctx.confirmed == 0:
            yield self.result(tool.name, "round-trip", "inconclusive", "probe-write-not-observable",
                              "no read tool answered for its writes; declare the reader in a probe config",
                              confidence="low")
        else:
            best = min(readers, key=lambda r: CONFIDENCE_ORDER[r.confidence])
            judged = f"{ctx.writes_ok} write(s), {ctx.overwrites_judged} same-key overwrite(s) judged"
            if ctx.resources_shown:
                judged += f"; shown by resource {', '.join(sorted(ctx.resources_shown))}"
            if ctx.unmarked is not None:
                judged += f"; a marker in {', '.join(sorted(ctx.unmarked.fields))} was refused, so writes left it out"
            where = ("shared-server (URL target)" if self.pool.shared else "warm-server" if ctx.warm
                     else "fresh-process")
            yield self.result(tool.name, "round-trip", "pass", "round-trip",
                              f"writes were visible and kept ({judged}, {ctx.runs} {where} example(s))",
                              confidence="high" if ctx.overwrites_judged or ctx.confirmed else best.confidence,
                              basis=best.basis)

    def out_of_time(self, tool: Tool) -> Result:
        return self.result(tool.name, "round-trip", "skip", "probe-write-not-observable",
                           "not run: --max-time was reached")

    def pages(self) -> Iterator[ProbeOutput]:
        """Paged readers walked to the end over records the run wrote (stateful/pages.py)."""
        yield from page_probes(self)

    def laws(self) -> Iterator[ProbeOutput]:
        """The laws machine; under `laws: true` (not `only`), then the pages machine on the paged readers
        law 7 did not walk and the removal probe on the creators and removers law 4 did not judge, in
        the same lane's work (they need the machine's reach, nothing else does): the notes say which
        were left to the laws, and why the others were probed."""
        reach = Reach()
        yield from laws_probe(self, self.allow_deletes, reach)
        if self.config.laws is not True or not self.write_tools():
            return
        readers = paged_readers(self)
        left = [r for r in readers if r[0].reader.name in reach.walked]
        if left:
            self.notes.append(f"pages machine not run on {', '.join(p.reader.name for p, _, _ in left)}: law 7 of the "
                              "laws machine walked them (laws: true)")
        rest = [r for r in readers if r not in left]
        if rest:
            why = "law 7 never walked them" if reach.ran else \
                "the laws machine learned no creator or no reader" if reach.learned else \
                "the laws machine did not start (--max-time, or a server by URL, which it cannot restart)"
            self.notes.append(f"pages machine run on {', '.join(p.reader.name for p, _, _ in rest)}: {why}")
        yield from page_probes(self, rest)
        yield from delete_probes(self, self.allow_deletes, self.learned, reach.removed)

    def isolation(self, tool: Tool, ctx: ProbeContext) -> Iterator[Result]:
        """Records that outlived their server process: a warning, once per write tool."""
        if not ctx.persisted:
            return
        reader, markers = ctx.persisted[0]
        shown = ", ".join(markers[:3]) + (", …" if len(markers) > 3 else "")
        yield self.result(tool.name, "isolation", "warn", "state-persists",
                          f"a new server process already held records written by earlier examples: {reader} "
                          f"showed {len(markers)} earlier marker(s) ({shown}) in {len(ctx.persisted)} "
                          f"fresh-process example(s) of {ctx.runs}; the server keeps its data outside the "
                          "process, so examples are not isolated and a reproduction may depend on earlier state",
                          basis=f"markers written through {tool.name} in earlier examples, read back by {reader} "
                          "on a new process before this example wrote them")

    def scope(self, tool: Tool, given: dict[str, Any]) -> str:
        """Where this probe's failure is kept: the tool, and a digest of what its calls depend on
        (the schemas of the catalog's tools, the values and reader the user gives), so a failure is replayed
        only on a catalog and settings like the ones it was found with. Not the readers: the
        experiments choose them, and a fixed server may show its records through others."""
        pair = self.config.pair_for(tool.name)
        basis = [tool.input_schema, given, (pair.read, pair.read_args) if pair else None,
                 [(t.name, t.input_schema) for t in self.tools if t.name not in self.config.exclude]]
        return f"probe:{tool.name}:{digest(basis)}"

    def kept(self, scope: str, allowed: set[str]) -> ProbeFinding | None:
        """The round-trip failure kept from an earlier run (default and thorough profiles, command
        targets: a shared server holds records of earlier runs), if it calls only the write tool and
        its readers of this run."""
        if not self.profile.database_dir or self.pool.shared:
            return None
        data: Any = SavedFailures(self.profile.database_dir).load(scope)
        try:
            calls = [Call(c["tool"], c["arguments"]) for c in data.pop("calls")]
            finding = ProbeFinding(**data, calls=calls)
        except (AttributeError, KeyError, TypeError):
            return None
        return finding if {c.tool for c in calls} <= allowed else None

    def keep(self, scope: str, finding: ProbeFinding | None) -> None:
        if self.profile.database_dir and not self.pool.shared:
            SavedFailures(self.profile.database_dir).keep(scope, finding.to_dict() if finding else None)

    def calibrated(self, tool: Tool, readers: list[Reader], key_path: str | None,
                   given: dict[str, Any], warm: bool = False) -> Calibration:
        """The calibration of a write tool, run once (with --allow-writes, before its probe); `warm`:
        on the pool's warm server, where its examples then run too (`round_trip`)."""
        if tool.name not in self.learned:
            self.pool.expect((0 if warm else 1 + self.profile.probe_examples) + self.later)
            self.learned[tool.name] = calibrate(self, tool, readers, key_path, given, warm)
        for learned in self.learned.values():  # a lane's own pool reads answers by every shape learned
            if learned.refusal is not None and learned.refusal not in self.pool.refusals:
                self.pool.refusals.append(learned.refusal)
        return self.learned[tool.name]

    def explore(self, tool: Tool, readers: list[Reader], pair: Pair | None, key_path: str | None,
                bounds: bool, calibration: Calibration | None = None,
                warm: bool = False) -> tuple[ProbeContext, str | None]:
        """Run the effect machine for one write tool; `bounds` adds the bounded and sliced reads, `warm`
        runs every example on the pool's warm server. What the user stated of the key wins over what
        calibration showed."""
        stated = self.stated_key(tool, pair, key_path)
        if calibration is not None and stated == (None, None):
            replaced = calibration.overwrite == REPLACES and calibration.identity in (None, key_path)
            stated = (calibration.overwrite_fact if replaced else None,
                      calibration.identity_fact if calibration.identity == key_path else None)
        ctx = ProbeContext(
            pool=self.pool, write=tool, readers=readers, key_path=key_path,
            base_args={r.tool.name: self.base(r.tool) for r in readers},
            write_args=self.write_args(tool, pair), overwrite=stated[0], identity=stated[1],
            appends=calibration is not None and calibration.overwrite == APPENDS and not (pair and pair.key),
            refusals=tuple(fact for _, fact in self.refusal_facts()),
            bounds=[(r.tool, b) for r in readers for b in profile(r.tool).bounds if b.kind == "limit"]
            if bounds else [],
            slices=bounds,
            salt=scope_salt(self.profile.seed, "effect", tool),
            shrink_runs=self.profile.shrink_calls // 2, stop=self.stop, warm=warm,
        )
        error = None
        self.pool.expect((0 if warm else self.profile.probe_examples) + self.later)
        machine = seeded(build_machine(ctx), self.profile.seed, "effect", tool, "bounds" if bounds else "plain")
        try:
            with own_draws():
                run_state_machine_as_test(machine, settings=self.profile.settings(self.profile.probe_examples))
        except (ProbeFailure, Flaky):
            pass
        except Exception as exc:
            # Hypothesis itself can fail while shrinking a run whose server answered differently;
            # a failure seen before that is still verified and reported.
            error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        self.examples += ctx.runs
        return ctx, error

    @staticmethod
    def stated_key(tool: Tool, pair: Pair | None, key_path: str | None) -> tuple[Fact | None, Fact | None]:
        """A key the probe config declares: that a second write with it replaces the first, and that
        it tells records apart, both stated by the user."""
        if pair is None or not pair.key or key_path not in pair.key:
            return None, None
        source = "stated in the probe config"
        return (fact_shown(f"a second write to {tool.name} with the same {key_path} replaces the first", source=source),
                fact_shown(f"{key_path} tells {tool.name}'s records apart", source=source))

    def write_args(self, tool: Tool, pair: Pair | None) -> dict[str, Any]:
        """The values a write tool's calls take from the user instead of the generator."""
        return {**(self.overrides.for_tool(tool) if self.overrides else {}),
                **self.config.args.get(tool.name, {}), **(pair.write_args if pair else {})}

    def verified(self, ctx: ProbeContext) -> ProbeFinding | None:
        """The surest, shortest failure that has been seen from a fresh server: a shrunk candidate
        found on the warm server is replayed on a new one before it is reported."""
        if ctx.candidates:
            self.pool.expect(REPLAYS + self.later)
        tries = 2
        for finding in sorted(ctx.candidates, key=lambda f: (CONFIDENCE_ORDER[f.confidence], len(f.calls))):
            if self.pool.shared:
                return finding
            if finding.fresh:
                return smaller(finding, ctx.write.name, self.reproduces)
            if tries > 0:
                tries -= 1
                if self.reproduces(finding):
                    return smaller(replace(finding, fresh=True), ctx.write.name, self.reproduces)
        return None

    def other_causes(self, candidates: list[ProbeFinding], reported: ProbeFinding,
                     write: str) -> Iterator[ProbeFinding]:
        """Beside the reported finding, the surest, shortest one of each other cause of its rule
        among the candidates (another field the same write broke), seen again on a fresh server and
        shrunk: one field's loss must not hide another's. At most MORE_CAUSES of them."""
        causes = sorted({cause_of(c.details) or "" for c in candidates if c.rule == reported.rule}
                        - {cause_of(reported.details) or "", ""})
        for cause in causes[:MORE_CAUSES]:
            found = surest([c for c in candidates if c.rule == reported.rule and cause_of(c.details) == cause])
            if found is None or self.stop():
                continue
            if self.pool.shared:
                yield found
                continue
            self.pool.expect(REPLAYS + self.later)
            if found.fresh or self.reproduces(found):
                yield smaller(replace(found, fresh=True), write, self.reproduces)

    def reproduces(self, finding: ProbeFinding, rest: Rest | None = None) -> bool:
        conn = self.pool.acquire()
        try:
            return reproduces(finding, conn, rest)
        finally:
            self.pool.release(conn)

    def replayed(self, finding: ProbeFinding) -> Replay:
        conn = self.pool.acquire()
        try:
            return replayed(finding, conn)
        finally:
            self.pool.release(conn)

    def bound_checks(self) -> tuple[list[BoundCheck], list[Result]]:
        """The bounds to judge, and the declared relations that may not run."""
        checks: list[BoundCheck] = []
        skipped: list[Result] = []
        by_name = {t.name: t for t in self.tools}
        declared = set()
        for rel in self.config.relations:
            tool = by_name.get(rel.tool)
            if tool is None:
                skipped.append(self.result(rel.tool, "bound", "skip", "probe-bound-exceeded",
                                           "declared relation names an unknown tool"))
                continue
            if (refusal := self.refusal(rel.tool)) is not None:
                skipped.append(self.result(rel.tool, "bound", "skip", "probe-bound-exceeded",
                                           f"declared relation: {refusal}"))
                continue
            declared.add((rel.tool, rel.param))
            rel.args = {**self.base(tool), **rel.args}
            hi = next((b.maximum for b in profile(tool).bounds if b.param == rel.param and b.maximum is not None), 50)
            checks.append(BoundCheck(tool, rel, "high", f"declared relation {rel.id}", hi))
        if self.config.builtins:
            for tool in self.tools:
                if tool.is_read and tool.name not in self.config.exclude:
                    checks.extend(c for c in builtin_relations(tool, self.base(tool))
                                  if (tool.name, c.relation.param) not in declared)
        return checks, skipped

    def bounds(self) -> Iterator[ProbeOutput]:
        """Read-only bounds run on a server of their own in its initial state (the scenarios may
        have written to the main one), so their one-call reproductions replay from a fresh start."""
        checks, skipped = self.bound_checks()
        yield from skipped
        if not checks:
            return
        self.pool.expect(1 + self.later)
        conn = self.pool.acquire()
        try:
            yield from self._bounds(conn, checks)
        finally:
            self.pool.release(conn)

    def _bounds(self, conn: Connection, checks: list[BoundCheck]) -> Iterator[ProbeOutput]:
        for check in checks:
            if self.stop():
                yield self.result(check.tool.name, "bound", "skip", "probe-bound-exceeded",
                                  "not run: --max-time was reached", basis=check.basis)
                continue
            finding, judged, why_not = run_bound(conn, check, self.profile)
            self.examples += judged
            if finding is not None:
                yield finding
            elif judged == 0:
                yield self.result(check.tool.name, "bound", "inconclusive", "probe-bound-exceeded", why_not,
                                  confidence="low", basis=check.basis)
            else:
                yield self.result(check.tool.name, "bound", "pass", "bound",
                                  f"{check.relation.param} bounded the result for {judged} value(s)",
                                  confidence=check.confidence, basis=check.basis)

    def refusal(self, name: str) -> str | None:
        """Why a declared call may not be made: a config cannot turn writes on, and a tool that
        deletes, sends, publishes or deploys runs only when named under `writes`."""
        tool = next((t for t in self.tools if t.name == name), None)
        if tool is None:
            return "names an unknown tool"
        if name in self.config.exclude:
            return "the tool is excluded"
        if tool.is_destructive and name not in self.config.writes:
            return "the tool deletes, sends, publishes or deploys; name it under writes to allow it"
        if not tool.is_read and not self.allow_writes:
            return "the tool is not read-only: add --allow-writes"
        return None

    def agreements(self) -> Iterator[ProbeOutput]:
        for agreement in self.config.agreements:
            refusal = self.refusal(agreement.left.tool) or self.refusal(agreement.right.tool)
            if refusal is not None:
                yield self.result(agreement.left.tool, "agreement", "skip", "probe-paths-disagree",
                                  f"{agreement.id}: {refusal}")
                continue
            left = self.conn.call(agreement.left.tool, agreement.left.args)
            right = self.conn.call(agreement.right.tool, agreement.right.args)
            tool = agreement.left.tool
            if not (left.ok and right.ok):
                yield self.result(tool, "agreement", "inconclusive", "probe-paths-disagree",
                                  f"{agreement.id}: a declared call did not succeed", confidence="high")
                continue
            expect = Agree(agreement.expect, agreement.left.field, agreement.right.field or agreement.left.field)
            lhs = item_keys(left, expect.left_field)
            rhs = item_keys(right, expect.right_field)
            if expect.holds(right, left):
                yield self.result(tool, "agreement", "pass", "agreement", f"{agreement.id}: {agreement.expect} holds",
                                  basis=f"declared agreement {agreement.id}")
            else:
                missing = sorted(lhs - rhs)[:3] or sorted(rhs - lhs)[:3]
                yield ProbeFinding(
                    "probe-paths-disagree", tool, f"{agreement.id}: {agreement.left.tool} and "
                    f"{agreement.right.tool} disagree (e.g. {missing})", "high", f"declared agreement {agreement.id}",
                    calls=[Call(agreement.left.tool, agreement.left.args),
                           Call(agreement.right.tool, agreement.right.args)],
                    expect=expect,
                    check="agreement", fresh=False)

    def idempotent(self) -> Iterator[ProbeOutput]:
        for spec in self.config.idempotent:
            if (refusal := self.refusal(spec.tool)) is not None:
                yield self.result(spec.tool, "idempotent", "skip", "probe-not-idempotent", f"declared call: {refusal}")
                continue
            first = self.conn.call(spec.tool, spec.args)
            second = self.conn.call(spec.tool, spec.args)
            if SameAnswer().holds(second, first):
                yield self.result(spec.tool, "idempotent", "pass", "idempotent",
                                  "the same read returned the same result", basis="declared idempotent call")
            else:
                yield ProbeFinding("probe-not-idempotent", spec.tool,
                                   "the same declared read returned different results", "high",
                                   "declared idempotent call",
                                   calls=[Call(spec.tool, spec.args), Call(spec.tool, spec.args)],
                                   expect=SameAnswer(), check="idempotent", fresh=False)


Work = Callable[[ProbeRun], Iterable[ProbeOutput]]
"""A probe's work, run on this run or on a lane's copy of it; `collect` takes what it yields."""


def known(outputs: Iterable[ProbeOutput]) -> Work:
    return lambda run: outputs


def round_trip_of(tool: Tool) -> Work:
    return lambda run: run.round_trip(tool)


def alike_round_trips(tools: list[Tool], like: str) -> Work:
    """The round trips of the write tools of one shape after its first, `like`, in catalog order on
    one new warm server: that tool's examples ran fresh and judged what a new process holds; these
    show whether the others behave alike, each finding replayed on a fresh server before it is
    reported. One work, so which server holds what depends on the catalog alone."""
    def work(run: ProbeRun) -> Iterator[ProbeOutput]:
        run.pool.retire_warm()
        start = len(run.warmed)
        for tool in tools:
            yield from [run.out_of_time(tool)] if run.stop() else run.round_trip(tool, like)
        if warmed := run.warmed[start:]:
            run.notes.append(f"{', '.join(warmed)}: calibrated and explored on one warm server, not a fresh one each "
                             f"(the same shape as {like}, whose examples ran fresh); each finding was replayed on a "
                             "fresh server")
    return work


@dataclass(frozen=True)
class Piece:
    """One piece of a probe run: `work` for a lane (with `main`, for the run's own connection once
    the lanes' work before it is done), or `outputs` already known."""

    work: Work | None = None
    outputs: tuple[ProbeOutput, ...] = ()
    main: bool = False
    servers: int = 0
    """Fresh servers the work takes when nothing fails, at most."""
    profile: Profile | None = None
    """The budget the work runs with, when not the run's own."""
