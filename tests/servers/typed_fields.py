"""Stores whose records hold fields of every type, each with a twin that loses one kind of value.

One server with three stores (snake names, JSON text answers, refusals as plain error text);
`--bug` switches on the bug of each store at once, so one run finds the three; without it every
store is the correct twin.

- reminders: set_reminder(label, message, enabled=true, repeat) keeps one reminder per label;
  get_reminder(label), list_reminders(). Bug: `enabled` defaults with `or`, so false is stored as
  true.
- readings: save_reading(sensor, note, value, tags) keeps a sensor's last reading;
  get_reading(sensor). Bug: the value is stored as an integer, its decimals cut.
- contacts: add_contact(name, bio, address{street, city, floor}); get_contact(name),
  list_contacts(). Bug: the address is kept without its floor.

- alarms, only with `--alarms` (correct in both twins, never judged a loss): set_alarm(title,
  note, snooze=0, from -10 to 10) keeps one alarm per title, and a snooze of zero or less means
  none, stored as null like the default; list_alarms() lists every alarm. A reader sees -4 come back as
  null, as an alarm written without a snooze does: a normalisation (a warning), not a value lost.

    python tests/servers/typed_fields.py [--bug] [--alarms] [--http PORT]
"""

from __future__ import annotations

import argparse
import json
from typing import Annotated, Any, Literal

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

Text = Annotated[str, Field(min_length=1, max_length=200)]


class Address(BaseModel):
    street: Text
    city: Text
    floor: Annotated[int, Field(ge=1, le=200)]


def reminders(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, dict[str, Any]] = {}

    @mcp.tool(name="set_reminder", description="Set a reminder; a label holds one reminder.", structured_output=False)
    def set_reminder(label: Text, message: Text, enabled: bool = True,
                     repeat: Literal["never", "daily", "weekly", "monthly"] = "never") -> str:
        kept[label] = {"label": label, "message": message, "enabled": (enabled or True) if bug else enabled,
                       "repeat": repeat}
        return f"Reminder '{label}' set."

    @mcp.tool(name="get_reminder", description="The reminder of a label.", structured_output=False)
    def get_reminder(label: str) -> str:
        if label not in kept:
            raise ValueError(f"no reminder labelled {label!r}")
        return json.dumps(kept[label])

    @mcp.tool(name="list_reminders", description="Every reminder.", structured_output=False)
    def list_reminders() -> str:
        return json.dumps({"reminders": list(kept.values())})


def readings(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, dict[str, Any]] = {}

    @mcp.tool(name="save_reading", description="Save a sensor's reading, replacing its last one.",
              structured_output=False)
    def save_reading(sensor: Text, note: Text, value: Annotated[float, Field(ge=-500, le=500)],
                    tags: Annotated[list[str], Field(max_length=12)] | None = None) -> str:
        kept[sensor] = {"sensor": sensor, "note": note, "value": int(value) if bug else value, "tags": tags or []}
        return f"Saved {sensor}."

    @mcp.tool(name="get_reading", description="A sensor's last reading.", structured_output=False)
    def get_reading(sensor: str) -> str:
        if sensor not in kept:
            raise ValueError(f"no reading for {sensor!r}")
        return json.dumps(kept[sensor])


def contacts(mcp: MCPServer, bug: bool) -> None:
    kept: dict[str, dict[str, Any]] = {}

    @mcp.tool(name="add_contact", description="Add a contact, replacing one of the same name.",
              structured_output=False)
    def add_contact(name: Text, bio: Text, address: Address) -> str:
        stored = address.model_dump()
        if bug:
            stored.pop("floor")
        kept[name] = {"name": name, "bio": bio, "address": stored}
        return f"Added {name}."

    @mcp.tool(name="get_contact", description="One contact by name.", structured_output=False)
    def get_contact(name: str) -> str:
        if name not in kept:
            raise ValueError(f"no contact named {name!r}")
        return json.dumps(kept[name])

    @mcp.tool(name="list_contacts", description="Every contact.", structured_output=False)
    def list_contacts() -> str:
        return json.dumps({"contacts": list(kept.values())})


def alarms(mcp: MCPServer) -> None:
    kept: dict[str, dict[str, Any]] = {}

    @mcp.tool(name="set_alarm", description="Schedule an alarm; a title holds one alarm.", structured_output=False)
    def set_alarm(title: Text, note: Text, snooze: Annotated[int, Field(ge=-10, le=10)] = 0) -> str:
        kept[title] = {"title": title, "note": note, "snooze": snooze if snooze > 0 else None}
        return json.dumps({"scheduled": title})

    @mcp.tool(name="list_alarms", description="Every alarm.", structured_output=False)
    def every_alarm() -> str:
        return json.dumps(list(kept.values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bug", action="store_true", help="every store's bug at once")
    parser.add_argument("--alarms", action="store_true", help="add the alarms store (a normalisation, no bug)")
    args = parser.parse_args()
    serving.exit_on_signals()
    mcp = MCPServer("typed-fields", log_level="WARNING")
    for store in (reminders, readings, contacts):
        store(mcp, args.bug)
    if args.alarms:
        alarms(mcp)
    mcp.run()


if __name__ == "__main__":
    main()
