"""Resources as readers: a write that no read tool shows may be shown by a resource the server lists.

A server may keep what one tool writes where only a resource shows it (an `append_insight` tool
whose insights appear in a `memo://insights` resource). Before a probe calls such a write
unobservable it reads the listed resources; one that shows the record confirms the write.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from hypothesis_mcp.connection import Connection

MAX_RESOURCES = 8
"""Resources read for one record at most: a server that lists hundreds is not read through."""


def resource_showing(conn: Connection, wanted: Iterable[str]) -> str | None:
    """The URI of the first listed resource whose contents show one of `wanted`, if any."""
    listed = conn.list_all("resources/list") if conn.offers("resources") else None
    if not isinstance(listed, list):
        return None
    tokens = list(wanted)
    uris = [str(e["uri"]) for e in listed if isinstance(e.get("uri"), str)][:MAX_RESOURCES]
    for uri in uris:
        outcome = conn.read_resource(uri)
        if not outcome.ok:
            continue
        text = json.dumps(outcome.content, ensure_ascii=False)
        if any(t in text for t in tokens):
            return uri
    return None
