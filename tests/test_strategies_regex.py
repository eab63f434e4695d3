"""ECMA-262 patterns read by Python: translations for the oracle and for generation."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings

from hypothesis_mcp.strategies.fastregex import fast_strings, regex_text
from hypothesis_mcp.strategies.regex import generation_pattern, is_anchored, pattern_error, python_pattern


@pytest.mark.parametrize("pattern", ["^[a-z]+$", "\\d{3}", "^\\w+@\\w+\\.com$", "(a|b)*c"])
def test_python_compilable_patterns_are_kept_for_the_oracle(pattern: str) -> None:
    assert python_pattern(pattern) == pattern


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        ("^(?<year>\\d{4})$", "2024", True),
        ("^\\p{L}+$", "abc", True),
        ("^\\p{L}+$", "ab1", False),
        ("^[^]$", "\n", True),
        ("^a[]$", "a", False),
        ("^\\cJ$", "\n", True),
        ("^\\u{1F600}$", "\U0001f600", True),
        ("^\\e$", "e", True),
    ],
)
def test_ecma_only_patterns_get_an_oracle_translation(pattern: str, text: str, expected: bool) -> None:
    assert pattern_error(pattern) is None
    assert bool(re.search(python_pattern(pattern), text)) is expected


@pytest.mark.parametrize(
    ("pattern", "accepted", "refused"),
    [
        ("^\\d+$", "0123456789", "٣"),
        ("^\\w+$", "aZ_9", "é"),
        ("^\\s$", " \t", "\u2003"),
        ("^.$", "a", "\u2028"),
    ],
)
def test_generation_patterns_stay_inside_both_flavours(pattern: str, accepted: str, refused: str) -> None:
    gen = re.compile(generation_pattern(pattern))
    assert all(gen.fullmatch(c) for c in accepted)
    assert not gen.fullmatch(refused)


def test_patterns_python_cannot_compile_are_reported() -> None:
    assert pattern_error("([a-z") is not None
    assert pattern_error("\\p{Greek}") is not None


def test_anchoring() -> None:
    assert is_anchored("^abc$") and not is_anchored("abc$") and not is_anchored("^abc\\$")


PLAIN = [
    "^[A-Z]{3}-\\d{4}$",
    "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$",
    "^[a-z0-9]+(?:-[a-z0-9]+)*$",
    "(a|bc){2,3}?x",
    "x.y",
    "[^abc]+",
    "^$",
    "",
    "\\Aab\\Z",
    "^(?<year>\\d{4})-[\\w-]+$",
    "^a{2,4}[^\\ud800-\\udfff]{2}$",
]


@pytest.mark.parametrize("pattern", PLAIN)
@pytest.mark.parametrize("fullmatch", [True, False])
def test_fast_regex_strings_match_the_pattern(pattern: str, fullmatch: bool) -> None:
    gen = generation_pattern(pattern)
    compiled = re.compile(gen)
    fast = fast_strings(gen, fullmatch=fullmatch)
    if fast is None:
        assert "?P<" in gen  # named groups are left to st.from_regex
        return
    check = compiled.fullmatch if fullmatch else compiled.search

    @settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.filter_too_much])
    @given(fast)
    def matches(text: str) -> None:
        assert check(text), text
        assert not any(0xD800 <= ord(c) <= 0xDFFF for c in text)

    matches()


@pytest.mark.parametrize("pattern", ["a\\bb", "(?=a)a", "a^b"])
def test_patterns_beyond_plain_regular_constructs_have_no_fast_path(pattern: str) -> None:
    assert fast_strings(pattern, fullmatch=True) is None


@pytest.mark.parametrize("pattern", ["^a|b$", "(?i)abc", "(a)\\1", "[^\\d]"])
def test_patterns_without_a_fast_path_fall_back_to_from_regex(pattern: str) -> None:
    assert fast_strings(pattern, fullmatch=True) is None

    @settings(max_examples=30, deadline=None, database=None)
    @given(regex_text(pattern))
    def matches(text: str) -> None:
        assert re.fullmatch(pattern, text), text

    matches()
