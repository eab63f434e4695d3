"""Read-only bound relations: head, tail and limit-like parameters, built in or declared.

Values are the fixed ones of each family plus values Hypothesis picks inside the parameter's
range, so a bound that only breaks at larger values is found and shrunk to the smallest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from hypothesis_mcp.catalog import Bound, Tool
from hypothesis_mcp.connection import Connection
from hypothesis_mcp.model.facts import Fact, fact_guessed, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.profiles import Profile
from hypothesis_mcp.results import Call
from hypothesis_mcp.rules.answers import count_items, items_of, lines
from hypothesis_mcp.rules.expectations import AtMost, Exactly, Expectation, Finding, Lines
from hypothesis_mcp.search.driver import hunt
from hypothesis_mcp.stateful.config import BoundRelation
from hypothesis_mcp.stateful.judge import ProbeFinding


@dataclass
class BoundCheck:
    tool: Tool
    relation: BoundRelation
    confidence: str
    basis: str
    maximum: int


def bound_basis(tool: Tool, bound: Bound) -> str:
    if bound.kind in ("head", "tail"):
        return f"built-in bound: {bound.param} returns the {'first' if bound.kind == 'head' else 'last'} N lines"
    return f"built-in bound: {bound.param} limits how many items {tool.name} returns"


def builtin_relations(tool: Tool, base: dict[str, Any]) -> list[BoundCheck]:
    checks = []
    for bound in profile(tool).bounds:
        hi = bound.maximum if bound.maximum is not None else 50
        if bound.kind in ("head", "tail"):
            rel = BoundRelation(tool.name, bound.param, [0, 1, 2], "prefix" if bound.kind == "head" else "suffix",
                                base, "lines", f"{tool.name}-{bound.param}")
            checks.append(BoundCheck(tool, rel, "medium", bound_basis(tool, bound), max(2, hi)))
        else:
            lo = max(1, bound.minimum or 1)
            values = [v for v in (1, 2) if lo <= v <= hi] or [lo]
            rel = BoundRelation(tool.name, bound.param, values, "at_most" if bound.required else "exact",
                                base, "auto", f"{tool.name}-{bound.param}")
            checks.append(BoundCheck(tool, rel, "medium", bound_basis(tool, bound), hi))
    return checks


def run_bound(conn: Connection, check: BoundCheck, profile: Profile) -> tuple[ProbeFinding | None, int, str]:
    """Hunt for a value of the parameter that breaks the relation; returns the finding, the number
    of values judged, and why none was (when none was)."""
    rel = check.relation
    base = {k: v for k, v in rel.args.items() if k != rel.param}
    full = conn.call(rel.tool, base)
    if not full.ok:
        return None, 0, f"{rel.tool} did not answer with its starting arguments; supply values with --arg"
    # Items are counted only in a list: a prose answer's lines are no count of items.
    items_only = rel.expect not in ("prefix", "suffix") and rel.unit == "auto"
    if items_only and items_of(full) is None:
        return None, 0, (f"{rel.tool} answers with no list of items (prose has lines, not items), so "
                         f"{rel.param} is not judged")
    judged = [0]
    full_lines = lines(full)
    showing: list[Call] = []
    """A call whose answer the parameter cut short as its name says: it shows the parameter bounds."""

    def prop(n: int) -> Finding | None:
        limited = conn.call(rel.tool, {**base, rel.param: n})
        if not limited.ok:
            return None
        if items_only and items_of(limited) is None:
            return None
        judged[0] += 1
        if rel.expect in ("prefix", "suffix"):
            want = full_lines[:n] if rel.expect == "prefix" else (full_lines[-n:] if n else [])
            expect: Expectation = Lines(tuple(want))
            shown = lines(limited)
            if 0 < len(shown) <= n and len(shown) < len(full_lines) and shown == (
                    full_lines[:len(shown)] if rel.expect == "prefix" else full_lines[-len(shown):]):
                showing.append(Call(rel.tool, {**base, rel.param: n}))
            if expect.holds(limited):
                return None
            if len(shown) > len(want):
                return Finding("probe-bound-exceeded", f"{rel.param}: {n} returned {len(shown)} lines "
                               f"(at most {len(want)} expected)", {"n": n, "expect": expect})
            if len(shown) < len(want):
                return Finding("probe-bound-short", f"{rel.param}: {n} returned {len(shown)} lines; "
                               f"{len(want)} expected", {"n": n, "expect": expect})
            return Finding("probe-slice-mismatch", f"{rel.param}: {n} returned lines that are not the "
                           f"{'start' if rel.expect == 'prefix' else 'end'} of the full content",
                           {"n": n, "expect": expect})
        unit = "auto" if rel.unit == "auto" else rel.unit
        everything, counted = count_items(full, unit)
        got, _ = count_items(limited, unit)
        expect = AtMost(n, counted)
        if not expect.holds(limited):
            return Finding("probe-bound-exceeded", f"{rel.param}={n} returned {got} {counted} (at most {n})",
                           {"n": n, "expect": expect})
        expect = Exactly(min(n, everything), counted)
        if rel.expect == "exact" and not expect.holds(limited):
            return Finding("probe-bound-short", f"{rel.param}={n} returned {got} {counted}; "
                           f"{min(n, everything)} expected (min({n}, {everything}))",
                           {"n": n, "expect": expect})
        if 0 < got < everything:
            showing.append(Call(rel.tool, {**base, rel.param: n}))
        return None

    lo = min(rel.values)
    values = st.one_of(st.sampled_from(sorted(set(rel.values))), st.integers(lo, max(lo, check.maximum)))
    found = hunt(values, prop, profile, examples=max(len(rel.values), profile.probe_examples),
                 cost=conn.stats.cost, scope=("bound", check.tool, rel.param))
    if found.finding is None:
        return None, judged[0], f"no answer of {rel.tool} with {rel.param} had a list of items to count"
    n = found.value
    for value in sorted(v for v in set(rel.values) if v > 0):
        if showing:
            break
        prop(value)
    return ProbeFinding(
        rule=found.finding.rule, tool=rel.tool, message=found.finding.message, confidence=check.confidence,
        basis=check.basis, calls=[Call(rel.tool, {**base, rel.param: n})], expect=found.finding.details["expect"],
        check="bound", facts=(bound_fact(rel.tool, rel.param, check.basis, showing[:1]),),
    ), judged[0], ""


def bound_fact(tool: str, param: str, basis: str, showing: Sequence[Call] = ()) -> Fact:
    """A declared relation is stated by the user; an answer the parameter cut short shows one; a
    parameter's name alone only suggests one."""
    what = f"{param} bounds what {tool} returns"
    if basis.startswith("declared"):
        return fact_shown(what, source="stated in the probe config")
    if showing:
        return fact_shown(what, calls=showing, source=f"{param}: {showing[0].arguments[param]} cut the answer short")
    return fact_guessed(what, f"the parameter name {param!r}")
