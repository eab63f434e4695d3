"""`pattern` as servers write it: ECMA-262 regular expressions, read with Python's `re`.

Two translations. The *oracle* one keeps ECMA meaning (`\\d` is ASCII digits) and is used only
when Python cannot compile the pattern as written. The *generation* one picks, for each class
escape, characters both engines accept (`\\d` becomes `[0-9]`, `\\D` stays Python's narrower
`\\D`, `$` becomes `\\Z`), so generated strings match whichever engine the server uses. Every
substitution narrows, so whatever matches the generation pattern matches the oracle's too: no
filter is needed behind it.
"""

from __future__ import annotations

import re
import warnings
from contextlib import suppress
from functools import lru_cache
from re import _constants as sre_constants  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]

from hypothesis_mcp.strategies.unicode_props import UnknownProperty, property_class, property_intervals

_ECMA_SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_ASCII_SPACE = " \\t\\n\\r\\f\\v"
_WORD = "A-Za-z0-9_"

# (escape letter) -> (outside a class, inside a class, inside a negated class)
_ORACLE = {
    "d": ("[0-9]", "0-9", "0-9"),
    "D": ("[^0-9]", "\\D", "\\D"),
    "w": (f"[{_WORD}]", _WORD, _WORD),
    "W": (f"[^{_WORD}]", "\\W", "\\W"),
    "s": (f"[{_ECMA_SPACE}]", _ECMA_SPACE, _ECMA_SPACE),
    "S": (f"[^{_ECMA_SPACE}]", "\\S", "\\S"),
}
_GENERATION = {
    "d": ("[0-9]", "0-9", "\\d"),
    "D": ("\\D", "\\D", "\\D"),
    "w": (f"[{_WORD}]", _WORD, "\\w"),
    "W": ("\\W", "\\W", "\\W"),
    "s": (f"[{_ASCII_SPACE}]", _ASCII_SPACE, "\\s\\ufeff"),
    "S": ("[^\\s\\ufeff]", "\\S", "\\S"),
}
_STARTS = (sre_constants.AT_BEGINNING, sre_constants.AT_BEGINNING_STRING)
_ENDS = (sre_constants.AT_END, sre_constants.AT_END_STRING)
_PY_ESCAPES = set("abfnrtvAbBZdDsSwWxuUN0123456789")
_LINE_TERMINATORS = "[^\\n\\r\\u2028\\u2029]"


def _escape(pattern: str, i: int, table: dict[str, tuple[str, str, str]], slot: int) -> tuple[str, int]:
    """Translate the escape at pattern[i] (a backslash); return the text and the next index."""
    if i + 1 >= len(pattern):
        return "\\", i + 1
    nxt = pattern[i + 1]
    rest = pattern[i + 2 :]
    if nxt in table:
        return table[nxt][slot], i + 2
    if nxt == "u" and rest.startswith("{") and "}" in rest:
        digits = rest[1 : rest.index("}")]
        return f"\\U{int(digits, 16):08x}", i + 3 + len(digits) + 1
    if nxt == "c" and rest[:1].isalpha():
        return f"\\x{ord(rest[0]) % 32:02x}", i + 3
    if nxt == "k" and rest.startswith("<") and ">" in rest:
        name = rest[1 : rest.index(">")]
        return f"(?P={name})", i + 3 + len(name) + 1
    if nxt in "pP" and rest.startswith("{") and "}" in rest:
        written = rest[1 : rest.index("}")]
        with suppress(UnknownProperty):
            text = property_class(written, negated=nxt == "P", in_class=slot > 0, assigned=table is _GENERATION)
            return text, i + 3 + len(written) + 1
    if nxt in "pP":
        return "\\" + nxt, i + 2  # a property Python cannot serve: left as an error, not a literal
    if nxt.isalpha() and nxt not in _PY_ESCAPES:
        return nxt, i + 2
    return "\\" + nxt, i + 2


