"""Numbers and strings for one node: bounds, `multipleOf`, lengths, `pattern` and `format`.

Ranges are computed exactly (with fractions) so almost nothing is filtered; the few checks left
(`multipleOf` as `jsonschema` computes it in floats, a second pattern) are local and cheap.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

from hypothesis import strategies as st
from jsonschema import FormatChecker

from hypothesis_mcp.strategies.fastregex import regex_text
from hypothesis_mcp.strategies.formats import FORMATS, LENGTHS
from hypothesis_mcp.strategies.formatted import format_and_pattern
from hypothesis_mcp.strategies.normalise import Node, Unsatisfiable
from hypothesis_mcp.strategies.regex import compiled, generation_pattern, is_anchored, match_lengths

ALPHABET = st.characters(codec="utf-8")
LONG_TEXT = 1000  # longer minimum lengths are reached by padding


def is_multiple(value: float, divisor: float) -> bool:
    """`multipleOf` exactly as jsonschema decides it (floats divide, ints take a remainder)."""
    try:
        if isinstance(divisor, float):
            quotient = value / divisor
            try:
                return int(quotient) == quotient
            except OverflowError:
                return (Fraction(value) / Fraction(divisor)).denominator == 1
        return value % divisor == 0
    except (OverflowError, ZeroDivisionError):
        return False


def _fraction(value: float) -> Fraction:
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def _lower(node: Node) -> tuple[Fraction | None, bool]:
    lo, lo_x = node.minimum, node.exclusive_minimum
    if lo_x is not None and (lo is None or lo_x >= lo):
        return _fraction(lo_x), True
    return (None, False) if lo is None else (_fraction(lo), False)


def _upper(node: Node) -> tuple[Fraction | None, bool]:
    hi, hi_x = node.maximum, node.exclusive_maximum
    if hi_x is not None and (hi is None or hi_x <= hi):
        return _fraction(hi_x), True
    return (None, False) if hi is None else (_fraction(hi), False)


def _in_bounds(node: Node, value: float) -> bool:
    return (
        (node.minimum is None or value >= node.minimum)
        and (node.maximum is None or value <= node.maximum)
        and (node.exclusive_minimum is None or value > node.exclusive_minimum)
        and (node.exclusive_maximum is None or value < node.exclusive_maximum)
    )


def _multiples(node: Node, step: Fraction, integral: bool) -> st.SearchStrategy[Any]:
    """Multiples k*step inside the node's bounds, k shrinking toward 0."""
    (lo, lo_x), (hi, hi_x) = _lower(node), _upper(node)
    k_lo = None if lo is None else (math.floor(lo / step) + 1 if lo_x else math.ceil(lo / step))
    k_hi = None if hi is None else (math.ceil(hi / step) - 1 if hi_x else math.floor(hi / step))
    if k_lo is not None and k_hi is not None and k_lo > k_hi:
        raise Unsatisfiable(
            "multipleOf" if node.multiple_of else "minimum",
            f"no {'integer' if integral else 'number'} lies within the bounds",
        )

    def value(k: int) -> Any:
        exact = step * k
        return int(exact) if exact.denominator == 1 else float(exact)

    strategy = st.integers(k_lo, k_hi).map(value)
    if any(isinstance(m, float) for m in node.multiple_of):
        divisors = node.multiple_of
        return strategy.filter(lambda v: _in_bounds(node, v) and all(is_multiple(v, m) for m in divisors))
    return strategy


def integers(node: Node) -> st.SearchStrategy[Any]:
    step = Fraction(1)
    for m in node.multiple_of:
        step = Fraction(math.lcm(step.numerator, _fraction(m).numerator))
    if step == 1 and not node.multiple_of:
        (lo, lo_x), (hi, hi_x) = _lower(node), _upper(node)
        least = None if lo is None else math.floor(lo) + 1 if lo_x else math.ceil(lo)
        most = None if hi is None else math.ceil(hi) - 1 if hi_x else math.floor(hi)
        if least is not None and most is not None and least > most:
            raise Unsatisfiable("minimum", "no integer lies within the bounds")
        return st.integers(least, most)
    return _multiples(node, step, integral=True)


