"""A memo pad that answers its refusals as successes: the text `{"error": "..."}`, isError unset.

- save_memo(slug, body, label?): keeps a memo; the same slug replaces it. A label that is not one
  of work, home or errand is refused, though the schema and its description do not say so.
- read_memo(slug): the memo as JSON, or `{"error": "no memo ..."}`.
- browse_memos(): every memo as a JSON list.
- add_reminder(slug, text, note?): refuses every call (`{"error": "reminders are switched off"}`).

The correct twin keeps what it is given. `--bug drops-body-on-overwrite`: a save to a slug already
stored keeps the new label but an empty body, and answers as if it kept the body.

    python tests/servers/memo_pad.py [--bug drops-body-on-overwrite]
"""

from __future__ import annotations

import json
from typing import Annotated

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

BUGS = ("drops-body-on-overwrite",)
LABELS = ("work", "home", "errand")


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("memo-pad", log_level="WARNING")
    memos: dict[str, dict[str, str | None]] = {}

    @mcp.tool()
    def save_memo(
        slug: Annotated[str, Field(description="Short name of the memo.")],
        body: Annotated[str, Field(description="The memo's text.")],
        label: Annotated[str | None, Field(description="A label to group memos by.")] = None,
    ) -> str:
        """Keeps a memo; a memo with the same slug is replaced."""
        if label is not None and label not in LABELS:
            return json.dumps({"error": f"unknown label {label!r}"})
        kept = "" if bug == "drops-body-on-overwrite" and slug in memos else body
        memos[slug] = {"slug": slug, "body": kept, "label": label}
        return json.dumps({"saved": slug})

    @mcp.tool()
    def read_memo(slug: Annotated[str, Field(description="Short name of the memo.")]) -> str:
        """Shows one memo."""
        if slug not in memos:
            return json.dumps({"error": f"no memo {slug!r}"})
        return json.dumps(memos[slug])

    @mcp.tool()
    def browse_memos() -> str:
        """Lists every memo."""
        return json.dumps(list(memos.values()))

    @mcp.tool()
    def add_reminder(
        slug: Annotated[str, Field(description="The memo to be reminded of.")],
        text: Annotated[str, Field(description="What to say.")],
        note: Annotated[str | None, Field(description="Anything else.")] = None,
    ) -> str:
        """Sets a reminder for a memo."""
        return json.dumps({"error": "reminders are switched off"})

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