def _translate(pattern: str, table: dict[str, tuple[str, str, str]], dot: str) -> str:
    out: list[str] = []
    i = 0
    in_class = negated = False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            text, i = _escape(pattern, i, table, (2 if negated else 1) if in_class else 0)
            out.append(text)
            continue
        if in_class:
            if c == "]":
                in_class = negated = False
                out.append(c)
            else:
                out.append("\\" + c if c in "[&~|" else c)
            i += 1
            continue
        if pattern.startswith("[^]", i):
            out.append("[\\s\\S]")
            i += 3
        elif pattern.startswith("[]", i):
            out.append("(?!)")
            i += 2
        elif c == "[":
            in_class = True
            negated = pattern.startswith("[^", i)
            out.append("[^" if negated else "[")
            i += 2 if negated else 1
            if pattern.startswith("]", i):
                out.append("\\]")
                i += 1
        elif pattern.startswith("(?<", i) and pattern[i + 3 : i + 4] not in ("=", "!"):
            out.append("(?P<")
            i += 3
        elif c == ".":
            out.append(dot)
            i += 1
        elif c == "$":
            out.append("\\Z")  # ECMA's $ is the end of input; Python's also matches before a final newline
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _compiles(pattern: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            re.compile(pattern)
    except (re.error, OverflowError, RecursionError):
        return False
    return True


_WRITTEN: dict[str, str] = {}  # oracle translation -> the pattern as the schema wrote it


@lru_cache(maxsize=4096)
def python_pattern(pattern: str) -> str:
    """The pattern the oracle runs: as written when Python compiles it, else its ECMA translation."""
    if _compiles(pattern):
        return pattern
    translated = _translate(pattern, _ORACLE, _LINE_TERMINATORS)
    _WRITTEN.setdefault(translated, pattern)
    return translated


@lru_cache(maxsize=4096)
def generation_pattern(pattern: str) -> str:
    """A Python regex whose matches both ECMA-262 and Python's `re` accept for this pattern.

    Accepts the pattern as written or as `python_pattern` rewrote it.
    """
    pattern = _WRITTEN.get(pattern, pattern)
    translated = _translate(pattern, _GENERATION, _LINE_TERMINATORS)
    return translated if _compiles(translated) else pattern


@lru_cache(maxsize=4096)
def compiled(pattern: str) -> re.Pattern[str]:
    """The oracle's compiled form; raises re.error for a pattern neither reading can compile."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return re.compile(python_pattern(pattern))


def pattern_error(pattern: str) -> str | None:
    """Why Python cannot use this pattern, or None when it can."""
    try:
        compiled(pattern)
    except (re.error, OverflowError, RecursionError) as exc:
        return _unknown_property(pattern) or str(exc)
    return None


def _unknown_property(pattern: str) -> str | None:
    """Why a `\\p{..}` in the pattern cannot be served, if one cannot."""
    for written in re.findall(r"\\[pP]\{([^}]*)\}", pattern):
        try:
            property_intervals(written)
        except UnknownProperty as exc:
            return str(exc)
    return None


def match_lengths(pattern: str) -> tuple[int, int | None]:
    """The fewest and most characters of a string the pattern accepts (None: no most).

    A string holds a match, so it is at least as long; only a pattern anchored at both ends as a
    whole (not `^a|b$`) bounds it from above.
    """
    try:
        parsed = sre_parse.parse(python_pattern(pattern))
    except (re.error, OverflowError, RecursionError):
        return 0, None
    lo, hi = parsed.getwidth()
    nodes = list(parsed)
    whole = len(nodes) >= 2 and nodes[0][0] is sre_constants.AT and nodes[-1][0] is sre_constants.AT
    whole = whole and nodes[0][1] in _STARTS and nodes[-1][1] in _ENDS
    if not whole or hi >= sre_constants.MAXREPEAT - 1:
        return lo, None
    return lo, hi + (1 if nodes[-1][1] is sre_constants.AT_END else 0)  # `re`'s $ also takes a final newline


def is_anchored(pattern: str) -> bool:
    """Starts with ^ and ends with an unescaped $: a full match is the only kind of match."""
    return pattern.startswith("^") and pattern.endswith("$") and not pattern.endswith("\\$")
