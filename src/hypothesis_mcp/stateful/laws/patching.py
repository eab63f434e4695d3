"""Whether an update is a patch (the fields it leaves out keep their values) or a full replace (they
return to their defaults). Only a patch's left-out fields are judged: one that changed is data lost.

The schemas tell it two ways. An update that may leave out a field its record's creator requires
cannot mean to reset it (the record would then be one its creator refuses): a patch, as sure as the
schemas. An update whose schema gives a field another default than its creator's (none, or `null`
for "not given") does not say that leaving the field out sets the creator's default, as a replace's
schema says by repeating it. Taken for a patch then, but by guess: where the creator requires only
the key, a patch that resets what it leaves out and a replace answer alike, so a loss judged on that
guess alone is a low warning, never more (machine.py makes it high where a read shows another field
the call left out kept)."""

from __future__ import annotations

from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.model.facts import Fact, fact_guessed

DEFAULTS = "the schemas' defaults"


def required_left(creator: Tool | None, update: Tool, arg: str) -> bool:
    """The update may leave out a field its record's creator requires: it is a patch."""
    needed = set(creator.input_schema.get("required") or ()) if creator is not None else set()
    return bool(needed - set(update.input_schema.get("required") or ()) - {arg})


def defaults_dropped(creator: Tool | None, update: Tool, arg: str) -> Fact | None:
    """The guess that the update is a patch: fields it may leave out whose schema there does not
    declare the default the creator's declares. None where no such field is."""
    if creator is None:
        return None
    required = set(update.input_schema.get("required") or ())
    dropped = sorted(name for name, sub in update.properties.items()
                     if name != arg and name not in required and isinstance(sub, dict)
                     and (default := default_of(creator.properties.get(name))) is not None
                     and default_of(sub) != default)
    if not dropped:
        return None
    return fact_guessed(f"{update.name} changes only the fields it is given: its {', '.join(dropped)} do not "
                        f"declare the defaults {creator.name}'s do, so leaving them out resets nothing", DEFAULTS)


def defaulted(schema: Any, value: Any) -> bool:
    """The value is the default the field's schema declares (a store may leave it out)."""
    return isinstance(schema, dict) and "default" in schema and schema["default"] == value


def default_of(schema: Any) -> Any:
    """The default a property's schema declares (None where it declares none, or null)."""
    return schema.get("default") if isinstance(schema, dict) else None
