"""Strings for plain regular expressions with one draw per run of characters.

`st.from_regex` draws a repeated class one character at a time, each with its own span; for the
patterns tool schemas use (`[A-Z]{3}-\\d{4}`, `[a-z0-9]+(?:-[a-z0-9]+)*`) that per-character
bookkeeping is most of the generation time. Here a repeated character class becomes one
`st.text` draw. Only regular constructs are handled (literals, classes, groups, alternation,
repeats, edge anchors); anything else (flags, backreferences, lookarounds, inner anchors) returns
None and the caller keeps `st.from_regex`. Every string drawn matches the pattern as a whole, so
the caller's filter never rejects.
"""

from __future__ import annotations

import re
from functools import lru_cache
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

from hypothesis import strategies as st

from hypothesis_mcp.strategies.unicode_props import complement

Intervals = list[tuple[int, int]]
Strategy = st.SearchStrategy[str]

SMALL_SET = 5000  # a larger character set is spelled out by its complement when that is smaller
_SURROGATES = (0xD800, 0xDFFF)
_LINE_TERMINATORS = "\n\r\u2028\u2029"  # `.` never draws these, whichever engine reads the pattern

_STARTS = ((sre.AT, sre.AT_BEGINNING), (sre.AT, sre.AT_BEGINNING_STRING))
_ENDS = ((sre.AT, sre.AT_END), (sre.AT, sre.AT_END_STRING))


class _Unsupported(Exception):
    """The pattern needs `st.from_regex`."""


def _clip(intervals: Intervals) -> Intervals:
    """Intervals without surrogates, which the UTF-8 alphabet of our strings excludes."""
    out: Intervals = []
    for lo, hi in intervals:
        if hi < _SURROGATES[0] or lo > _SURROGATES[1]:
            out.append((lo, hi))
            continue
        if lo < _SURROGATES[0]:
            out.append((lo, _SURROGATES[0] - 1))
        if hi > _SURROGATES[1]:
            out.append((_SURROGATES[1] + 1, hi))
    return out


def _spelled(intervals: Intervals) -> str:
    return "".join(chr(c) for lo, hi in intervals for c in range(lo, hi + 1))


def _size(intervals: Intervals) -> int:
    return sum(hi - lo + 1 for lo, hi in intervals)


def _one_of_set(allowed: Intervals) -> Strategy:
    """One character of a set, given to `st.characters` by whichever of it or its complement is smaller.

    Large sets come from Unicode property escapes (`\\p{L}` has 130 000 code points).
    """
    inside = _clip(allowed)
    if not inside:
        raise _Unsupported("empty class")
    size = _size(inside)
    if size > SMALL_SET:
        outside = _clip(list(complement(tuple(inside))))
        if _size(outside) < size:
            return st.characters(codec="utf-8", exclude_characters=_spelled(outside))
    return st.characters(codec="utf-8", categories=(), include_characters=_spelled(inside))


def _charset(op: Any, arg: Any) -> Strategy | None:
    """One-character strategy for a class-like node, or None when the node is not one."""
    if op is sre.LITERAL:
        if not _clip([(arg, arg)]):
            raise _Unsupported("surrogate literal")
        return st.characters(codec="utf-8", categories=(), include_characters=chr(arg))
    if op is sre.NOT_LITERAL:
        return st.characters(codec="utf-8", exclude_characters=chr(arg) + _LINE_TERMINATORS)
    if op is sre.ANY:
        return st.characters(codec="utf-8", exclude_characters=_LINE_TERMINATORS)
    if op is not sre.IN:
        return None
    negated = False
    intervals: Intervals = []
    for item_op, item_arg in arg:
        if item_op is sre.NEGATE:
            negated = True
        elif item_op is sre.LITERAL:
            intervals.append((item_arg, item_arg))
        elif item_op is sre.RANGE:
            intervals.append(item_arg)
        else:
            raise _Unsupported(f"class item {item_op}")
    if negated:
        terminators = [(ord(c), ord(c)) for c in _LINE_TERMINATORS]
        return _one_of_set(list(complement(tuple(intervals + terminators))))
    return _one_of_set(intervals)


def _join(parts: list[Strategy]) -> Strategy:
    if not parts:
        return st.just("")
    if len(parts) == 1:
        return parts[0]
    return st.tuples(*parts).map("".join)


def _sequence(nodes: list[tuple[Any, Any]]) -> Strategy:
    parts: list[Strategy] = []
    literal = ""
    for op, arg in nodes:
        if op is sre.LITERAL and _clip([(arg, arg)]):
            literal += chr(arg)
            continue
        if literal:
            parts.append(st.just(literal))
            literal = ""
        parts.append(_node(op, arg))
    if literal:
        parts.append(st.just(literal))
    return _join(parts)


def _node(op: Any, arg: Any) -> Strategy:
    single = _charset(op, arg)
    if single is not None:
        return single
    if op is sre.MAX_REPEAT or op is sre.MIN_REPEAT:
        least, most, body = arg
        top = None if most == sre.MAXREPEAT else most
        if len(body) == 1:
            chars = _charset(*body[0])
            if chars is not None:
                return st.text(chars, min_size=least, max_size=top)
        return st.lists(_sequence(list(body)), min_size=least, max_size=top).map("".join)
    if op is sre.SUBPATTERN:
        _group, add_flags, del_flags, body = arg
        if add_flags or del_flags:
            raise _Unsupported("inline flags")
        return _sequence(list(body))
    if op is sre.BRANCH:
        return st.one_of([_sequence(list(branch)) for branch in arg[1]])
    raise _Unsupported(f"node {op}")


@lru_cache(maxsize=1024)
def fast_strings(pattern: str, *, fullmatch: bool) -> Strategy | None:
    """Strings `pattern` matches (entirely when `fullmatch`, else with text around the match).

    None when the pattern uses anything beyond plain regular constructs.
    """
    try:
        parsed = sre_parse.parse(pattern)
        if parsed.state.flags & ~re.UNICODE or parsed.state.groupdict:
            return None
        nodes = list(parsed)
        starts = bool(nodes) and nodes[0] in _STARTS
        nodes = nodes[1:] if starts else nodes
        ends = bool(nodes) and nodes[-1] in _ENDS
        nodes = nodes[:-1] if ends else nodes
        middle = _sequence(nodes)
    except (_Unsupported, re.error, RecursionError):
        return None
    if fullmatch:
        return middle
    around = st.text(st.characters(codec="utf-8"), max_size=8)
    return st.tuples(st.just("") if starts else around, middle, st.just("") if ends else around).map("".join)


def regex_text(pattern: str, *, fullmatch: bool = True) -> Strategy:
    """`st.from_regex` over the UTF-8 alphabet, through the fast path when the pattern allows it.

    The fast path is checked against the pattern itself, so a construct read differently here
    than by `re` shows up as a filtered draw, never as a wrong value.
    """
    fast = fast_strings(pattern, fullmatch=fullmatch)
    if fast is None:
        return st.from_regex(pattern, fullmatch=fullmatch, alphabet=st.characters(codec="utf-8"))
    compiled = re.compile(pattern)
    matches = compiled.fullmatch if fullmatch else compiled.search
    return fast.filter(lambda s: matches(s) is not None)
