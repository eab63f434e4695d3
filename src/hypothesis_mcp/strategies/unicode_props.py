"""ECMA-262 Unicode property escapes (`\\p{Lu}`, `\\P{Letter}`) as Python character classes.

Python's `re` has no `\\p{..}`; the classes here are built from `unicodedata`, so the oracle, the
generated strings and Hypothesis's own character categories all read one Unicode table (the
running Python's). Served: every General_Category value under its short and long names (with or
without `gc=`/`General_Category=`) and the binary properties `Any`, `ASCII`, `Assigned` and
`White_Space`. `unicodedata` carries no Script property, so `Script=`/`scx=` are refused rather
than guessed. Self-contained on purpose: any JSON Schema validator can plug `property_class` into
its pattern translation.
"""

from __future__ import annotations

import sys
import unicodedata
from functools import cache

Intervals = tuple[tuple[int, int], ...]

_CATEGORY_NAMES = {
    "Cased_Letter": "LC",
    "Letter": "L",
    "Uppercase_Letter": "Lu",
    "Lowercase_Letter": "Ll",
    "Titlecase_Letter": "Lt",
    "Modifier_Letter": "Lm",
    "Other_Letter": "Lo",
    "Mark": "M",
    "Combining_Mark": "M",
    "Nonspacing_Mark": "Mn",
    "Spacing_Mark": "Mc",
    "Enclosing_Mark": "Me",
    "Number": "N",
    "Decimal_Number": "Nd",
    "digit": "Nd",
    "Letter_Number": "Nl",
    "Other_Number": "No",
    "Punctuation": "P",
    "punct": "P",
    "Connector_Punctuation": "Pc",
    "Dash_Punctuation": "Pd",
    "Open_Punctuation": "Ps",
    "Close_Punctuation": "Pe",
    "Initial_Punctuation": "Pi",
    "Final_Punctuation": "Pf",
    "Other_Punctuation": "Po",
    "Symbol": "S",
    "Math_Symbol": "Sm",
    "Currency_Symbol": "Sc",
    "Modifier_Symbol": "Sk",
    "Other_Symbol": "So",
    "Separator": "Z",
    "Space_Separator": "Zs",
    "Line_Separator": "Zl",
    "Paragraph_Separator": "Zp",
    "Other": "C",
    "Control": "Cc",
    "cntrl": "Cc",
    "Format": "Cf",
    "Surrogate": "Cs",
    "Private_Use": "Co",
    "Unassigned": "Cn",
}
_WHITE_SPACE: Intervals = (
    (0x09, 0x0D),
    (0x20, 0x20),
    (0x85, 0x85),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
)
_BINARY: dict[str, Intervals] = {
    "Any": ((0, sys.maxunicode),),
    "ASCII": ((0, 0x7F),),
    "White_Space": _WHITE_SPACE,
    "space": _WHITE_SPACE,
}


class UnknownProperty(ValueError):
    """A `\\p{..}` this module cannot serve; the message says which and why."""


@cache
def _by_category() -> dict[str, Intervals]:
    """Every two-letter General_Category as code-point intervals (one pass over all code points)."""
    found: dict[str, list[tuple[int, int]]] = {}
    start, current = 0, unicodedata.category("\0")
    for cp in range(1, sys.maxunicode + 2):
        category = unicodedata.category(chr(cp)) if cp <= sys.maxunicode else ""
        if category != current:
            found.setdefault(current, []).append((start, cp - 1))
            start, current = cp, category
    return {k: tuple(v) for k, v in found.items()}


def union(*groups: Intervals) -> Intervals:
    merged: list[tuple[int, int]] = []
    for lo, hi in sorted(r for g in groups for r in g):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return tuple(merged)


def complement(intervals: Intervals) -> Intervals:
    """Every code point outside `intervals`."""
    out, nxt = [], 0
    for lo, hi in union(intervals):
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= sys.maxunicode:
        out.append((nxt, sys.maxunicode))
    return tuple(out)


@cache
def property_intervals(written: str) -> Intervals:
    """The code points of the property named inside `\\p{...}`; raises UnknownProperty."""
    name, _, value = written.partition("=")
    if value:
        if name in ("gc", "General_Category"):
            return property_intervals(value)
        raise UnknownProperty(
            f"\\p{{{written}}}: the {name} property needs Unicode data Python's unicodedata does not carry"
        )
    if name in _BINARY:
        return _BINARY[name]
    table = _by_category()
    if name == "Assigned":
        return complement(table["Cn"])
    code = _CATEGORY_NAMES.get(name, name)
    if code == "LC":
        return union(table["Lu"], table["Ll"], table["Lt"])
    if len(code) == 1 and code.isupper():
        parts = [v for k, v in table.items() if k[0] == code]
        if parts:
            return union(*parts)
    if code in table:
        return table[code]
    raise UnknownProperty(f"\\p{{{written}}} is not a General_Category or binary property Python can serve")


def _char(cp: int) -> str:
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"


def class_body(intervals: Intervals) -> str:
    """The inside of a Python character class (`[...]` without brackets) for these intervals."""
    return "".join(_char(lo) if lo == hi else f"{_char(lo)}-{_char(hi)}" for lo, hi in intervals)


def property_class(written: str, *, negated: bool, in_class: bool, assigned: bool = False) -> str:
    """Python regex text for `\\p{written}` (or `\\P{..}` when `negated`), inside or outside `[...]`.

    `assigned` leaves out code points this Python's Unicode has not assigned: a newer table (a
    server's) may give them the very property `\\P{..}` excludes.
    """
    intervals = property_intervals(written)
    if negated:
        intervals = complement(union(intervals, _by_category()["Cn"]) if assigned else intervals)
    body = class_body(intervals)
    return body if in_class else f"[{body}]"
