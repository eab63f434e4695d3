"""Values the server owns: the ids, names and keys it prints, and the value sets it names.

A tool that takes an id the server made (a project id a listing prints, a session a create
returns) or a value only its words name ("queue must be one of triage, billing, ops") refuses
every value a schema can generate, and is then never exercised. The server shows those values
itself: in structured answers, JSON text, markdown tables and `key: value` lines, and in the
lists its descriptions and refusals spell out. Everything here is read from the shape of the
text (fields, cells, quotes, lists after "one of" or a colon), never from words about a domain.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Outcome, text_lines

MAX_VALUES = 24
"""At most this many candidates per parameter: the search draws among them uniformly."""
MAX_TEXT = 40
"""A longer printed value is content (a title, a body), not an identity."""
_TOKEN = re.compile(r"[A-Za-z0-9][\w.:/-]*")
_SEPARATOR_TEXT = r"\s*(?:,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+|\s*\|\s*|\s*/\s*)\s*"
_QUOTED = re.compile(r"""(?:'([^'\n]{1,40})'|"([^"\n]{1,40})"|`([^`\n]{1,40})`)""")
_QUOTED_LIST = re.compile(rf"(?:{_QUOTED.pattern})(?:{_SEPARATOR_TEXT}(?:{_QUOTED.pattern}))+")
_PAIR = re.compile(r"^\s*[-*•]?\s*([A-Za-z][\w ]{0,30}?)\s*[:=]\s*(\S[^,;|]{0,39}?)\s*$")
_MADE = re.compile(r"\b(?=[\w.-]*\d)(?=[\w.-]*[A-Za-z])[A-Za-z0-9][\w.-]*[A-Za-z0-9]\b")
_LIST_START = re.compile(r"(?:\bone of\b|:)\s*[\[(]?\s*", re.IGNORECASE)
_SEPARATOR = re.compile(_SEPARATOR_TEXT)


@dataclass
class Printed:
    """What the server's answers showed: each field's values (a field of a record, a table's
    column, a `key: value` line), the made-up-looking tokens of prose (letters and digits
    mixed: `p-3f2a`, `T17`) and the names of an answer that is only names, one a line, in the
    order they were seen."""

    fields: dict[str, list[Any]] = field(default_factory=dict)
    tokens: list[str] = field(default_factory=list)
    where: dict[str, str] = field(default_factory=dict)
    """The tool that first printed each value, for reports."""

    def read(self, tool: str, outcome: Outcome) -> None:
        """Keep what one successful answer shows."""
        if not outcome.ok:
            return
        if outcome.has_structured and outcome.structured is not None:
            self._data(tool, outcome.structured)
        for block in outcome.content:
            text = block.get("text")
            if block.get("type") == "text" and isinstance(text, str):
                self._text(tool, text)

    def _data(self, tool: str, data: Any, name: str | None = None) -> None:
        if isinstance(data, Mapping):
            for key, value in data.items():
                self._data(tool, value, str(key))
        elif isinstance(data, list):
            for item in data[:200]:
                self._data(tool, item, name)
        elif name is not None and _identity_like(data):
            self._add(tool, name, data)

    def _text(self, tool: str, text: str) -> None:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, (dict, list)):
            self._data(tool, data)
            return
        lines = text_lines(text)
        bare = [line.strip() for line in lines if line.strip()]
        if bare and all(len(b) <= MAX_TEXT and _TOKEN.fullmatch(b) for b in bare):
            # an answer that is only names, one a line (a listing's plain output): each is a value
            for value in bare:
                if value not in self.tokens:
                    self.tokens.append(value)
                    self.where.setdefault(value, tool)
            return
        for header, rows in _tables(lines):
            for row in rows:
                for name, cell in zip(header, row, strict=False):
                    if _identity_like(cell):
                        self._add(tool, name, cell)
        for line in lines:
            if "|" in line:
                continue
            if (pair := _PAIR.match(line)) is not None and _identity_like(pair.group(2)):
                self._add(tool, pair.group(1), pair.group(2).strip())
            for token in _MADE.findall(line):
                if token not in self.tokens and len(token) <= MAX_TEXT:
                    self.tokens.append(token)
                    self.where.setdefault(token, tool)
            for quoted in _QUOTED.findall(line):
                value = next(q for q in quoted if q)
                if value not in self.tokens and _identity_like(value):
                    self.tokens.append(value)
                    self.where.setdefault(value, tool)

    def _add(self, tool: str, name: str, value: Any) -> None:
        key = flat(name)
        values = self.fields.setdefault(key, [])
        self.where.setdefault(str(value), tool)
        if value not in values:
            values.append(value)

    def candidates(self, param: str) -> list[Any]:
        """Values for a parameter, the likeliest first: a field of its very name, then fields
        named by a part of its name (`id` for `project_id`), then the prose tokens."""
        name = flat(param)
        found: list[Any] = list(self.fields.get(name, []))
        for part in parts(param):
            for key, values in self.fields.items():
                if key != name and (key == part or key.endswith("_" + part)):
                    found.extend(v for v in values if v not in found)
        found.extend(t for t in self.tokens if t not in found)
        found.extend(v for values in self.fields.values() for v in values if isinstance(v, str) and v not in found)
        return found[:MAX_VALUES]

    def source(self, value: Any) -> str:
        """The tool whose answer first printed a value."""
        return self.where.get(str(value), "the server")


