"""The one small vocabulary the run reads names by, and how it reads them: by position.

A tool name is split into words (snake, camel, kebab, dotted) and its verb is found where people
put it: first (`get_record`), after a prefix (`git_create_branch`), or last (`kv_get`,
`record_delete`), with verbs chained by `or`/`and` (`get_or_create_user`). A verb word anywhere
else is a noun (`get_latest_update`, `show_update`, `get_post`), and a word that is both a verb and
a common noun (`record`, `post`, `update`) yields to a verb at the end of the name. Field names are
read by their last word. Each word stands in one group only; every module reads the groups here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_GROUPS: dict[str, list[str]] = {
    "create": ["create", "add", "new", "insert", "append", "make", "enqueue", "push", "register", "submit",
               "upload", "import", "remember", "relate", "link"],
    "write": ["write", "save", "put", "store", "upsert", "record", "keep"],
    "update": ["update", "edit", "modify", "patch", "rename", "complete", "close", "finish", "mark", "toggle",
               "replace", "done", "assign", "set"],
    "delete": ["delete", "remove", "drop", "destroy", "purge", "erase", "truncate", "wipe", "kill", "terminate",
               "clear", "reset", "unlink"],
    "send": ["send", "publish", "deploy", "post", "email", "notify", "transfer", "pay", "tweet", "broadcast"],
    "read": ["get", "read", "fetch", "show", "describe", "view", "open", "retrieve", "inspect", "load", "stat",
             "check", "return", "display", "info", "peek", "dump"],
    "list": ["list", "browse", "enumerate", "recent", "latest"],
    "search": ["search", "find", "query", "filter", "lookup", "grep", "match"],
    "count": ["count", "stats", "tally", "summarize", "summarise", "total"],
    "nounish": ["record", "post", "email", "update", "link", "mark", "set", "store", "view", "check", "stat",
                "stats", "query", "search", "count", "list", "filter", "match", "total", "info", "new", "done",
                "keep", "dump", "register", "latest", "recent"],
    "chain": ["or", "and", "then"],
    "identity": ["id", "uuid", "guid", "uid", "key", "name", "title", "slug", "path", "uri", "url", "filename",
                 "email", "username"],
    "server_id": ["id", "uuid", "guid", "uid"],
    "locating": ["id", "ids", "uuid", "guid", "uid", "path", "paths", "file", "filename", "filepath", "dir",
                 "directory", "folder", "url", "uri", "slug", "email", "key", "ref"],
    "constrained": ["query", "sql", "regex", "pattern", "code", "json", "yaml", "toml", "xml", "cron",
                    "expression", "expr", "command", "cmd", "script", "priority", "status", "state", "mode",
                    "format", "lang", "language", "locale", "timezone", "tz", "color", "colour", "date",
                    "time", "timestamp", "datetime", "due", "sort", "order", "level", "severity", "version",
                    "hash", "checksum", "encoding", "unit", "currency", "country", "operation", "op", "action",
                    "method", "role", "scope", "at"],
    "query": ["query", "q", "search", "filter", "term", "terms", "keyword", "keywords", "text", "pattern",
              "search_term", "search_query"],
    "limit": ["limit", "max_results", "top_k", "top_n", "max_items", "page_size", "per_page", "n_results",
              "num_results", "first", "last", "max_count"],
    "slice": ["head", "tail"],
    "cursor": ["cursor", "page", "offset", "page_token", "next_token", "next_cursor", "after", "before",
               "skip", "start", "continuation_token", "marker_token", "page_number"],
}

ROLES = ("create", "write", "update", "delete", "read", "list", "search", "count", "other")
"""The candidate roles of a tool profile, in the order the verb groups name them."""
EFFECT_ROLES = frozenset({"create", "write", "update"})
READ_ROLES = frozenset({"read", "list", "search", "count"})
VERB_GROUPS = ("create", "write", "update", "delete", "send", "read", "list", "search", "count")
_ROLE_OF = {word: group for group in VERB_GROUPS for word in _GROUPS[group]}
VERBS = frozenset(_ROLE_OF)
NOUNISH = frozenset(_GROUPS["nounish"])
CHAIN = frozenset(_GROUPS["chain"])
IDENTITY_WORDS = frozenset(_GROUPS["identity"])
SERVER_ID_WORDS = frozenset(_GROUPS["server_id"])
LOCATING_WORDS = frozenset(_GROUPS["locating"])
CONSTRAINED_WORDS = frozenset(_GROUPS["constrained"])
QUERY_NAMES = frozenset(_GROUPS["query"])
LIMIT_NAMES = frozenset(_GROUPS["limit"])
SLICE_NAMES = tuple(_GROUPS["slice"])
CURSOR_NAMES = frozenset(_GROUPS["cursor"])


def words(name: str) -> list[str]:
    """Split snake_case, kebab-case, dotted and camelCase names into lower-case words
    (`getHTTPRecord` -> get, http, record)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", spaced)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]


