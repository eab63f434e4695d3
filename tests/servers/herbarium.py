"""A herbarium's sheets of pressed specimens, filed under an accession code the curator picks.
Answers are JSON text only (no output schema), no tool is annotated, and a refusal is a plain result
`{"error": true, "reason": ...}`, never `isError`.

- file_sheet(accession, species, collector?): files one sheet; an accession already filed is refused.
- sheet(accession): the sheet filed under that accession.
- erase_sheet(accession): takes the sheet out of the herbarium; answers `{"erased": accession}`.

`--bug erase-ignored`: erase_sheet answers `{"erased": accession}` and takes nothing out, so sheet
still shows the sheet.

    python tests/servers/herbarium.py [--bug erase-ignored]
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

BUGS = ("erase-ignored",)


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("herbarium", log_level="WARNING")
    sheets: dict[str, dict[str, Any]] = {}

    def refused(reason: str) -> str:
        return json.dumps({"error": True, "reason": reason})

    @mcp.tool(structured_output=False)
    def file_sheet(accession: Annotated[str, Field(min_length=1, max_length=80)],
                   species: Annotated[str, Field(min_length=1, max_length=80)],
                   collector: Annotated[str, Field(max_length=80)] | None = None) -> str:
        """Files one pressed specimen under its accession code."""
        if accession in sheets:
            return refused(f"accession {accession} is already filed")
        sheets[accession] = {"accession": accession, "species": species, "collector": collector}
        return json.dumps(sheets[accession])

    @mcp.tool(structured_output=False)
    def sheet(accession: str) -> str:
        """The sheet filed under an accession code."""
        if accession not in sheets:
            return refused(f"no sheet under {accession}")
        return json.dumps(sheets[accession])

    @mcp.tool(structured_output=False)
    def erase_sheet(accession: str) -> str:
        """Takes a sheet out of the herbarium."""
        if accession not in sheets:
            return refused(f"no sheet under {accession}")
        if bug != "erase-ignored":
            del sheets[accession]
        return json.dumps({"erased": accession})

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