def value_sets(text: str) -> list[tuple[str, list[str]]]:
    """The value lists a text spells out, each with its sentence: after "one of" or a colon (`must
    be one of a, b or c`, `valid values: a|b|c`), or two quoted values or more in one sentence."""
    found: list[tuple[str, list[str]]] = []
    for sentence in (s for leaf in _leaves(text) for s in re.split(r"(?<=[.!?])\s+|\n", leaf)):
        if (quoted := _QUOTED_LIST.search(sentence)) is not None:
            values = [next(q for q in m if q) for m in _QUOTED.findall(quoted.group(0))]
            found.append((sentence, list(dict.fromkeys(values))))
            continue
        for start in _LIST_START.finditer(sentence):
            items = _items(sentence[start.end():])
            if len(items) >= 2:
                found.append((sentence, items))
                break
    return found


def _leaves(text: str) -> list[str]:
    """The texts to read lists from: a JSON answer's strings, else the text itself."""
    try:
        data = json.loads(text)
    except ValueError:
        return [text]
    found: list[str] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _items(rest: str) -> list[str]:
    """The list a text starts with: tokens joined by commas, `or`, bars or slashes."""
    items: list[str] = []
    position = 0
    while (token := _TOKEN.match(rest, position)) is not None:
        items.append(token.group(0).rstrip(".:"))
        separator = _SEPARATOR.match(rest, token.end())
        if separator is None or separator.end() == token.end():
            break
        position = separator.end()
    return items


@dataclass(frozen=True)
class Choice:
    """The values a retry draws for one parameter, and where the server showed them."""

    values: list[Any]
    source: str


def named_values(tool: Tool, refusals: Iterable[str]) -> dict[str, Choice]:
    """Each parameter's value set as a text names it: a parameter's own description's lists,
    and the lists of a sentence of the tool's description or of a refusal that names the parameter
    (or, when it names none, of a tool with one free text parameter to fill)."""
    found: dict[str, Choice] = {}

    def add(name: str, values: list[str], source: str) -> None:
        if _open_text(tool.properties.get(name)):
            kept = found.setdefault(name, Choice([], source)).values
            kept.extend(v for v in values[:MAX_VALUES] if v not in kept)

    for name, schema in tool.properties.items():
        if isinstance(schema, Mapping) and isinstance(schema.get("description"), str):
            for _, values in value_sets(schema["description"]):
                add(name, values, f"the values its description of `{name}` names")
    open_params = [n for n in tool.required if _open_text(tool.properties.get(n))]
    texts = [(tool.description or "", "the values its description names"),
             *((text, "the values its refusal names") for text in refusals)]
    for text, source in texts:
        for sentence, values in value_sets(text):
            for name in mentioned(tool, sentence) or (open_params if len(open_params) == 1 else []):
                add(name, values, source)
    return found


def mentioned(tool: Tool, text: str) -> list[str]:
    """The parameters a text names: by their name, or by a part of it three letters or longer
    (`project not found` names `project_id`)."""
    lowered = text.lower()
    named = []
    for name in tool.properties:
        words = {flat(name).replace("_", " "), flat(name), *(p for p in parts(name) if len(p) >= 3)}
        if any(re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", lowered) for w in words):
            named.append(name)
    return named


def owned_choices(tool: Tool, printed: Printed, refusals: Iterable[str]) -> dict[str, Choice]:
    """What the retry draws for each required parameter a schema alone cannot fill: the values a
    text names for it, else the values the server printed, for the parameters a refusal names (all
    required open ones when no refusal names any)."""
    texts = list(refusals)
    choices = named_values(tool, texts)
    blamed = {n for text in texts for n in mentioned(tool, text) if n in tool.required}
    targets = [n for n in tool.required if _open(tool.properties.get(n)) and n not in choices
               and (not blamed or n in blamed)]
    for name in targets:
        if values := printed.candidates(name):
            choices[name] = Choice(values, f"values {printed.source(values[0])} printed")
    return choices


def flat(name: str) -> str:
    """A name in snake case: `projectId`, `project-id` and `project_id` alike."""
    return re.sub(r"[^a-z0-9]+", "_", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()).strip("_")


def parts(name: str) -> list[str]:
    return [p for p in flat(name).split("_") if p]


def _identity_like(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, str) and 0 < len(value) <= MAX_TEXT and "\n" not in value


def _open(schema: Any) -> bool:
    """A parameter whose schema leaves its value open: text or a number without enum or const."""
    if not isinstance(schema, Mapping) or "enum" in schema or "const" in schema:
        return False
    kind = schema.get("type")
    return kind in ("string", "integer", "number") or kind is None


def _open_text(schema: Any) -> bool:
    return _open(schema) and isinstance(schema, Mapping) and schema.get("type") in ("string", None)


def _tables(lines: list[str]) -> Iterator[tuple[list[str], list[list[str]]]]:
    """Markdown tables: a header row, a `---` row, then the rows, as cells."""
    for index in range(len(lines) - 1):
        if "|" in lines[index] and re.fullmatch(r"\s*\|?\s*:?-{2,}.*", lines[index + 1]):
            header = _cells(lines[index])
            rows = []
            for line in lines[index + 2:]:
                if "|" not in line:
                    break
                rows.append(_cells(line))
            yield header, rows


def _cells(line: str) -> list[str]:
    return [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
