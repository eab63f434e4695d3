"""The two searches every per-tool check shares: valid arguments and invalid arguments.

Smoke checks and scenarios judge the same calls differently, so each search runs once per tool
and run and its outcome is kept for both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.causes import broken
from hypothesis_mcp.checks.minimise import drop_keys, narrow
from hypothesis_mcp.connection import Connection, Outcome
from hypothesis_mcp.errors import SchemaError
from hypothesis_mcp.profiles import Profile
from hypothesis_mcp.results import RuleId
from hypothesis_mcp.rules.expectations import ConformsTo, Finding, NoIncident, Refused, RefusedCleanly, Served
from hypothesis_mcp.search.driver import hunt
from hypothesis_mcp.search.saved import digest
from hypothesis_mcp.search.schedule import Unit
from hypothesis_mcp.search.seeding import Scope
from hypothesis_mcp.strategies import (
    Invalid,
    NoInvalidValues,
    Overrides,
    arguments,
    has_invalid_values,
    invalid_arguments,
)
from hypothesis_mcp.strategies.boundary import boundary_arguments
from hypothesis_mcp.strategies.breakers import Breaker, invalid_breakers, valid_breakers, violation
from hypothesis_mcp.strategies.dialect import schema_problem, value_validator
from hypothesis_mcp.strategies.overrides import breaches
from hypothesis_mcp.strategies.tools import chosen_arguments

NO_INCIDENT = NoIncident()
SERVED = Served()
REFUSED = Refused()
REFUSED_CLEANLY = RefusedCleanly()
REJECTED_VALID: RuleId = "happy-rejected-valid-input"
ACCEPTED_INVALID: RuleId = "edge-accepted-invalid-input"
INTERNAL_ON_INVALID: RuleId = "edge-internal-error"
OUT_OF_TIME = "not run: --max-time was reached"
Prop = Callable[[Any], Finding | None]
MINIMISING_BUDGET = 3
"""Minimising a failure may cost this many times the profile's shrink budget: bisecting a
10,000-character crash takes about 13 tries, half of them restarts."""


@dataclass
class Search:
    """One tool's search: the minimal failure (if any), and what the other calls returned."""

    finding: Finding | None = None
    arguments: dict[str, Any] | None = None
    answered: list[Outcome] = field(default_factory=list)
    refused: list[Outcome] = field(default_factory=list)
    skipped: str | None = None
    examples: int = 0
    outside_schema: str | None = None
    """The user's values for the tool break its inputSchema (--allow-invalid-args): its refusals
    are no finding."""
    output_unchecked: str | None = None
    """Why the outputSchema was not judged, when the tool declares one that cannot be used."""
    error_shaped: list[tuple[Any, Outcome]] = field(default_factory=list)
    """Calls answered with a success whose content says it failed, with their arguments: refusals
    to every check, and the evidence of `error-as-success`."""
    served_arguments: dict[str, Any] | None = None
    """The first arguments the tool served with success, which a later step may send again."""
    owned: dict[str, str] = field(default_factory=dict)
    """Parameters drawn from values the server owns, each with where those values came from."""
    blocked: list[str] = field(default_factory=list)
    """The parameters the refusals named when no call could be made to succeed."""
    blocked_by: Outcome | None = None
    """The plainest refusal that named one of them."""

    @property
    def successes(self) -> list[Outcome]:
        return [o for o in self.answered if o.ok]

    def keep(self, outcome: Outcome, args: Any) -> Finding | Literal[False] | None:
        """Record one answer of the search. Anything but False ends that example's judgement: None
        for a call never sent (the search stops and says why), the finding for an incident."""
        if outcome.kind == "unavailable":
            return None
        if (found := NO_INCIDENT.breach(outcome)) is not None:
            return found
        self.answered.append(outcome.slim())
        if outcome.error_shaped:
            self.error_shaped.append((args, self.answered[-1]))
        return False


