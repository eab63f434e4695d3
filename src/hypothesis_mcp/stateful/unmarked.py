"""Writes retried with fewer marked fields.

A server may refuse a marker in a field whose schema says nothing against it (a category checked
against a pattern only its code knows, a label from a fixed list). Before a probe gives up, the same
write is tried again with the marker kept in one field and left out of the others: an optional
field is dropped, a required one gets a short plain text (lower-case letters, never a marker). The
fields tried are known, so a refusal names them, and the fields that made the server accept a write
are left unmarked in the later writes of the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.strategies.freetext import free_text
from hypothesis_mcp.strategies.schemas import compiler_for, tool_schema

RETRIES = 3
"""Most retries one example makes: each costs a call, and a refusal that has nothing to do with the
markers (a record that does not exist) is refused every time."""


PLAIN = 8
"""Most letters of a plain text, when the schema allows so few."""


@dataclass(frozen=True)
class Plan:
    """The fields of one retry that are left unmarked: `dropped` (optional) and `plain` (required)."""

    dropped: frozenset[str]
    plain: frozenset[str]

    @property
    def fields(self) -> frozenset[str]:
        return self.dropped | self.plain

    def apply(self, args: dict[str, Any], marker: str, short: bool = True) -> dict[str, Any]:
        return {name: plain(value, marker, short) if name in self.plain else value
                for name, value in args.items() if name not in self.dropped}


def marked_fields(args: dict[str, Any], marker: str) -> list[str]:
    """The top-level fields whose value carries `marker`, in argument order."""
    return [name for name, value in args.items() if marker in _texts(value)]


def _texts(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return " ".join(_texts(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_texts(v) for v in value)
    return ""


def plain(value: Any, marker: str, short: bool = True) -> Any:
    """`value` with every text that carries `marker` replaced by letters: at most PLAIN of them
    (a name a server checks is short), or with `short` false as many as the text had, which a
    length the schema bounds allows."""
    if isinstance(value, str):
        return plain_text(marker, min(len(value), PLAIN) if short else len(value)) if marker in value else value
    if isinstance(value, dict):
        return {k: plain(v, marker, short) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v, marker, short) for v in value]
    return value


def plain_text(marker: str, length: int) -> str:
    """Letters from g to v spelled from the marker's digits: no hex digit follows `hm`, so no
    marker can be read in it, and each write's plain text differs from the others'."""
    unit = "".join(chr(ord("a") + 6 + int(digit, 16)) for digit in marker[-8:])
    return (unit * (length // len(unit) + 1))[:length]


def ranked(tool: Tool, fields: list[str]) -> list[str]:
    """Fields most likely to hold free text first (prose by name, description and length), then
    required before optional, then in argument order."""
    def rank(name: str) -> tuple[bool, bool]:
        schema = tool.properties.get(name)
        maximum = schema.get("maxLength") if isinstance(schema, dict) else None
        prose = free_text(name, schema, maximum if isinstance(maximum, int) else None)
        return not prose, name not in profile(tool).required
    return sorted(fields, key=rank)


def plans(tool: Tool, marked: list[str], key: str | None) -> list[Plan]:
    """The retries of a refused write, in order: the key and the field most likely to be free text
    keep their marker, then the next likeliest, and last the key alone."""
    others = [name for name in ranked(tool, marked) if name != key]
    tries = [[o for o in others if o != keeper] for keeper in others]
    if key in marked:
        tries.append(others)
    found: list[Plan] = []
    for fields in tries:
        plan = Plan(frozenset(f for f in fields if f not in profile(tool).required),
                    frozenset(f for f in fields if f in profile(tool).required))
        if plan.fields and plan not in found:
            found.append(plan)
    return found


def retried(tool: Tool, args: dict[str, Any], marker: str, key: str | None) -> list[tuple[Plan, dict[str, Any]]]:
    """Each retry of a refused write with its arguments, those the schema still allows."""
    found = []
    for plan in plans(tool, marked_fields(args, marker), key):
        fewer = unmarked(tool, plan, args, marker)
        if fewer is not None:
            found.append((plan, fewer))
    return found


def unmarked(tool: Tool, plan: Plan, args: dict[str, Any], marker: str) -> dict[str, Any] | None:
    """`args` with the plan's fields unmarked, short plain texts first; None if the schema allows
    neither."""
    compiler = compiler_for(tool_schema(tool))
    valid = compiler.check(compiler.root)
    return next((fewer for short in (True, False) if valid(fewer := plan.apply(args, marker, short))), None)


def merged(learned: Plan | None, plan: Plan) -> Plan:
    """What later writes leave unmarked once `plan` made the server accept a write."""
    if learned is None:
        return plan
    return Plan(learned.dropped | plan.dropped, learned.plain | plan.plain)


def refused_retries(retries: list[tuple[Plan, Outcome]]) -> str:
    """What an inconclusive round trip says of its retries: the fields each left unmarked, and
    the server's last answer."""
    if not retries:
        return ""
    tried = "; ".join(dict.fromkeys(", ".join(sorted(plan.fields)) for plan, _ in retries))
    return (f"; retried {len(retries)} time(s) with fewer marked fields, leaving unmarked: "
            f"{tried}; refused too (last: {retries[-1][1].summary()})")
