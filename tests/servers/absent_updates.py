"""Stores asked to change a record that is not there (`--store NAME`; `--bug` switches on the one bug).

- kennel (snake_case, structured output): check_in(dog, owner, nights) books a stay under a ticket
  the kennel makes (`K-1`, `K-2`...) and answers the stay; stay(ticket) answers one stay, refused
  (isError) for a ticket that holds none; stays() answers `{"stays": [...]}`; amend_stay(ticket,
  owner, nights) changes a stay and answers it, refused for a ticket that holds none; check_out(ticket)
  ends a stay (destructive). Bug: amend_stay of a ticket that holds no stay (never booked, or checked
  out) answers the stay it would have made, as a success, and stores nothing.
- lodge: the kennel, but amend_stay of a ticket checked out books that stay again, with the new owner
  and nights (correct: the readers then show it; a ticket never issued is still refused). Bug: as the
  kennel's.
- roster (camelCase, `key: value` text): enlistMember(callsign, name, duty) keeps one member per
  callsign; getMember(callsign) answers one, refused for a callsign nobody enlisted; listRoster()
  answers a line per member; setDuty(callsign, name, duty) changes a member, refused for a callsign
  nobody enlisted. No removal. Bug: setDuty of a callsign nobody enlisted answers the member it would
  have enlisted, and stores nothing.
- meter (dotted names, JSON text, no text fields: no marker fits): meter.log(level, on) files a reading
  under a number it makes; meter.get(id), meter.all(), meter.adjust(id, level, on), refused for an id
  that holds no reading, and meter.drop(id). Bug: meter.adjust of an id that holds no reading answers
  the reading it would have filed, and stores nothing.

    python tests/servers/absent_updates.py --store NAME [--bug]
"""

from __future__ import annotations

import json
from functools import partial
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

Name = Annotated[str, Field(min_length=1, max_length=120)]
Nights = Annotated[int, Field(ge=1, le=60)]
Level = Annotated[int, Field(ge=0, le=100)]
Callsign = Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{2,40}$")]
READ = ToolAnnotations(read_only_hint=True)
CHANGE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True)


class Stay(BaseModel):
    ticket: str
    dog: str
    owner: str
    nights: int


class Stays(BaseModel):
    stays: list[Stay]


def kennel(mcp: MCPServer, bug: bool, revive: bool = False) -> None:
    booked: dict[str, Stay] = {}
    left: dict[str, Stay] = {}
    made = [0]

    @mcp.tool(name="check_in", description="Book a dog in for some nights; answers the stay and its ticket.")
    def check_in(dog: Name, owner: Name, nights: Nights) -> Stay:
        made[0] += 1
        stay = Stay(ticket=f"K-{made[0]}", dog=dog, owner=owner, nights=nights)
        booked[stay.ticket] = stay
        return stay

    @mcp.tool(name="stay", description="The stay booked under a ticket.", annotations=READ)
    def stay(ticket: str) -> Stay:
        if ticket not in booked:
            raise ToolError(f"ticket {ticket} holds no stay")
        return booked[ticket]

    @mcp.tool(name="stays", description="Every stay booked now.", annotations=READ)
    def stays() -> Stays:
        return Stays(stays=list(booked.values()))

    @mcp.tool(name="amend_stay", description="Change the owner and nights of a booked stay.", annotations=CHANGE)
    def amend_stay(ticket: str, owner: Name, nights: Nights) -> Stay:
        if ticket not in booked:
            if bug:
                return Stay(ticket=ticket, dog="", owner=owner, nights=nights)
            if not (revive and ticket in left):
                raise ToolError(f"ticket {ticket} holds no stay")
            booked[ticket] = left.pop(ticket)
        booked[ticket] = booked[ticket].model_copy(update={"owner": owner, "nights": nights})
        return booked[ticket]

    @mcp.tool(name="check_out", description="End a stay.", annotations=ToolAnnotations(destructive_hint=True))
    def check_out(ticket: str) -> str:
        if ticket not in booked:
            raise ToolError(f"ticket {ticket} holds no stay")
        left[ticket] = booked.pop(ticket)
        return f"{ticket} checked out"


def roster(mcp: MCPServer, bug: bool) -> None:
    members: dict[str, dict[str, str]] = {}

    def said(member: dict[str, str]) -> str:
        return "\n".join(f"{k}: {v}" for k, v in member.items())

    @mcp.tool(name="enlistMember", description="Enlist a member under a callsign.", structured_output=False)
    def enlist(callsign: Callsign, name: Name, duty: Name) -> str:
        members[callsign] = {"callsign": callsign, "name": name, "duty": duty}
        return said(members[callsign])

    @mcp.tool(name="getMember", description="One member by callsign.", annotations=READ, structured_output=False)
    def get(callsign: Callsign) -> str:
        if callsign not in members:
            raise ToolError(f"nobody answers to {callsign}")
        return said(members[callsign])

    @mcp.tool(name="listRoster", description="Every member, one a line.", annotations=READ, structured_output=False)
    def roster_() -> str:
        return "\n".join(f"{m['callsign']} | {m['name']} | {m['duty']}" for m in members.values()) or "(nobody)"

    @mcp.tool(name="setDuty", description="Set a member's name and duty.", annotations=CHANGE,
              structured_output=False)
    def set_duty(callsign: Callsign, name: Name, duty: Name) -> str:
        member = {"callsign": callsign, "name": name, "duty": duty}
        if callsign not in members:
            if bug:
                return said(member)
            raise ToolError(f"nobody answers to {callsign}")
        members[callsign] = member
        return said(member)


def meter(mcp: MCPServer, bug: bool) -> None:
    readings: dict[int, dict[str, object]] = {}
    made = [100]

    @mcp.tool(name="meter.log", description="File a reading.", structured_output=False)
    def log(level: Level, on: bool) -> str:
        made[0] += 1
        readings[made[0]] = {"id": made[0], "level": level, "on": on}
        return json.dumps(readings[made[0]])

    @mcp.tool(name="meter.get", description="One reading.", annotations=READ, structured_output=False)
    def get(id: int) -> str:
        if id not in readings:
            raise ToolError(f"no reading {id}")
        return json.dumps(readings[id])

    @mcp.tool(name="meter.all", description="Every reading.", annotations=READ, structured_output=False)
    def all_() -> str:
        return json.dumps(list(readings.values()))

    @mcp.tool(name="meter.adjust", description="Change a reading.", annotations=CHANGE, structured_output=False)
    def adjust(id: int, level: Level, on: bool) -> str:
        if id not in readings:
            if bug:
                return json.dumps({"id": id, "level": level, "on": on})
            raise ToolError(f"no reading {id}")
        readings[id] = {"id": id, "level": level, "on": on}
        return json.dumps(readings[id])

    @mcp.tool(name="meter.drop", description="Drop a reading.", annotations=ToolAnnotations(destructive_hint=True),
              structured_output=False)
    def drop(id: int) -> str:
        if readings.pop(id, None) is None:
            raise ToolError(f"no reading {id}")
        return json.dumps({"dropped": id})


if __name__ == "__main__":
    serving.main_stores({"kennel": kennel, "lodge": partial(kennel, revive=True), "roster": roster, "meter": meter},
                        "absent", __doc__ or "")
