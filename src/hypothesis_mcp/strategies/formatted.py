"""Strings under both a `format` and a `pattern` (`{"format": "date", "pattern": "^2024-"}`).

Neither side alone finds many: dates rarely start with 2024, and strings starting with `2024-`
are rarely dates. At construction, three sources are tried with a fixed seed: the format's
example values as they are, the same with the pattern's literal prefix and suffix written over
their ends, and strings sampled from the pattern (these two only for formats with a strict check
here, since `jsonschema` may not enforce the format). The sources that find values become the
strategy (each filtered by both keywords), with the values found as a fallback; when none finds
one, the pair is a contradiction, reported naming both keywords instead of failing a health check
after seconds of filtering.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

from hypothesis import strategies as st

from hypothesis_mcp.strategies.formats import EXAMPLES, FORMATS, STRICT
from hypothesis_mcp.strategies.normalise import Unsatisfiable
from hypothesis_mcp.strategies.regex import generation_pattern

SAMPLES = 300  # strings sampled from the pattern at construction
REPEAT_CAP = 6  # most repeats beyond a quantifier's minimum in a sample
_PRINTABLE = [chr(c) for c in range(0x20, 0x7F)]
_CATEGORIES = {
    sre.CATEGORY_DIGIT: "0123456789",
    sre.CATEGORY_WORD: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
    sre.CATEGORY_SPACE: " ",
}


class _Unsampled(Exception):
    """A construct the sampler does not follow; the pattern side is then left out."""


def _choices(items: list[tuple[Any, Any]]) -> list[str]:
    chars: list[str] = []
    negated = False
    for op, arg in items:
        if op is sre.NEGATE:
            negated = True
        elif op is sre.LITERAL:
            chars.append(chr(arg))
        elif op is sre.RANGE:
            chars.extend(chr(c) for c in range(arg[0], min(arg[1], arg[0] + 200) + 1))
        elif op is sre.CATEGORY and arg in _CATEGORIES:
            chars.extend(_CATEGORIES[arg])
        else:
            raise _Unsampled(str(op))
    return [c for c in _PRINTABLE if c not in chars] if negated else chars


def _sample(nodes: Any, rng: random.Random) -> str:
    out: list[str] = []
    for op, arg in nodes:
        if op is sre.LITERAL:
            out.append(chr(arg))
        elif op is sre.NOT_LITERAL:
            out.append(rng.choice([c for c in _PRINTABLE if c != chr(arg)]))
        elif op is sre.ANY:
            out.append(rng.choice(_PRINTABLE))
        elif op is sre.IN:
            chars = _choices(list(arg))
            if not chars:
                raise _Unsampled("empty class")
            out.append(rng.choice(chars))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            least, most, body = arg
            top = least + REPEAT_CAP if most == sre.MAXREPEAT else min(most, least + REPEAT_CAP)
            out.extend(_sample(body, rng) for _ in range(rng.randint(least, top)))
        elif op is sre.SUBPATTERN:
            out.append(_sample(arg[3], rng))
        elif op is sre.BRANCH:
            out.append(_sample(rng.choice(arg[1]), rng))
        elif op is not sre.AT:
            raise _Unsampled(str(op))
    return "".join(out)


def pattern_samples(pattern: str, count: int = SAMPLES) -> list[str]:
    """Strings the pattern matches, sampled with a fixed seed; empty when it uses lookarounds etc."""
    gen = generation_pattern(pattern)
    try:
        parsed = sre_parse.parse(gen)
        rng = random.Random(0)
        found = [_sample(parsed, rng) for _ in range(count)]
    except (_Unsampled, re.error, RecursionError):
        return []
    search = re.compile(gen).search
    return [s for s in found if search(s)]


def literal_ends(pattern: str) -> tuple[str, str]:
    """The literal text an anchored pattern starts with and ends with (`^2024-` gives "2024-", "")."""
    try:
        nodes = list(sre_parse.parse(generation_pattern(pattern)))
    except (re.error, RecursionError):
        return "", ""

    def run(seq: list[Any]) -> str:
        text = ""
        for op, arg in seq:
            if op is not sre.LITERAL:
                break
            text += chr(arg)
        return text

    starts = bool(nodes) and nodes[0][0] is sre.AT and nodes[0][1] in (sre.AT_BEGINNING, sre.AT_BEGINNING_STRING)
    ends = bool(nodes) and nodes[-1][0] is sre.AT and nodes[-1][1] in (sre.AT_END, sre.AT_END_STRING)
    inner = nodes[1 if starts else 0 : -1 if ends else None]
    return (run(inner) if starts else ""), (run(inner[::-1])[::-1] if ends else "")


def _spliced(value: str, prefix: str, suffix: str) -> str:
    if prefix:
        value = prefix + value[len(prefix) :]
    if suffix:
        value = value[: max(len(prefix), len(value) - len(suffix))] + suffix
    return value


def format_and_pattern(
    fmt: str, pattern: str, accept: Callable[[str], bool], matching: st.SearchStrategy[str]
) -> st.SearchStrategy[str]:
    """Strings of format `fmt` matching `pattern`; `accept` checks every keyword of the node.

    `matching` draws strings the pattern matches.

    Raises Unsatisfiable (keyword `pattern`, naming the format too) when no source finds a value.
    """
    prefix, suffix = literal_ends(pattern)
    examples = EXAMPLES.get(fmt, ())
    strict = STRICT.get(fmt)
    sources: list[st.SearchStrategy[str]] = []
    found: list[str] = [e for e in examples if accept(e)]
    if examples and len(found) * 2 >= len(examples):
        sources.append(FORMATS[fmt].filter(accept))
    if strict is not None:

        def valid(text: str, strict: Callable[[str], bool] = strict) -> bool:
            return strict(text) and accept(text)

        if prefix or suffix:
            spliced = [v for v in (_spliced(e, prefix, suffix) for e in examples) if valid(v)]
            if spliced:
                sources.append(FORMATS[fmt].map(lambda v: _spliced(v, prefix, suffix)).filter(valid))
                found += spliced
        sampled = [s for s in pattern_samples(pattern) if valid(s)]
        if len(sampled) * 20 >= SAMPLES:  # one in twenty or better: worth drawing from the pattern
            sources.append(matching.filter(valid))
        found += sampled[:20]
    if not found:
        raise Unsatisfiable(
            "pattern",
            f"pattern {pattern!r} and format {fmt!r}: no string found that satisfies both "
            "(format examples, the pattern's literal ends written over them, and samples of the pattern)",
        )
    fallback = st.sampled_from(list(dict.fromkeys(found)))
    return st.one_of(fallback, *sources)
