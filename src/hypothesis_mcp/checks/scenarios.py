"""Happy and edge scenarios: generated valid arguments are served, invalid ones refused.

A tool that refuses every generated valid value is inconclusive, not failed: made-up values
(a path outside the sandbox, a note that does not exist) are refused by correct servers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.searches import Search, Searches, rejection_kind
from hypothesis_mcp.results import ANSWERED, EXERCISED, GIVEN_OUTSIDE, Call, Check, Reproduction, Result, RuleId
from hypothesis_mcp.rules.registry import NOT_EXERCISED, fix_for

HAPPY_OUTPUT: RuleId = "happy-output-schema"
EXCLUDED = "never called: excluded by the probe config"
NEVER_CALLED = ("never called: destructiveHint is true, or its name says it deletes, sends, publishes or "
                "deploys")
HAPPY_BASIS = "generated arguments that validate against the tool's inputSchema"
OWNED = "owned"
"""A happy result's parameters drawn from values the server printed or named, with their source."""
BLOCKED = "blocked_on"
"""A not-exercised result's parameters its refusals named: the values the user should supply."""
EDGE_BASIS = "generated arguments that break one keyword of the tool's inputSchema"


@dataclass
class ScenarioPlan:
    """Which tools the scenarios will call, decided and announced before any call."""

    called: list[Tool]
    skipped: dict[str, str]

    @property
    def may_write(self) -> list[str]:
        return [t.name for t in self.called if not t.is_read]


def plan(tools: list[Tool], *, read_only: bool = False, excluded: frozenset[str] = frozenset()) -> ScenarioPlan:
    called, skipped = [], {}
    for tool in tools:
        if tool.is_destructive:
            skipped[tool.name] = NEVER_CALLED
        elif tool.name in excluded:
            skipped[tool.name] = EXCLUDED
        elif read_only and not tool.is_read:
            skipped[tool.name] = "not called: --read-only limits scenarios to read-only tools"
        else:
            called.append(tool)
    return ScenarioPlan(called, skipped)


def _result(check: Check, tool: Tool, search: Search, basis: str) -> Result:
    exercised: dict[str, Any] = {**({EXERCISED: len(search.successes)} if check == "happy" else {}),
                                 ANSWERED: len(search.answered)}
    if search.finding is not None:
        rule = HAPPY_OUTPUT if search.finding.rule == "smoke_structured_content" else search.finding.rule
        return Result(
            kind="scenario", check=check, tool=tool.name, status="fail", rule=rule,
            message=search.finding.message, confidence="high", basis=basis,
            reproduction=Reproduction([Call(tool.name, search.arguments or {})], fresh_server=False),
            details={**search.finding.details, "arguments": search.arguments, **exercised},
        )
    if search.skipped is not None:
        return Result(kind="scenario", check=check, tool=tool.name, status="skip", rule=check,
                      message=search.skipped, basis=basis)
    if check == "happy" and not search.successes and search.outside_schema:
        return Result(kind="scenario", check=check, tool=tool.name, status="skip", rule=check, basis=basis,
                      message=f"not judged: the values given break its inputSchema ({search.outside_schema}; "
                      f"--allow-invalid-args), so its {len(search.refused)} refusal(s) are not held against it",
                      details={**exercised, GIVEN_OUTSIDE: search.outside_schema})
    if check == "happy" and not search.successes:
        return _not_exercised(tool, search, basis, exercised)
    if check == "happy":
        refused = len(search.refused)
        message = f"{len(search.successes)} of {len(search.answered)} valid argument set(s) served"
        if search.owned:
            message += "; " + ", ".join(f"`{n}` drawn from {where}" for n, where in search.owned.items())
            exercised[OWNED] = dict(search.owned)
        if refused:
            message += f"; {refused} refused with an error result (treated as made-up values)"
        if search.output_unchecked:
            message += f"; {search.output_unchecked}"
    else:
        how = " or ".join(sorted({rejection_kind(o) for o in search.refused})) or "no call"
        message = f"all {len(search.refused)} invalid argument set(s) rejected with {how}"
    return Result(kind="scenario", check=check, tool=tool.name, status="pass", rule=check, message=message,
                  basis=basis, details=exercised)


def _not_exercised(tool: Tool, search: Search, basis: str, exercised: dict[str, Any]) -> Result:
    """Inconclusive: no call succeeded. The parameters the refusals named are the ones to supply."""
    last = search.refused[-1] if search.refused else None
    if search.blocked and search.blocked_by is not None:
        on = ", ".join(f"`{n}`" for n in search.blocked)
        message = (f"not exercised: every call was refused on {on} (as in {search.blocked_by.summary()}); pass "
                   + " ".join(f"--arg {tool.name}:{n}=VALUE" for n in search.blocked) + " to test it")
    else:
        kept = f", last with {last.summary()}" if last is not None else ""
        message = (f"not exercised: refused all {len(search.answered)} generated valid argument set(s){kept}; "
                   f"supply real values with --arg {tool.name}:{tool.required[0] if tool.required else 'NAME'}=VALUE "
                   "to test it")
    return Result(
        kind="scenario", check="happy", tool=tool.name, status="inconclusive", rule=NOT_EXERCISED,
        message=message, confidence="low", basis=basis, fix=fix_for(NOT_EXERCISED),
        details={**exercised, **({"returned": last.summary()} if last is not None else {}),
                 **({BLOCKED: list(search.blocked)} if search.blocked else {})},
    )


def run_scenarios(searches: Searches, scenario_plan: ScenarioPlan) -> list[Result]:
    results: list[Result] = []
    for tool in scenario_plan.called:
        results.append(_result("happy", tool, searches.valid(tool), HAPPY_BASIS))
    for tool in scenario_plan.called:
        results.append(_result("edge", tool, searches.invalid(tool), EDGE_BASIS))
    for name, reason in scenario_plan.skipped.items():
        for check in ("happy", "edge"):
            results.append(Result(kind="scenario", check=check, tool=name, status="skip", rule=check,
                                  message=reason))
    return results