@dataclass
class Searches:
    conn: Connection
    profile: Profile
    overrides: Overrides | None = None
    stop: Callable[[], bool] = lambda: False
    unavailable: str | None = None
    """Why searches were skipped: the server stopped answering after a call hung."""
    _valid: dict[str, Search] = field(default_factory=dict)
    _outputs: dict[str, Search] = field(default_factory=dict)
    _invalid: dict[str, Search] = field(default_factory=dict)

    @property
    def examples(self) -> int:
        return sum(s.examples for s in self._all())

    @property
    def failures(self) -> int:
        return sum(s.finding is not None for s in self._all())

    def _all(self) -> list[Search]:
        """Every search so far; a copy, as lanes may add to the caches meanwhile."""
        return [*tuple(self._valid.values()), *tuple(self._outputs.values()), *tuple(self._invalid.values())]

    def run_unit(self, unit: Unit, conn: Connection) -> None:
        """Run a scheduled unit's searches on `conn`, keeping their outcomes for the checks."""
        if unit.valid:
            self.valid(unit.tool, conn)
        if unit.invalid:
            self.invalid(unit.tool, conn)

    def valid(self, tool: Tool, conn: Connection | None = None, *, outputs_only: bool = False) -> Search:
        """Schema-valid arguments: the server must not crash, hang, call them invalid, or break
        its outputSchema. Error results are kept apart: they may mean made-up values. `conn`
        (default: the run's connection) is where a search not yet made runs. `outputs_only` looks
        for output schema breaks alone, past valid arguments the server refuses as invalid."""
        server = conn or self.conn
        cache = self._outputs if outputs_only else self._valid
        if tool.name in cache:
            return cache[tool.name]
        search = Search()
        cache[tool.name] = search
        if self._skipped(search, server):
            return search
        output = self._output(tool, search)
        fixed = self.overrides.for_tool(tool) if self.overrides else {}
        if outside := (breaches(tool, fixed) if fixed else []):
            search.outside_schema = "; ".join(f"its {b.where} {b.allowed} ({b.keyword})" for b in outside)
        try:
            strategy = arguments(tool, fixed or None)
            edges = boundary_arguments(tool, fixed)
            breakers = valid_breakers(tool, fixed)
        except SchemaError as exc:
            search.skipped = f"cannot generate arguments: {exc}"
            return search
        prop = self._served(tool, search, server, output, judged=not outputs_only and not outside)
        check = value_validator(tool.input_schema or {"type": "object"})
        if self._breakers(search, breakers, prop, server, lambda args: bool(check.is_valid(args))):
            return search
        self._run(search, strategy, prop, self.profile.examples, server, keep=frozenset(fixed),
                  admits=lambda args: bool(check.is_valid(args)),
                  scope=("outputs" if outputs_only else "valid", tool, digest(fixed)))
        # Then each edge once (enum values, range ends) that random draws may have missed; such a
        # failure is one call that changes a single value of the plainest call, so it is not shrunk.
        sent = [b.arguments for b in breakers]
        for args in edges if search.finding is None and search.skipped is None and not self._stopped(server) else []:
            if args in sent:
                continue
            finding = prop(args)
            search.examples += 1
            if finding is not None:
                search.finding, search.arguments = finding, args
                break
        return search

    def with_values(self, tool: Tool, choices: dict[str, list[Any]], conn: Connection | None = None) -> Search:
        """Valid arguments again, each parameter of `choices` drawn from the values given for it
        (values the server printed or named): kept as the tool's search when a call succeeds."""
        server = conn or self.conn
        search = Search()
        if self._skipped(search, server):
            return search
        try:
            strategy = chosen_arguments(tool, choices, self.overrides)
        except SchemaError as exc:
            search.skipped = f"cannot generate arguments: {exc}"
            return search
        fixed = self.overrides.for_tool(tool) if self.overrides else {}
        prop = self._served(tool, search, server, self._output(tool, search), judged=True)
        check = value_validator(tool.input_schema or {"type": "object"})
        self._run(search, strategy, prop, self.profile.examples, server, keep=frozenset([*fixed, *choices]),
                  admits=lambda args: bool(check.is_valid(args)),
                  scope=("owned", tool, digest([fixed, choices])))
        if search.successes or search.finding is not None:
            before = self._valid.get(tool.name)
            if before is not None:  # the first search's answers stay evidence (error-as-success)
                search.answered[:0], search.refused[:0] = before.answered, before.refused
                search.error_shaped[:0] = before.error_shaped
                search.examples += before.examples
            self._valid[tool.name] = search
        return search

    def _output(self, tool: Tool, search: Search) -> ConformsTo | None:
        """The outputSchema judgement, or None (with the reason kept) when it cannot be used."""
        schema = tool.output_schema
        problem = schema_problem(schema) if schema is not None else None
        if problem is not None:
            search.output_unchecked = f"outputSchema not checked: it is not a valid JSON Schema ({problem})"
        return ConformsTo(schema) if schema is not None and problem is None else None

    def _served(self, tool: Tool, search: Search, server: Connection, output: ConformsTo | None, *,
                judged: bool) -> Prop:
        """One valid call's judgement: no incident, not called invalid (when `judged`), its output
        schema kept; a refusal is kept apart."""

        def prop(args: dict[str, Any]) -> Finding | None:
            outcome = server.call(tool.name, args)
            if (stop := search.keep(outcome, args)) is not False:
                return stop
            if judged and (why := SERVED.breach(outcome)) is not None:
                return Finding(REJECTED_VALID, why, {"returned": outcome.summary()})
            if not outcome.ok:
                search.refused.append(search.answered[-1])
                return None
            if search.served_arguments is None:
                search.served_arguments = dict(args)
            return output.breach(outcome) if output is not None else None

        return prop

    def invalid(self, tool: Tool, conn: Connection | None = None) -> Search:
        """Schema-invalid arguments: each must be refused, with an isError result or a JSON-RPC
        error other than an internal error; a crash or a hang is a failure too."""
        server = conn or self.conn
        if tool.name in self._invalid:
            return self._invalid[tool.name]
        search = Search()
        self._invalid[tool.name] = search
        if self._skipped(search, server):
            return search
        try:
            if not has_invalid_values(tool.input_schema or {"type": "object"}):
                search.skipped = "the inputSchema accepts any arguments: nothing to reject"
                return search
            strategy = invalid_arguments(tool)
            breakers = invalid_breakers(tool)
        except NoInvalidValues:
            search.skipped = "the inputSchema accepts any arguments: nothing to reject"
            return search
        except SchemaError as exc:
            search.skipped = f"cannot generate invalid arguments: {exc}"
            return search

        def prop(invalid: Any) -> Finding | None:
            outcome = server.call(tool.name, invalid.value)
            if (stop := search.keep(outcome, invalid.value)) is not False:
                return stop
            details = {"returned": outcome.summary(), "keyword": invalid.keyword,
                       "violation": invalid.description, **broken(check, invalid)}
            if not REFUSED_CLEANLY.holds(outcome):
                return Finding(INTERNAL_ON_INVALID,
                               f"answered schema-invalid arguments with internal error {outcome.code}", details)
            if REFUSED.holds(outcome):
                search.refused.append(search.answered[-1])
                return None
            return Finding(ACCEPTED_INVALID,
                           "accepted schema-invalid arguments (returned a success result); they break "
                           f"'{invalid.keyword}' at {pointer(invalid.path)}", details)

        schema = tool.input_schema or {"type": "object"}
        check = value_validator(schema)

        def as_invalid(args: dict[str, Any]) -> Invalid:
            keyword, path, message = violation(schema, args)
            return Invalid(args, keyword, tuple(path), message)

        def prop_args(args: dict[str, Any]) -> Finding | None:
            return prop(as_invalid(args))

        if self._breakers(search, breakers, prop_args, server, lambda args: not check.is_valid(args)):
            return search
        self._run(search, strategy, prop, self.profile.invalid_examples, server, unwrap=as_invalid,
                  admits=lambda args: not check.is_valid(args),
                  scope=("invalid", tool))
        return search

    def searched(self, tool: Tool) -> tuple[list[Search], list[Search]]:
        """The valid-argument searches (and the output one) and the invalid one this run made for
        `tool`, without starting any."""
        valid = [cache[tool.name] for cache in (self._valid, self._outputs) if tool.name in cache]
        return valid, [self._invalid[tool.name]] if tool.name in self._invalid else []

    def _stopped(self, conn: Connection) -> bool:
        return self.stop() or conn.unavailable is not None

    def _skipped(self, search: Search, conn: Connection) -> bool:
        """A search not started: the run's time is up, or the server stopped answering."""
        if conn.unavailable is not None:
            search.skipped = f"not run: {conn.unavailable}"
            self.unavailable = conn.unavailable
        elif self.stop():
            search.skipped = OUT_OF_TIME
        return search.skipped is not None

    def _breakers(self, search: Search, breakers: list[Breaker], prop: Prop, conn: Connection,
                  admits: Callable[[dict[str, Any]], bool]) -> bool:
        """Send each breaker once, before the random draws; a failure is narrowed and ends the search."""
        passed: dict[str, list[Any]] = {}
        for breaker in breakers:
            if self._stopped(conn):
                break
            search.examples += 1
            finding = prop(breaker.arguments)
            if finding is None:
                if breaker.name is not None:
                    passed.setdefault(breaker.name, []).append(breaker.arguments[breaker.name])
                continue
            again = self._again(search, finding, prop, conn, admits)
            search.arguments = breaker.arguments if breaker.name is None else \
                narrow(breaker.arguments, breaker.name, passed.get(breaker.name, []), again)
            return True
        return False

    def _run(self, search: Search, strategy: Any, prop: Prop, examples: int, conn: Connection, *,
             admits: Callable[[dict[str, Any]], bool], unwrap: Callable[[dict[str, Any]], Any] | None = None,
             scope: tuple[Scope, ...], keep: frozenset[str] = frozenset()) -> None:
        found = hunt(strategy, prop, self.profile, examples=examples, cost=conn.stats.cost,
                     stop=lambda: self._stopped(conn), scope=scope)
        search.examples += found.examples
        if conn.unavailable is not None and found.finding is None:
            search.skipped = f"not finished: {conn.unavailable}"
            self.unavailable = conn.unavailable
        elif found.error is not None and found.finding is None:
            search.skipped = f"could not generate arguments: {found.error}"
        search.finding = found.finding
        if found.value is None or found.finding is None:
            return
        args = found.value.value if unwrap is not None else found.value
        again = self._again(search, found.finding, prop if unwrap is None else lambda a: prop(unwrap(a)), conn,
                            admits)
        search.arguments = drop_keys(args, again, keep=keep) if isinstance(args, dict) else args

    def _again(self, search: Search, finding: Finding, prop: Prop, conn: Connection,
               admits: Callable[[dict[str, Any]], bool]) -> Callable[[dict[str, Any]], bool]:
        """Whether a smaller call the search may send fails by the same rule; the last such
        failure becomes the search's finding, so its message speaks of the call reported. Tries stop
        at MINIMISING_BUDGET shrink budgets (a hang costs its timeout, a crash a restart)."""
        search.finding = finding
        limit = conn.stats.cost() + MINIMISING_BUDGET * self.profile.shrink_calls

        def fails(args: dict[str, Any]) -> bool:
            if self._stopped(conn) or not admits(args) or conn.stats.cost() > limit:
                return False
            search.examples += 1
            found = prop(args)
            if found is None or found.rule != finding.rule:
                return False
            search.finding = found
            return True

        return fails


def pointer(path: Any) -> str:
    """A JSON pointer for where a violation sits (`/entities/0/name`; `/` for the whole object)."""
    if isinstance(path, str):
        return path if path.startswith("/") else "/" + path
    return "/" + "/".join(str(part) for part in path or ())


def rejection_kind(outcome: Outcome) -> str:
    if outcome.kind == "error":
        return f"JSON-RPC error {outcome.code}"
    return "a success result that says it failed (error-as-success)" if outcome.error_shaped else \
        "an isError tool result"

