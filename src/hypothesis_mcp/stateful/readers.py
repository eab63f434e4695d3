"""Choosing read tools for a write, filling their arguments, and reading what they return."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.catalog import OTHER, Tool, snake, words
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.model.facts import Fact, fact_guessed, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.rules.answers import shown
from hypothesis_mcp.stateful.config import Pair
from hypothesis_mcp.stateful.watch import TEXT, Seen
from hypothesis_mcp.strategies import leading_marker
from hypothesis_mcp.vocabulary import LIMIT_NAMES, VERBS, is_query, singular

MAX_READERS = 6
READ_ROLES = frozenset({"read", "list", "search"})
"""Roles the experiments show a tool reading in."""
SKIP_WORDS = re.compile(
    r"\b(skipp(ed|ing)|already exists?|already present|unchanged|duplicates?|no changes?|not (created|added|"
    r"updated|modified)|ignored|exists already)\b", re.IGNORECASE)
SAYS_READ_ONLY = re.compile(
    r"\bread[- ]only\b|\b(does not|doesn't|never) (change|modify|modifies|write|writes)\b|"
    r"\bwithout (changing|modifying)\b", re.IGNORECASE)
"""A description that says its tool changes nothing."""


def read_only_fact(tool: Tool) -> Fact:
    """That `tool` changes nothing: declared by the server (annotation, description), or a guess
    from its name."""
    if tool.read_only_hint:
        return fact_shown(f"{tool.name} declares itself read-only", source="its readOnlyHint annotation")
    if SAYS_READ_ONLY.search(tool.description or ""):
        return fact_shown(f"{tool.name} declares itself read-only", source="its description")
    return fact_guessed(f"{tool.name} changes nothing", "a read verb in its name")


@dataclass(frozen=True)
class Reader:
    tool: Tool
    confidence: str  # high | medium | low
    basis: str
    read_args: dict[str, Any] | None = None
    fact: Fact | None = None
    """That it shows the write's records, when stated by the user or shown by calibration."""
    selects: Mapping[str, str] | None = None
    """For a reader the experiments showed: the arguments they showed selecting records, each with
    the field it takes (none for a listing asked for nothing). A read fills no other argument from
    the record: a filter they never tried is a guess, and a record it misses proves nothing."""

    def shows(self, write: str) -> Fact:
        """That this reader shows `write`'s records: stated, shown, or guessed from its basis."""
        if self.fact is not None:
            return self.fact
        return fact_guessed(f"{self.tool.name} shows the records {write} writes", self.basis)


def nouns(tool: Tool) -> set[str]:
    """The words of a tool's name that are no verb of the vocabulary, in the singular."""
    return {singular(w) for w in words(tool.name) if w not in VERBS}


def choose_readers(write: Tool, tools: list[Tool], pair: Pair | None, exclude: set[str],
                   seen: Mapping[str, Seen] | None = None) -> list[Reader]:
    """A declared reader first (high). Where the experiments (stateful.watch) showed readers, theirs:
    those that showed the write's records (high, with that fact; an update's, those of the records
    it changed), then the other tools they showed reading (medium). Where they showed none, readers
    guessed from words: sharing a noun (medium), then any other read tool (low)."""
    readers: list[Reader] = []
    by_name = {t.name: t for t in tools}
    if pair is not None and pair.read in by_name:
        readers.append(Reader(by_name[pair.read], "high", f"declared pair {write.name} -> {pair.read}",
                              pair.read_args, fact_shown(f"{pair.read} shows the records {write.name} writes",
                                                    source="stated in the probe config")))
    learned = observed_readers(write, tools, seen or {}, exclude | {r.tool.name for r in readers})
    if learned:
        return [*readers, *learned][:MAX_READERS]
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


