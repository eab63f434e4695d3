"""Choosing read tools for a write, filling their arguments, and reading what they return."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.catalog import OTHER, Tool, snake, words
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.model.facts import Fact, fact_guessed, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.rules.answers import shown
from hypothesis_mcp.stateful.config import Pair
from hypothesis_mcp.strategies import leading_marker
from hypothesis_mcp.vocabulary import LIMIT_NAMES, VERBS, is_query, singular

MAX_READERS = 6
SKIP_WORDS = re.compile(
    r"\b(skipp(ed|ing)|already exists?|already present|unchanged|duplicates?|no changes?|not (created|added|"
    r"updated|modified)|ignored|exists already)\b", re.IGNORECASE)
SAYS_READ_ONLY = re.compile(
    r"\bread[- ]only\b|\b(does not|doesn't|never) (change|modify|modifies|write|writes)\b|"
    r"\bwithout (changing|modifying)\b", re.IGNORECASE)
"""A description that says its tool changes nothing."""


@dataclass(frozen=True)
class Reader:
    tool: Tool
    confidence: str  # high | medium | low
    basis: str
    read_args: dict[str, Any] | None = None
    fact: Fact | None = None
    """That it shows the write's records, when stated by the user or shown by calibration."""

    def shows(self, write: str) -> Fact:
        """That this reader shows `write`'s records: stated, shown, or guessed from its basis."""
        if self.fact is not None:
            return self.fact
        return fact_guessed(f"{self.tool.name} shows the records {write} writes", self.basis)


def nouns(tool: Tool) -> set[str]:
    """The words of a tool's name that are no verb of the vocabulary, in the singular."""
    return {singular(w) for w in words(tool.name) if w not in VERBS}


def choose_readers(write: Tool, tools: list[Tool], pair: Pair | None, exclude: set[str]) -> list[Reader]:
    """A declared reader first (high), then readers sharing a noun (medium), then any other (low)."""
    readers: list[Reader] = []
    by_name = {t.name: t for t in tools}
    if pair is not None and pair.read in by_name:
        readers.append(Reader(by_name[pair.read], "high", f"declared pair {write.name} -> {pair.read}",
                              pair.read_args, fact_shown(f"{pair.read} shows the records {write.name} writes",
                                                    source="stated in the probe config")))
    candidates = [t for t in tools if (t.is_read or looks_up(t, write)) and t.name not in exclude
                  and t.name != write.name and not any(r.tool.name == t.name for r in readers)]
    prefix = server_prefix(tools)
    mine = nouns(write) - prefix
    sharing = [t for t in candidates if _shared(nouns(t), mine)]
    others = [t for t in candidates if t not in sharing]
    for tool in sharing:
        shared = ", ".join(_shared(nouns(tool), mine))
        readers.append(Reader(tool, "medium", f"read tool {tool.name} shares the noun '{shared}' with {write.name}"))
    for tool in others:
        readers.append(Reader(tool, "low", f"{tool.name} is another read tool of the server"))
    return readers[:MAX_READERS]


def looks_up(tool: Tool, write: Tool) -> bool:
    """A tool of no known role that requires a key field of the write's records and says it changes
    nothing (`task_details(task_id)`, "read-only"): it reads the record with that key."""
    if tool.role != OTHER or not SAYS_READ_ONLY.search(tool.description or ""):
        return False
    keys = {path.replace("[]", "").split(".")[-1] for path in profile(write).key_fields}
    return bool(keys & set(profile(tool).required))


def server_prefix(tools: list[Tool]) -> set[str]:
    """A first word every tool's name starts with (git_status, git_log…): the server's prefix, not
    a shared noun; a noun every tool shares in another place (create_note, list_notes) still is."""
    firsts = {(words(t.name) or [t.name])[0] for t in tools}
    return {singular(w) for w in firsts} if len(tools) > 2 and len(firsts) == 1 else set()


