"""Values at a store's edges. A store that keeps ordinary values may still mishandle a text with
surrounding whitespace, one that Unicode normalisation changes, one outside ASCII or at its longest,
an integer outside 32 bits, a number with more decimals than money has, a list at its longest, or a
value other than the field's declared default. Drawn at random these are rare, and a search shrinks
away from them; so each field of a write the machine draws may take one, picked by the write's turn.
Every edge is an ordinary schema-valid value: a store keeps it or refuses it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.strategies.dialect import admits

UNBOUNDED = 1000
"""The length a text without maxLength is taken to."""
WIDE = 2**31 + 7
"""Outside a signed 32-bit integer, either side."""
FINE = 0.123456789
"""More decimals than two."""
UNNORMAL = "\ufb01\u2460\uff21"
"""A ligature, a circled digit and a full-width letter: NFKC turns each into plain letters."""
OTHER = "\u00e9\u00df"
"""Letters outside ASCII."""
LONG_LIST = 12
"""The length a list without maxItems is taken to."""


def at_edges(tool: Tool, args: dict[str, Any], turn: int, identity: str | None = None) -> dict[str, Any]:
    """`args` with each field but the record's `identity` (its variants are law 8's) at the edge the
    write's `turn` picks, or as drawn; arguments the schema refuses are left as drawn. The pick takes
    no draw of its own, so the machine's search runs as it would without edges."""
    chosen = {}
    for place, (name, value) in enumerate(args.items()):
        found = options(value, tool.properties.get(name)) if name != identity else [value]
        chosen[name] = found[(turn + place) % len(found)]
    return chosen if fits(tool, chosen) else args


def options(value: Any, schema: Any) -> list[Any]:
    """The value as drawn first, then its edges that the field's schema allows."""
    sub = schema if isinstance(schema, dict) else {}
    found: list[Any] = [value]
    if "default" in sub and value == sub["default"]:
        found += [m for m in sub.get("enum", ()) if m != value][:1] or ([not value] if isinstance(value, bool) else [])
    if isinstance(value, bool):
        return found
    if isinstance(value, str) and "pattern" not in sub and "format" not in sub and "enum" not in sub:
        longest = sub.get("maxLength", UNBOUNDED)
        found += [f"{value}  ", f"{value}{UNNORMAL}", f"{value}{OTHER}",
                  (value + "x" * longest)[:max(longest, len(value))]]
    elif sub.get("type") == "integer" and isinstance(value, int):
        found += [WIDE, -WIDE]
    elif isinstance(value, int | float):
        found += [round(value) + FINE]
    elif isinstance(value, list) and value:
        found += [longest_list(value, sub.get("maxItems", LONG_LIST))]
    return [v for v in found if within(v, sub)]


def longest_list(value: list[Any], longest: Any) -> list[Any]:
    """The list grown to its longest by its own items again, each text told apart by its place (a
    store that keeps the first few items of a list keeps the drawn ones)."""
    if not isinstance(longest, int) or longest <= len(value):
        return value
    more = [value[i % len(value)] for i in range(longest - len(value))]
    return value + [f"{item}{i}" if isinstance(item, str) else item for i, item in enumerate(more)]


def within(value: Any, schema: dict[str, Any]) -> bool:
    """A quick bound check; the whole schema is checked on the arguments."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        low, high = schema.get("minimum"), schema.get("maximum")
        return ((not isinstance(low, int | float) or value >= low)
                and (not isinstance(high, int | float) or value <= high))
    if isinstance(value, str):
        longest = schema.get("maxLength")
        return not isinstance(longest, int) or len(value) <= longest
    return True


def fits(tool: Tool, args: dict[str, Any]) -> bool:
    """The arguments are valid by the tool's input schema."""
    return admits(tool.input_schema or {"type": "object"}, args)


def spellings(turn: int) -> list[str]:
    """`turn` spelt in the alphabets identity patterns commonly allow: digits, lower and upper
    letters, lower hex."""
    def spelt(digits: str) -> str:
        n, out = turn, ""
        while True:
            n, rest = divmod(n, len(digits))
            out = digits[rest] + out
            if n == 0:
                return out
    return [spelt("0123456789"), spelt("abcdefghijklmnopqrstuvwxyz"), spelt("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
            spelt("0123456789abcdef")]


def renamed(tool: Tool, args: dict[str, Any], identity: str, turn: int,
            used: Callable[[Any], bool]) -> dict[str, Any] | None:
    """`args` under an identity no write used yet, for a drawn one that was (a search draws small
    values again and again): the drawn identity with its end, or its whole, spelt as the write's
    `turn`, or an integer moved by it; the first the schema admits. None where none does."""
    value = args.get(identity)
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    if isinstance(value, int):
        tries: list[Any] = [value + turn, value - turn, turn]
    else:
        tries = [value[:max(0, len(value) - len(s))] + s for s in spellings(turn)] + [
            value + s for s in spellings(turn)]
    for candidate in tries:
        trial = {**args, identity: candidate}
        if not used(candidate) and fits(tool, trial):
            return trial
    return None
