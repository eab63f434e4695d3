"""Writes that only change a record that already exists (`complete_todo(id)`, `todo_update(id)`).

Such a tool takes the id of a record it did not create: a probe that makes one up asks for a
record that does not exist, and whatever the server answers says nothing about whether writes
are kept. Until the probe can create the record first, it says so instead of judging. A field
the user gives a value (--arg, a strategy) is no obstacle. Where the experiments of watch.py ran,
what they showed of the tool decides.

Where they showed nothing of a tool (an update that changes nothing looks like a tool that writes
nothing), the shape of its schema proposes one: it requires the identity of a creator's records (a
member of the creator's answer the creator was not sent, so a value the server made, or the identity
the experiments showed) and takes a text the creator writes, and every other argument it requires is
one the creator takes too. Names order the candidates only; without a shape, an update verb with an id field still
proposes one. Either is a guess: a finding that rests on it is at most medium (model.facts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.model.facts import Fact, fact_guessed
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.stateful.watch import CREATORS, Seen
from hypothesis_mcp.vocabulary import name_verbs, server_made_id

GUESSED_ROLE = "medium"
"""The surest a finding may be whose tool's role no call of the run showed."""


@dataclass(frozen=True)
class GuessedUpdate:
    """An update the experiments did not show, proposed by the schema's shape: `id_field` carries
    the identity of `creator`'s records, `fields` are texts both take."""

    tool: str
    id_field: str
    creator: str
    fields: tuple[str, ...]
    addressed: bool
    """The identity is a value the creator is given (the one the experiments showed), not one the
    server made."""

    def fact(self) -> Fact:
        what = f"{self.tool} changes records: the record of {self.creator} whose {self.id_field} it is given"
        held = (f"the {self.id_field} the experiments showed telling {self.creator}'s records apart" if self.addressed
                else f"{self.id_field}, a value {self.creator}'s answer held and it was not sent (an id the server "
                "made)")
        return fact_guessed(what, f"its schema's shape: it requires {held} and takes {', '.join(self.fields)}, "
                                  f"which {self.creator} writes", GUESSED_ROLE)


def texts(tool: Tool) -> set[str]:
    return {name for name, schema in tool.properties.items()
            if isinstance(schema, dict) and schema.get("type") == "string"}


def guess_update(tool: Tool, tools: list[Tool], seen: Mapping[str, Seen]) -> GuessedUpdate | None:
    """The update the schema's shape proposes for a tool whose role the experiments left unknown (a
    tool that may delete or send, or says it only reads, is never proposed): the first candidate, an
    id field named like one a server makes first (an order only), then the creators in listing order."""
    learned = seen.get(tool.name)
    if (learned is None or learned.role is not None or tool.is_destructive or tool.is_sending
            or tool.read_only_hint is True):
        return None
    required = profile(tool).required
    found: list[GuessedUpdate] = []
    for creator in tools:
        made = seen.get(creator.name)
        if creator.name == tool.name or made is None or made.role not in CREATORS:
            continue
        for id_field in required:
            addressed = id_field in creator.properties
            held = made.identity if addressed else id_field if id_field in made.answered else None
            if id_field != held:
                continue
            fields = tuple(sorted((texts(tool) & texts(creator)) - {id_field}))
            if fields and all(name in creator.properties for name in required if name != id_field):
                found.append(GuessedUpdate(tool.name, id_field, creator.name, fields, addressed))
    found.sort(key=lambda g: not server_made_id(g.id_field))
    return found[0] if found else None


def guess_updates(tools: list[Tool], seen: Mapping[str, Seen]) -> dict[str, GuessedUpdate]:
    return {t.name: guess for t in tools if (guess := guess_update(t, tools, seen)) is not None}


def updated_id(tool: Tool, given: set[str], seen: Mapping[str, Seen] | None = None,
               guesses: Mapping[str, GuessedUpdate] | None = None) -> str | None:
    """The required argument that names the record a tool changes: the identity the experiments
    showed an update taking; where they showed nothing of it, the id field the schema's shape guessed
    (guess_update), else the id field (`id`, `todo_id`) of a tool named for changing a record; None
    where the user gave its value."""
    learned = seen.get(tool.name) if seen else None
    if learned is not None and learned.role is not None:
        shown = learned.identity if learned.role == "update" else None
        return shown if shown in profile(tool).required and shown not in given else None
    if guesses and (guess := guesses.get(tool.name)) is not None:
        return guess.id_field if guess.id_field not in given else None
    if not any(verb.group == "update" for verb in name_verbs(tool.name)):
        return None
    for name in profile(tool).required:
        if server_made_id(name) and name not in given:
            return name
    return None
