"""The laws machine as a probe of grading: learn the roles on a fresh server, run the machine's
examples on that same server (now warm), confirm each broken law on fresh servers, report it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial

from hypothesis.errors import Flaky
from hypothesis.stateful import run_state_machine_as_test

from hypothesis_mcp.connection import Connection
from hypothesis_mcp.model.facts import Fact
from hypothesis_mcp.results import CONFIDENCE_ORDER
from hypothesis_mcp.search.seeding import own_draws, seeded
from hypothesis_mcp.stateful.host import ProbeHost, ProbeOutput
from hypothesis_mcp.stateful.laws.absent import absent_rules
from hypothesis_mcp.stateful.laws.confirm import REPLAYS, confirmed, counted_fresh
from hypothesis_mcp.stateful.laws.covering import covering_rules
from hypothesis_mcp.stateful.laws.folding import folding_rules
from hypothesis_mcp.stateful.laws.machine import COUNT_WRONG, Law, Run, build, steps_of
from hypothesis_mcp.stateful.laws.observe import Learned, learned
from hypothesis_mcp.stateful.laws.overwrites import overwrite_rules
from hypothesis_mcp.stateful.laws.read_order import read_order_rules
from hypothesis_mcp.stateful.laws.references import references_rules
from hypothesis_mcp.stateful.laws.removals import removals_rules
from hypothesis_mcp.stateful.laws.series import series_rules
from hypothesis_mcp.stateful.laws.unwritten import unwritten_rules
from hypothesis_mcp.stateful.readers import read_only_fact

EXAMPLES = 12
"""Examples per round on the warm server: the budget is per server, not per tool."""
STEPS = 8
ROUNDS = 6
"""A round ends at its first broken law; the next round looks for another, until one breaks none (a
server of several faults draws each: fresh starts grow with findings, not with tools)."""
CONFIRMS = 3
"""Breaches of one round tried on fresh servers, at most (shortest first)."""
LAWS: tuple[Law, ...] = (series_rules, covering_rules, folding_rules, references_rules, overwrite_rules,
                         absent_rules, removals_rules, unwritten_rules, read_order_rules)
"""The laws of their own modules (6 to 10, law 2 on updates of absent records and on reads of
identities no call wrote, law 4 on a second removal, law 1 on a listing's window), beside those
machine.py judges after every step."""


@dataclass
class Reach:
    """What the machine reached of a server, for the per-invariant machines it retires: whether its
    experiments ran (no --max-time or shared server stopped it first) and it ran (they showed a
    creator and a reader), the listings law 7 walked, and per creator the removers whose removals of
    its records law 4 judged."""

    learned: bool = False
    ran: bool = False
    walked: set[str] = field(default_factory=set)
    removed: dict[str, set[str]] = field(default_factory=dict)


def laws_probe(host: ProbeHost, allow_deletes: bool, reach: Reach | None = None) -> Iterator[ProbeOutput]:
    """Every law the machine judges, over every tool the experiments showed a role for; what it
    reached goes to `reach`."""
    reach = Reach() if reach is None else reach
    pool = host.pool
    if pool.shared or host.stop():
        return
    pool.expect(1)
    conn = pool.acquire()
    run: Run | None = None
    cut: list[int] = []
    """The rounds Hypothesis ended early (numbered from 1)."""
    try:
        run_settings = host.profile.settings(1)
        tools = [t for t in host.tools if t.name not in host.config.exclude]  # never called by any check
        model = learned(conn, tools, host.base, host.profile.seed, run_settings, allow_deletes)
        reach.learned = True
        if not model.creators or not model.readers:
            return
        run = Run(conn, model, host.profile.seed, stop=host.stop, writes=answered(conn, model), walked=reach.walked)
        reach.ran = True
        # Tools the machine takes for reads, each with what says it changes nothing beyond the
        # experiments: a remover that says it reads (machine.remove) is judged as a read by its words.
        reads: dict[str, tuple[Fact, ...]] = {
            **{a.tool.name: (read_only_fact(a.tool),) for a in model.removers if a.tool.is_read},
            **{t.name: (read_only_fact(t),) for t in host.tools if t.read_only_hint},
            **{r.tool.name: () for r in model.readers}}
        for round_ in range(ROUNDS):
            run.breaches, run.first_broken = [], None
            machine = seeded(build(run, LAWS), host.profile.seed, "laws", str(round_))
            try:
                with own_draws():
                    run_state_machine_as_test(machine, settings=host.profile.settings(
                        EXAMPLES, stateful_steps=STEPS))
            except AssertionError:
                pass
            except Flaky:
                # A step's draws follow what the warm server answered (a refused create holds no record
                # for the next rule), so Hypothesis may meet a known start that now draws otherwise and
                # end the round. The next round draws anew rather than end the machine with nothing seen.
                cut.append(round_ + 1)
            except Exception as exc:
                # Hypothesis can fail while shrinking a run the warm server answered otherwise, or a
                # law's own code can fail: said as the machine's error, never swallowed; the breaches
                # seen before are still confirmed on fresh servers.
                yield host.result(model.creators[0][0].name, "laws", "inconclusive", "laws",
                                  f"the laws machine could not run to the end: {type(exc).__name__}: "
                                  f"{str(exc).splitlines()[0] if str(exc) else ''}", confidence="low")
            host.examples += run.examples
            seen = sorted(run.breaches, key=lambda b: (CONFIDENCE_ORDER[b[0].confidence], len(b[1])))
            tried: set[tuple[str, str, frozenset[str]]] = set()
            for breach, calls, checks in seen:
                key, steps = (breach.rule, breach.tool), steps_of(calls, checks)
                if (*key, steps) in tried or not run.fresh(breach, steps) or len(tried) >= CONFIRMS or host.stop():
                    continue
                tried.add((*key, steps))
                run.quiet.add(key)
                pool.expect(REPLAYS)
                finding = confirmed(breach, calls, checks, partial(host.reproduces, rest=run.rest), reads,
                                    marker=run.marker)
                if finding is None:
                    host.fresh_missed += 1
                    run.missed.setdefault(key, set()).add(steps)
                else:
                    run.missed.pop(key, None)
                    yield counted_fresh(finding, host.replayed(finding)) if finding.rule == COUNT_WRONG else finding
            if not run.breaches and round_ + 1 not in cut:
                return
    finally:
        pool.release(conn)
        if cut:
            host.notes.append(f"laws machine: round {', '.join(map(str, cut))} of {ROUNDS} ended early (Hypothesis saw "
                              "its draws change with the warm server's answers); a next round, where one was left, "
                              "went on with new draws")
        if run is not None:
            for creator, removers in run.removals.items():
                reach.removed.setdefault(creator, set()).update(removers)


def answered(conn: Connection, model: Learned) -> int:
    """Calls of the creators the warm server answered without an error before the machine began (the
    experiments'): part of the history a fresh replay may need again."""
    names = {t.name for t, _ in model.creators}
    return sum(e.method == "tools/call" and e.params.get("name") in names and e.outcome.get("kind") == "result"
               and not e.outcome.get("isError") for e in conn.transcript)
