"""Removals told by a count alone, removals kept in a bin, and removals a count keeps (`--store NAME`;
`--bug` switches on the one bug).

- herbarium (camelCase names, plain text answers, no annotations): pressSpecimen(accession, genus,
  leaves) files a sheet; specimen(accession) answers it as `name: value` lines, refused (isError) for
  an accession that holds none; catalogue() answers one line per sheet; census() answers
  `N sheets held`; withdrawSpecimen(accession) takes a sheet out. Bug: a withdrawal only lowers the
  census, and specimen() and catalogue() still show the sheet withdrawn.
- seedbank (noun-first snake_case names, structured answers, no annotations): lot_deposit(lot,
  variety, grams) banks a lot; lot_get(lot) answers one, refused (isError) for a lot not banked;
  lots_all() answers `{"lots": [...]}`; lot_discard(lot) moves a lot to the discards;
  lots_discarded() answers the discarded lots. Bug: lot_get still answers a lot discarded.
- pantry (noun-first snake_case names, structured answers, the toss annotated destructive): jar_fill(label,
  grams) fills a jar; jar_get(label) answers one, refused (isError) for a label with no jar;
  jars_all() answers `{"jars": [...]}`; jars_tally() answers `{"total": n}`; jar_toss(label) throws
  a jar out. Bug: the tally still counts every jar tossed, while jar_get and jars_all show it gone.

    python tests/servers/counted_removals.py --store NAME [--bug]
"""

from __future__ import annotations

from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

Name = Annotated[str, Field(min_length=1, max_length=120)]


def herbarium(mcp: MCPServer, bug: bool) -> None:
    sheets: dict[str, tuple[str, int]] = {}
    withdrawn: set[str] = set()

    def sheet(accession: str) -> tuple[str, int]:
        if accession not in sheets:
            raise ToolError(f"no sheet under accession {accession}")
        return sheets[accession]

    @mcp.tool(name="pressSpecimen", description="File a pressed sheet under its accession.", structured_output=False)
    def press(accession: Name, genus: Name, leaves: Annotated[int, Field(ge=0, le=400)]) -> str:
        if accession in sheets:
            raise ToolError(f"accession {accession} is taken")
        sheets[accession] = (genus, leaves)
        return f"filed {accession}"

    @mcp.tool(name="specimen", description="One sheet by accession.", structured_output=False)
    def specimen(accession: str) -> str:
        genus, leaves = sheet(accession)
        return f"accession: {accession}\ngenus: {genus}\nleaves: {leaves}"

    @mcp.tool(name="catalogue", description="Every sheet held.", structured_output=False)
    def catalogue() -> str:
        return "\n".join(f"{a} / {g} / {n} leaves" for a, (g, n) in sheets.items()) or "(no sheets)"

    @mcp.tool(name="census", description="How many sheets are held.", structured_output=False)
    def census() -> str:
        return f"{len(sheets) - len(withdrawn)} sheets held"

    @mcp.tool(name="withdrawSpecimen", description="Take a sheet out of the herbarium.", structured_output=False)
    def withdraw(accession: str) -> str:
        sheet(accession)
        if bug:
            withdrawn.add(accession)  # the census moves, the sheet stays filed
        else:
            del sheets[accession]
        return f"withdrew {accession}"


class Lot(BaseModel):
    lot: str
    variety: str
    grams: int


class Lots(BaseModel):
    lots: list[Lot]


def seedbank(mcp: MCPServer, bug: bool) -> None:
    banked: dict[str, Lot] = {}
    discards: dict[str, Lot] = {}

    @mcp.tool(name="lot_deposit", description="Bank a lot of seed.")
    def deposit(lot: Name, variety: Name, grams: Annotated[int, Field(ge=1, le=9000)]) -> Lot:
        if lot in banked:
            raise ToolError(f"lot {lot} is already banked")
        discards.pop(lot, None)
        banked[lot] = Lot(lot=lot, variety=variety, grams=grams)
        return banked[lot]

    @mcp.tool(name="lot_get", description="One banked lot.")
    def get(lot: str) -> Lot:
        found = banked.get(lot) or (discards.get(lot) if bug else None)
        if found is None:
            raise ToolError(f"lot {lot} is not banked")
        return found

    @mcp.tool(name="lots_all", description="Every banked lot.")
    def all_() -> Lots:
        return Lots(lots=list(banked.values()))

    @mcp.tool(name="lot_discard", description="Move a lot to the discards.")
    def discard(lot: str) -> Lot:
        if lot not in banked:
            raise ToolError(f"lot {lot} is not banked")
        discards[lot] = banked.pop(lot)
        return discards[lot]

    @mcp.tool(name="lots_discarded", description="The discarded lots.")
    def discarded() -> Lots:
        return Lots(lots=list(discards.values()))


class Jar(BaseModel):
    label: str
    grams: int


class Jars(BaseModel):
    jars: list[Jar]


class Tally(BaseModel):
    total: int


def pantry(mcp: MCPServer, bug: bool) -> None:
    shelf: dict[str, Jar] = {}
    tossed: set[str] = set()

    @mcp.tool(name="jar_fill", description="Fill a jar under a new label.")
    def fill(label: Name, grams: Annotated[int, Field(ge=1, le=5000)]) -> Jar:
        if label in shelf:
            raise ToolError(f"a jar is labelled {label} already")
        tossed.discard(label)
        shelf[label] = Jar(label=label, grams=grams)
        return shelf[label]

    @mcp.tool(name="jar_get", description="One jar by its label.")
    def get(label: str) -> Jar:
        if label not in shelf:
            raise ToolError(f"no jar is labelled {label}")
        return shelf[label]

    @mcp.tool(name="jars_all", description="Every jar on the shelf.")
    def all_() -> Jars:
        return Jars(jars=list(shelf.values()))

    @mcp.tool(name="jars_tally", description="How many jars are on the shelf.")
    def tally() -> Tally:
        return Tally(total=len(shelf) + (len(tossed) if bug else 0))

    @mcp.tool(name="jar_toss", description="Throw a jar out.", annotations=ToolAnnotations(destructive_hint=True))
    def toss(label: str) -> Jar:
        if label not in shelf:
            raise ToolError(f"no jar is labelled {label}")
        tossed.add(label)  # the tally of the buggy store goes on counting it
        return shelf.pop(label)


if __name__ == "__main__":
    serving.main_stores({"herbarium": herbarium, "seedbank": seedbank, "pantry": pantry}, "counted",
                        __doc__ or "")