def numbers(node: Node) -> st.SearchStrategy[Any]:
    if node.multiple_of:
        step = _fraction(node.multiple_of[0])
        for m in node.multiple_of[1:]:
            f = _fraction(m)
            step = Fraction(math.lcm(step.numerator, f.numerator), math.gcd(step.denominator, f.denominator))
        return _multiples(node, step, integral=False)
    (lo, lo_x), (hi, hi_x) = _lower(node), _upper(node)
    if lo is not None and hi is not None and (lo > hi or (lo == hi and (lo_x or hi_x))):
        raise Unsatisfiable("maximum", "the numeric bounds leave no room")
    floats = st.floats(
        min_value=None if lo is None else float(lo),
        max_value=None if hi is None else float(hi),
        exclude_min=lo_x and lo is not None,
        exclude_max=hi_x and hi is not None,
        allow_nan=False,
        allow_infinity=False,
    )
    if lo is not None and hi is not None and float(lo) == float(hi) and lo != hi:
        floats = floats.filter(lambda v: _in_bounds(node, v))
    try:
        return st.one_of(integers(node), floats)
    except Unsatisfiable:
        return floats


def regex_strings(pattern: str) -> st.SearchStrategy[str]:
    """Strings `pattern` finds a match in: full matches first, then matches with text around them."""
    gen = generation_pattern(pattern)
    full = regex_text(gen, fullmatch=True)
    if is_anchored(pattern):
        return full
    return st.one_of(full, regex_text(gen, fullmatch=False))


def _text(lo: int, hi: int | None) -> st.SearchStrategy[str]:
    """Text of lo..hi code points; beyond what Hypothesis draws directly, padded to length."""
    if lo <= LONG_TEXT:
        return st.text(ALPHABET, min_size=lo, max_size=hi)
    short = st.text(ALPHABET, max_size=min(LONG_TEXT, hi - lo if hi is not None else LONG_TEXT))
    return short.map(lambda s: s + "a" * lo)


def _check_lengths(node: Node) -> None:
    """A pattern or format whose strings are all too long or too short for the length bounds."""
    lo, hi = node.min_length, node.max_length
    spans = [(f"pattern {p!r} accepts strings of", *match_lengths(p)) for p in node.patterns]
    spans += [(f"format {f!r} values have", *LENGTHS[f]) for f in node.formats if f in LENGTHS]
    for what, least, most in spans:
        if hi is not None and least > hi:
            raise Unsatisfiable("maxLength", f"{what} at least {least} characters but maxLength is {hi}")
        if most is not None and most < lo:
            raise Unsatisfiable("minLength", f"{what} at most {most} characters but minLength is {lo}")


def strings(node: Node, checker: FormatChecker) -> st.SearchStrategy[str]:
    lo, hi = node.min_length, node.max_length
    if hi is not None and lo > hi:
        raise Unsatisfiable("maxLength", f"maxLength {hi} is below minLength {lo}")
    _check_lengths(node)
    known = [f for f in node.formats if f in FORMATS]
    enforced = [f for f in node.formats if f in checker.checkers]
    if not known and not node.patterns and not enforced:
        return _text(lo, hi)
    if known and node.patterns:
        every: list[Callable[[str], object]] = [compiled(p).search for p in node.patterns]
        every += [partial(checker.conforms, format=f) for f in enforced]
        if lo or hi is not None:
            every.append(lambda s: lo <= len(s) <= (len(s) if hi is None else hi))
        pattern = node.patterns[0]
        return format_and_pattern(
            known[0], pattern, lambda s: all(check(s) for check in every), regex_strings(pattern)
        )
    if known:
        base = FORMATS[known[0]]
    elif node.patterns:
        base = regex_strings(node.patterns[0])
    else:
        base = _text(lo, hi)
    # The first pattern (or format) drives generation exactly; the rest are checked.
    checks: list[Callable[[str], object]] = [compiled(p).search for p in node.patterns[0 if known else 1 :]]
    checks += [partial(checker.conforms, format=f) for f in enforced if f not in known[:1]]
    if lo or hi is not None:
        checks.append(lambda s: lo <= len(s) <= (len(s) if hi is None else hi))
    if not checks:
        return base
    return base.filter(lambda s: all(check(s) for check in checks))
