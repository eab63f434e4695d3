"""Resource templates as RFC 6570 URI templates: parse, expand (levels 1 and 2) and match.

A resource template names the URIs a server will read. Levels 1 and 2 (`{var}`, `{+var}`,
`{#var}`) cover the templates servers publish; a template with level 3 or 4 expressions is
parsed but not generated for, and says so.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from urllib.parse import quote

from hypothesis import strategies as st

UNRESERVED = string.ascii_letters + string.digits + "-._~"
RESERVED = ":/?#[]@!$&'()*+,;="
_EXPRESSION = re.compile(r"\{([^{}]*)\}")
_VARNAME = re.compile(r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*")
_LEVEL2 = ("", "+", "#")
_LEVEL3 = (".", "/", ";", "?", "&")


class TemplateError(ValueError):
    """Not an RFC 6570 URI template."""


@dataclass(frozen=True)
class Expression:
    operator: str
    names: tuple[str, ...]
    modified: bool
    """Whether a level 4 modifier (`:n` prefix or `*` explode) is used."""

    @property
    def level(self) -> int:
        if self.modified:
            return 4
        if len(self.names) > 1 or self.operator in _LEVEL3:
            return 3
        return 2 if self.operator else 1


@dataclass(frozen=True)
class UriTemplate:
    text: str
    parts: tuple[str | Expression, ...]

    @property
    def level(self) -> int:
        return max((p.level for p in self.parts if isinstance(p, Expression)), default=1)

    @property
    def variables(self) -> tuple[str, ...]:
        names: list[str] = []
        for part in self.parts:
            if isinstance(part, Expression):
                names.extend(n for n in part.names if n not in names)
        return tuple(names)

    def expand(self, values: dict[str, str]) -> str:
        """Level 1-2 expansion; a variable without a value expands to nothing."""
        out: list[str] = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            value = values.get(part.names[0])
            if value is None:
                continue
            if part.operator == "":
                out.append(quote(value, safe=""))
            else:
                out.append(("#" if part.operator == "#" else "") + _reserved(value))
        return "".join(out)

    def matches(self, uri: str) -> bool:
        """Whether some values would expand to `uri` (each variable taken as any run of characters)."""
        pattern = "".join(re.escape(p) if isinstance(p, str) else ("#.*" if p.operator == "#" else ".*")
                          for p in self.parts)
        return re.fullmatch(pattern, uri, flags=re.DOTALL) is not None


def _reserved(value: str) -> str:
    """`+` and `#` expansion: reserved characters and percent-triplets stay as they are."""
    return re.sub(r"%(?![0-9A-Fa-f]{2})", "%25", quote(value, safe=RESERVED + "%"))


def parse(text: str) -> UriTemplate:
    parts: list[str | Expression] = []
    position = 0
    for match in _EXPRESSION.finditer(text):
        literal = text[position:match.start()]
        if "{" in literal or "}" in literal:
            raise TemplateError(f"unbalanced brace in {text!r}")
        if literal:
            parts.append(literal)
        body = match.group(1)
        operator = body[:1] if body[:1] in (*_LEVEL2[1:], *_LEVEL3, "=", ",", "!", "@", "|") else ""
        if operator in ("=", ",", "!", "@", "|"):
            raise TemplateError(f"reserved operator {operator!r} in {{{body}}}")
        names, modified = [], False
        for spec in body[len(operator):].split(","):
            name, colon, length = spec.partition(":")
            if name.endswith("*"):
                name, modified = name[:-1], True
            if colon:
                if not length.isdigit() or not 0 < int(length) < 10 ** 4:
                    raise TemplateError(f"bad prefix length in {{{body}}}")
                modified = True
            if not _VARNAME.fullmatch(name):
                raise TemplateError(f"bad variable name {name!r} in {{{body}}}")
            names.append(name)
        parts.append(Expression(operator, tuple(names), modified))
        position = match.end()
    rest = text[position:]
    if "{" in rest or "}" in rest:
        raise TemplateError(f"unbalanced brace in {text!r}")
    if rest:
        parts.append(rest)
    return UriTemplate(text, tuple(parts))


def values(template: UriTemplate) -> st.SearchStrategy[dict[str, str]]:
    """Values for every variable: numbers as text, plain words, and text with characters that
    must be percent-encoded, so both a server's happy path and its decoding are reached."""
    word = st.text(alphabet=UNRESERVED, min_size=1, max_size=12)
    odd = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=8)
    value = st.one_of(st.integers(min_value=0, max_value=10 ** 4).map(str), word, odd)
    return st.fixed_dictionaries({name: value for name in template.variables})