def observed_readers(write: Tool, tools: list[Tool], seen: Mapping[str, Seen], exclude: set[str]) -> list[Reader]:
    """The readers the experiments showed showing the write's records (for an update, those of the
    creator whose record it changed), in listing order; then the other tools they showed reading, and
    those whose words say they read whatever their calls showed (low); then those whose role they
    left unknown and that no annotation or word marks as writing, deleting or sending (low); these
    last two kinds with a noun of the write's name first. Calibration shows which of them show the
    records. None unless a reader showed the write's records."""
    learned = seen.get(write.name)
    if learned is None:
        return []
    mine = dict(learned.readers)
    if learned.acts_on is not None and learned.acts_on in seen:
        mine = {**seen[learned.acts_on].readers, **mine}
    if not mine:
        return []
    # A keyed reader shown answering one of the write's records shows them too.
    mine |= {t.name: fact for t in tools if (found := seen.get(t.name)) is not None and found.role in READ_ROLES
             and found.acts_on is not None and found.acts_on in (write.name, learned.acts_on)
             and (fact := found.fact) is not None}
    rest = [t for t in tools if t.name not in mine and t.name not in exclude and t.name != write.name]
    shown_readers = [Reader(t, "high", f"experiment: {mine[t.name].what}", fact=mine[t.name],
                            selects=selecting(seen.get(t.name)))
                     for t in tools if t.name in mine and t.name not in exclude]
    # A tool whose words or annotations say it reads stays a reader whatever its calls did: that a
    # read changed what others show is the reads probe's finding.
    others = [Reader(t, "medium", f"experiment: {fact.what}", selects=selecting(found))
              if found.role in READ_ROLES and (fact := found.fact)
              else Reader(t, "low", f"its words say it reads; no experiment showed {t.name} reading") for t in rest
              if (found := seen.get(t.name)) is not None and ((found.role in READ_ROLES and found.fact is not None)
                                                              or (t.is_read and found.role is not None))]
    unknown = [Reader(t, "low", f"no experiment showed what {t.name} does") for t in rest
               if (found := seen.get(t.name)) is not None and found.role is None
               and t.read_only_hint is not False and not (t.is_write or t.is_destructive or t.is_sending)]
    # None of these was shown showing the write's records: one whose call on a record of the write's
    # store answered that record's values goes first, then a noun of the write's name orders them
    # (blind, the listing does), so the cut at MAX_READERS keeps the likeliest; calibration decides.
    mine_nouns = nouns(write) - server_prefix(tools)
    stores = {write.name, learned.acts_on} - {None}
    return [*shown_readers, *sorted([*others, *unknown], key=lambda r: (
        (found := seen.get(r.tool.name)) is None or found.answers not in stores,
        not _shared(nouns(r.tool), mine_nouns)))]


def selecting(seen: Seen | None) -> dict[str, str]:
    """The arguments the experiments showed selecting records, each with the field it takes."""
    return {b.argument: b.field for b in seen.bindings} if seen is not None else {}


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
    """Arguments for a read: declared ones, then the written field an argument was shown selecting by
    (left out where the record has none), then (unless the experiments showed which arguments select)
    same-named written fields and the key for a query-like parameter; 100 for a limit-like one; other
    required ones from `base`."""
    if reader.read_args is not None:
        marker = first_marker(written)
        return {k: _substitute(v, key, marker) for k, v in reader.read_args.items()}
    fields = _flat_fields(written)
    args: dict[str, Any] = {}
    for name, schema in reader.tool.properties.items():
        schema = schema if isinstance(schema, dict) else {}
        flat = snake(name)
        single = singular(flat)
        free = reader.selects is None or name in reader.selects
        by = reader.selects.get(name) if reader.selects else None
        if by is not None:
            # Shown selecting by that field (by any marked text, for TEXT): a record without it is not
            # asked by a guess instead.
            value = fields.get(by) if by in fields or by != TEXT else next(
                (text for _, text in field_texts(written) if leading_marker(text) is not None), None)
            if value is not None and not isinstance(value, dict | list):
                args[name] = value
        elif free and name in fields and not isinstance(fields[name], dict | list):
            args[name] = fields[name]
        elif free and single != flat and single in fields and schema.get("type") == "array":
            args[name] = [fields[single]]
        elif free and is_query(name) and key is not None:
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