def _shared(theirs: set[str], mine: set[str]) -> list[str]:
    """Nouns two names share, as a person reads them: the same word, or one the stem of the other
    (`note` and `notebook`, `doc` and `docs`), in whatever place of the name it stands."""
    return sorted({a for a in theirs for b in mine
                   if a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a)))})


def _flat_fields(args: Any, prefix: str = "") -> dict[str, Any]:
    """Every leaf field of the written arguments by its own name (the first one wins)."""
    found: dict[str, Any] = {}
    if isinstance(args, dict):
        for name, value in args.items():
            if isinstance(value, dict | list):
                for k, v in _flat_fields(value).items():
                    found.setdefault(k, v)
            found.setdefault(name, value)
    elif isinstance(args, list):
        for item in args:
            for k, v in _flat_fields(item).items():
                found.setdefault(k, v)
    return found


def fill_reader_args(reader: Reader, written: dict[str, Any], key: Any, base: dict[str, Any]) -> dict[str, Any]:
    """Arguments for a read: declared ones, then same-named written fields, then the key for a
    query-like parameter and 100 for a limit-like one; other required ones from `base`."""
    if reader.read_args is not None:
        marker = first_marker(written)
        return {k: _substitute(v, key, marker) for k, v in reader.read_args.items()}
    fields = _flat_fields(written)
    args: dict[str, Any] = {}
    for name, schema in reader.tool.properties.items():
        schema = schema if isinstance(schema, dict) else {}
        flat = snake(name)
        single = singular(flat)
        if name in fields and not isinstance(fields[name], dict | list):
            args[name] = fields[name]
        elif single != flat and single in fields and schema.get("type") == "array":
            args[name] = [fields[single]]
        elif is_query(name) and key is not None:
            args[name] = key
        elif flat in LIMIT_NAMES:
            hi = schema.get("maximum")
            args[name] = min(100, int(hi)) if isinstance(hi, int | float) else 100
        elif name in base:
            args[name] = base[name]
    return args


def _substitute(value: Any, key: Any, marker: str | None) -> Any:
    """Declared read arguments with `{key}` and `{marker}` filled in; a value that is exactly
    `{key}` keeps the key's own type (an integer id stays an integer)."""
    if isinstance(value, str) and value == "{key}":
        return key
    if isinstance(value, str):
        value = value.replace("{key}", str(key))
        return value.replace("{marker}", marker) if marker is not None else value
    if isinstance(value, dict):
        return {k: _substitute(v, key, marker) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, key, marker) for v in value]
    return value


def first_marker(written: Any) -> str | None:
    """The first marked token (`hm1234abcd-title`) of a write's arguments, in argument order: what
    a declared read's `{marker}` stands for, so a search can find the record by it."""
    for name, text in field_texts(written):
        marker = leading_marker(text)
        if marker is not None and text.startswith(f"{marker}-{name}"):
            return f"{marker}-{name}"
    return None


def field_texts(value: Any, field: str | None = None) -> Iterator[tuple[str, str]]:
    """Every text in a call's arguments with the name of the field it sits under (list items
    under their list's field); texts outside any field are left out."""
    if isinstance(value, str) and field is not None:
        yield field, value
    elif isinstance(value, list):
        for item in value:
            yield from field_texts(item, field)
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from field_texts(item, name)


def tokens(args: Any, marker: str) -> set[str]:
    """The marked tokens (`hm1234abcd-title`) a write placed in its arguments: a text under
    field `f` that starts with `{marker}-f` carries the token `{marker}-f`."""
    return {f"{marker}-{field}" for field, text in field_texts(args) if text.startswith(f"{marker}-{field}")}


def says_skipped(outcome: Outcome) -> bool:
    """An answer that admits it stored nothing; a JSON `"skipped": []` does not count."""
    text = re.sub(r'"skipped"\s*:\s*\[\s*\]', "", shown(outcome))
    return bool(SKIP_WORDS.search(text))
