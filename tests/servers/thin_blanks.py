"""Stores whose read of a record nobody holds answers a blank thinner than a record's usual fields.

Every store is its own server (`--store NAME`); `--bug` switches on its twin's one bug.

- lockers: stow(label, shelf=1) keeps a parcel under a code the store makes (two capitals, six
  digits, the only codes `peek` and `clear` take) and answers `{"result": {"code": ...}}`; peek(code)
  answers the parcel as JSON under `result`; clear(code) removes it; manifest() lists every parcel.
  An unknown code is refused with isError. Bug: peek of an unknown code answers
  `{"result": {"code": CODE, "shelf": 1}}`, the code and the shelf's default, as a success.
- ledger: ledger_put(title, amount, memo) keeps one entry per title, replacing; ledger_read(title)
  answers it as `key: value` lines; ledger_strike(title) removes it; ledger_lines() is a markdown
  table. An unknown title is refused with isError. Bug: ledger_read of an unknown title answers the
  one line `title: TITLE` as a success.
- badges: award(badge, holder, level) keeps one badge per code the client picks (`^B[0-9]{4,8}$`);
  lookup(badge) answers `{"badge": ..., "found": true, "holder": ..., "level": ...}`; revoke(badge)
  removes it; badges() lists them. An unknown code is answered, as a success, `{"badge": CODE,
  "found": false}`: an answer about the code, not a record (every stored one said `found: true`).
  Bug: the unknown code's answer is `{"badge": CODE, "found": true}`, a made-up record.

    python tests/servers/thin_blanks.py --store NAME [--bug]
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field, StrictInt

CODE = r"^[A-Z]{2}[0-9]{6}$"
Code = Annotated[str, Field(pattern=CODE)]
Label = Annotated[str, Field(max_length=80)]
Shelf = Annotated[int, Field(ge=1, le=9)]
Badge = Annotated[str, Field(pattern=r"^B[0-9]{4,8}$")]
READ = ToolAnnotations(read_only_hint=True)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False)
REMOVE = ToolAnnotations(read_only_hint=False, destructive_hint=True)


def lockers(mcp: MCPServer, bug: bool) -> None:
    parcels: dict[str, dict[str, object]] = {}
    made = [0]

    @mcp.tool(name="stow", description="Stow a parcel in a locker; answers the code it is kept under.",
              annotations=WRITE, structured_output=False)
    def stow(label: Label, shelf: Shelf = 1) -> str:
        made[0] += 1
        code = f"PX{made[0]:06d}"
        parcels[code] = {"code": code, "label": label, "shelf": shelf}
        return json.dumps({"result": {"code": code}})

    @mcp.tool(name="peek", description="The parcel kept under a locker code.", annotations=READ,
              structured_output=False)
    def peek(code: Code) -> str:
        if code not in parcels:
            if bug:
                return json.dumps({"result": {"code": code, "shelf": 1}})
            raise ToolError(f"locker code {code} holds nothing")
        return json.dumps({"result": parcels[code]})

    @mcp.tool(name="clear", description="Hand a parcel out, emptying its locker.", annotations=REMOVE,
              structured_output=False)
    def clear(code: Code) -> str:
        if parcels.pop(code, None) is None:
            raise ToolError(f"locker code {code} holds nothing")
        return json.dumps({"result": {"code": code}})

    @mcp.tool(name="manifest", description="Every parcel in the lockers.", annotations=READ,
              structured_output=False)
    def manifest() -> str:
        return json.dumps({"result": list(parcels.values())})


def ledger(mcp: MCPServer, bug: bool) -> None:
    entries: dict[str, tuple[int, str]] = {}

    @mcp.tool(name="ledger_put", description="Write a ledger entry under its title (replacing the one before).",
              annotations=WRITE, structured_output=False)
    def put(title: Label, amount: StrictInt, memo: Label) -> str:
        entries[title] = (amount, memo)
        return f"title: {title}"

    @mcp.tool(name="ledger_read", description="One ledger entry by its title.", annotations=READ,
              structured_output=False)
    def read(title: Label) -> str:
        if title not in entries:
            if bug:
                return f"title: {title}"
            raise ToolError(f"the ledger has no entry titled {title!r}")
        amount, memo = entries[title]
        return f"title: {title}\namount: {amount}\nmemo: {memo}"

    @mcp.tool(name="ledger_strike", description="Strike a ledger entry out.", annotations=REMOVE,
              structured_output=False)
    def strike(title: Label) -> str:
        if entries.pop(title, None) is None:
            raise ToolError(f"the ledger has no entry titled {title!r}")
        return f"struck: {title}"

    @mcp.tool(name="ledger_lines", description="Every ledger entry, as a table.", annotations=READ,
              structured_output=False)
    def lines() -> str:
        rows = [f"| {t} | {a} | {m} |" for t, (a, m) in entries.items()]
        return "\n".join(["| title | amount | memo |", "|---|---|---|", *rows])


def badges(mcp: MCPServer, bug: bool) -> None:
    held: dict[str, dict[str, object]] = {}

    @mcp.tool(name="award", description="Award a badge under its code (replacing the one before).",
              annotations=WRITE)
    def award(badge: Badge, holder: Label, level: Shelf = 1) -> dict[str, object]:
        held[badge] = {"badge": badge, "found": True, "holder": holder, "level": level}
        return {"badge": badge}

    @mcp.tool(name="lookup", description="A badge by its code; `found` says whether it is held.",
              annotations=READ)
    def lookup(badge: Badge) -> dict[str, object]:
        return held.get(badge, {"badge": badge, "found": bug})

    @mcp.tool(name="revoke", description="Revoke a badge.", annotations=REMOVE)
    def revoke(badge: Badge) -> dict[str, object]:
        if held.pop(badge, None) is None:
            raise ToolError(f"no badge {badge}")
        return {"revoked": badge}

    @mcp.tool(name="badges", description="Every badge held.", annotations=READ)
    def every() -> dict[str, object]:
        return {"badges": list(held.values())}


STORES: dict[str, Callable[[MCPServer, bool], None]] = {"lockers": lockers, "ledger": ledger, "badges": badges}


def main() -> None:
    serving.main_stores(STORES, "blanks", __doc__ or "")


if __name__ == "__main__":
    main()
