"""Tools no generated value could make succeed, searched again with values the server owns.

After the searches, a tool that refused every valid call it was sent often wants a value only the
server knows: an id a listing prints or a create returns, or one of a set its description or its
refusal spells out. The run reads what its own server shows (each tool that served a call, called
again with the arguments it served, the listings first), and searches each such tool again with
those values drawn for the parameters its refusals name. The probes are not given those values: an
update probe addresses the records it wrote, and a fixed identity would take that from it. A tool
still refused names the parameters its refusals named, so the report can say which value to supply
(docs/scoring.md, Not exercised).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.searches import Search, Searches
from hypothesis_mcp.connection import Connection
from hypothesis_mcp.model.owned import Printed, mentioned, owned_choices

ROUNDS = 3
"""A tool exercised in one round may print what another needs (a project, then a task in it)."""


def retry_unexercised(searches: Searches, tools: list[Tool], conn: Connection,
                      stop: Callable[[], bool]) -> None:
    """Search again, on `conn`, each called tool whose valid search saw no success, drawing the
    values the server owns; mark the parameters that blocked those that stay refused."""
    waiting = [t for t in tools if (s := _search(searches, t)) is not None and _refused_all(s)]
    if not waiting:
        return
    printed = Printed()
    seen: set[str] = set()
    tried: dict[str, dict[str, list[Any]]] = {}
    for _ in range(ROUNDS):
        _read_server(searches, [t for t in tools if t.name not in seen], conn, printed, seen, stop)
        progress = False
        for tool in list(waiting):
            if stop() or conn.unavailable is not None:
                break
            before = searches.valid(tool)
            choices = owned_choices(tool, printed, [o.text for o in before.refused])
            values = {n: c.values for n, c in choices.items()}
            if not choices or tried.get(tool.name) == values:
                continue
            tried[tool.name] = values
            search = searches.with_values(tool, values, conn)
            if search.successes or search.finding is not None:
                search.owned = {n: c.source for n, c in choices.items()}
                waiting.remove(tool)
                progress = True
        if not progress:
            break
    for tool in waiting:
        search = searches.valid(tool)
        naming = [o for o in search.refused if any(n in tool.required for n in mentioned(tool, o.text))]
        search.blocked = [n for n in tool.required if any(n in mentioned(tool, o.text) for o in naming)]
        search.blocked_by = min(naming, key=lambda o: len(o.text)) if naming else None


def _search(searches: Searches, tool: Tool) -> Search | None:
    """The tool's valid search, if the run made one (none is started here)."""
    valid, _ = searches.searched(tool)
    return valid[0] if valid else None


def _refused_all(search: Search) -> bool:
    return not search.successes and search.finding is None and search.skipped is None \
        and search.outside_schema is None and bool(search.refused)


def _read_server(searches: Searches, tools: list[Tool], conn: Connection, printed: Printed, seen: set[str],
                 stop: Callable[[], bool]) -> None:
    """Call each tool that served a call once more with the arguments it served, those that need no
    argument (the listings) first, and keep what the answers print."""
    served = [(t, s.served_arguments) for t in tools
              if (s := _search(searches, t)) is not None and s.served_arguments is not None]
    for tool, args in sorted(served, key=lambda pair: bool(pair[0].required)):
        if stop() or conn.unavailable is not None:
            return
        seen.add(tool.name)
        printed.read(tool.name, conn.call(tool.name, args or {}))