def snake(name: str) -> str:
    return "_".join(words(name))


def singular(word: str) -> str:
    """`notes` -> `note`, `entries` -> `entry`: nouns compare in the singular."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def verb_group(word: str) -> str | None:
    """The group of a verb (`get` -> read), None for a word that is no verb of the vocabulary."""
    return _ROLE_OF.get(word)


@dataclass(frozen=True)
class NameVerb:
    """A verb read from a name: the word, its group, and where it stood (first, second, last, chained)."""

    word: str
    group: str
    position: str

    def evidence(self, name: str) -> str:
        return f"the verb {self.word!r} ({self.position} of {name!r})"


def name_verbs(name: str) -> list[NameVerb]:
    """The verbs of a tool name, read by position: the first verb word, after any prefix of nouns
    (`get_record`, `memory_bank_read_documents`, `kv_get`), unless it is also a common noun and the
    name ends with a verb that is none (`record_delete`); then the verbs chained to it by `or`/`and`."""
    parts = words(name)
    found = [i for i, w in enumerate(parts) if w in VERBS]
    if not found:
        return []
    slot, last = found[0], len(parts) - 1
    if parts[slot] in NOUNISH and found[-1] == last > slot and parts[last] not in NOUNISH \
            and parts[last - 1] not in CHAIN:
        slot = last
    position = "first word" if slot == 0 else "last word" if slot == last else "word after a prefix"
    verbs = [NameVerb(parts[slot], _ROLE_OF[parts[slot]], position)]
    for step in (2, -2):
        at = slot
        while 0 <= at + step <= last and parts[at + step // 2] in CHAIN and parts[at + step] in VERBS:
            at += step
            verbs.append(NameVerb(parts[at], _ROLE_OF[parts[at]], "word chained to it"))
    return verbs


def described_verb(text: str | None) -> str | None:
    """The group of the verb a description opens with (`Lists the newest notes.` -> list)."""
    said = words(text or "")[:1]
    if not said:
        return None
    word = said[0]
    for stem in (word, word[:-1], word[:-2]):
        if stem in VERBS and (stem == word or word.endswith("s")):
            return _ROLE_OF[stem]
    return None


def last_word(name: str) -> str | None:
    parts = words(name)
    return parts[-1] if parts else None


def names_identity(name: str) -> bool:
    """A field whose last word names a record (`title`, `noteId`, `file_name`)."""
    return last_word(name) in IDENTITY_WORDS


def server_made_id(name: str) -> bool:
    """A field named like an id a server makes (`id`, `job_id`, `uuid`)."""
    return bool(set(words(name)) & SERVER_ID_WORDS)


def locating(name: str) -> bool:
    """The field names or locates a record (`todo_id`, `path`): a bare marker may stand in it."""
    return last_word(name) in LOCATING_WORDS


def constrained(name: str) -> bool:
    """A field that holds code or one of a few values (`priority`, `sql`, `due_at`)."""
    return bool(set(words(name)) & CONSTRAINED_WORDS)


def bound_kind(param: str) -> str | None:
    """`head`/`tail` for a slice of lines, `limit` for a count of items, None otherwise."""
    flat = snake(param)
    if flat in SLICE_NAMES:
        return flat
    if flat in LIMIT_NAMES:
        return "limit"
    return None


def is_cursor(param: str) -> bool:
    return snake(param) in CURSOR_NAMES


def is_query(param: str) -> bool:
    return snake(param) in QUERY_NAMES


@dataclass(frozen=True)
class RoleClaim:
    """One reason to believe a tool has a role: an annotation, a verb of its name, its description."""

    role: str
    evidence: str


@dataclass(frozen=True)
class RoleReading:
    """What a tool's name, description and annotations say of its role; every guess keeps its words."""

    name: str
    verbs: tuple[NameVerb, ...]
    described: str | None
    read_only: bool | None
    destructive: bool | None

    @classmethod
    def of(cls, name: str, description: str | None, annotations: dict[str, object]) -> RoleReading:
        def hint(key: str) -> bool | None:
            value = annotations.get(key)
            return value if isinstance(value, bool) else None
        return cls(name, tuple(name_verbs(name)), described_verb(description), hint("readOnlyHint"),
                   hint("destructiveHint"))

    @property
    def groups(self) -> set[str]:
        return {v.group for v in self.verbs}

    @property
    def reads(self) -> bool:
        """Read-only as a person would judge it: annotated so, or named with a read verb in a verb's
        place, or (a name without a verb) a description that opens by saying it reads."""
        if self.read_only is True:
            return True
        if self.read_only is False or self.destructive is True:
            return False
        if self.groups & (EFFECT_ROLES | {"delete", "send"}):
            return False
        if self.groups & READ_ROLES:
            return True
        return not self.verbs and self.described in READ_ROLES

    @property
    def sends(self) -> bool:
        """Deletes, sends, publishes or deploys: never called unless the user names it."""
        if self.read_only is True:
            return False
        return bool(self.groups & {"delete", "send"}) or (self.destructive is True and not self.groups & EFFECT_ROLES)

    @property
    def destroys(self) -> bool:
        return self.sends or (self.destructive is True and self.read_only is not True)

    @property
    def writes(self) -> bool:
        """A storing tool that round-trip probes may call with --allow-writes."""
        if self.read_only is True or self.destructive is True or self.groups & {"delete", "send"}:
            return False
        if self.groups & EFFECT_ROLES:
            return True
        if self.read_only is None and not self.groups & READ_ROLES and self.described in EFFECT_ROLES:
            return True
        return self.read_only is False and self.destructive is False

    @property
    def role(self) -> str:
        """The surest candidate: one of ROLES."""
        return self.claims[0].role

    @property
    def claims(self) -> list[RoleClaim]:
        """Candidate roles, the surest first, each with what it was read from."""
        verbs = [v for v in self.verbs]
        said = f"the description opens with a verb of {self.described!r}" if self.described else ""
        hints = ", ".join(f"{k}: {str(v).lower()}" for k, v in (("readOnlyHint", self.read_only),
                                                                 ("destructiveHint", self.destructive))
                          if v is not None)
        found: list[RoleClaim] = []
        if self.reads:
            found += [RoleClaim(v.group, v.evidence(self.name)) for v in verbs if v.group in READ_ROLES]
            if self.described in READ_ROLES and not verbs:
                found.append(RoleClaim(self.described, said))
            if self.read_only is True:
                found.append(RoleClaim("read", f"annotated {hints}"))
        elif self.writes:
            order = ("create", "update", "write")
            found += sorted((RoleClaim(v.group, v.evidence(self.name)) for v in verbs if v.group in EFFECT_ROLES),
                            key=lambda c: order.index(c.role))
            if self.described in EFFECT_ROLES and not verbs:
                found.append(RoleClaim(self.described, said))
            if self.read_only is False and self.destructive is False:
                found.append(RoleClaim("write", f"annotated {hints}"))
        elif self.destroys:
            found += [RoleClaim("delete" if v.group == "delete" else "other", v.evidence(self.name) +
                                (", which sends" if v.group == "send" else "")) for v in verbs
                      if v.group in ("delete", "send")]
            if self.destructive is True:
                found.append(RoleClaim("delete", f"annotated {hints}"))
        found += [RoleClaim(v.group if v.group in ROLES else "other", v.evidence(self.name)) for v in verbs
                  if not any(c.evidence == v.evidence(self.name) for c in found)]
        return found or [RoleClaim("other", "no verb in its name or description, no annotation that decides")]
