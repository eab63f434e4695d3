"""ECMA-262 patterns read by Python: translations for the oracle and for generation."""

from __future__ import annotations

import re

import pytest

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
