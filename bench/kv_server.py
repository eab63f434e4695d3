"""A small, correct key-value MCP server for benchmarks: three tools, stdio, official SDK.

- put_value(key, value): store a value under a key; an existing key is replaced.   (write)
- get_value(key): the value, or found: false.                                       (read-only)
- list_keys(limit=20): keys, most recently written first.                          (read-only)

    python bench/kv_server.py [--pairs N]

`--pairs N` serves N stores side by side, as a server of many record kinds does:
put_value_1/get_value_1 … put_value_N/get_value_N, each pair its own store, and one list_keys of
the keys of every store, most recently written first (2N + 1 tools), so grading's cost can be
measured against the number of tools.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, ToolAnnotations
from pydantic import BaseModel, Field

server = MCPServer("kv-bench", log_level="WARNING")
stores: dict[str, dict[str, str]] = {}
written: dict[tuple[str, str], None] = {}
"""Every (store, key) pair, in order of its last write: what list_keys shows."""
TOOLS: set[str] = {"list_keys"}


async def known_tools_only(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """An unknown tool is a protocol error (-32602), not an isError result that claims it ran."""
    params = ctx.params
    if ctx.method == "tools/call" and isinstance(params, Mapping) and params.get("name") not in TOOLS:
        raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.get('name')}")
    return await call_next(ctx)


server.middleware.append(known_tools_only)

Key = Annotated[str, Field(min_length=1, max_length=100, description="The key a value is stored under.")]


class Stored(BaseModel):
    key: str
    replaced: bool


class Found(BaseModel):
    found: bool
    value: str | None = None


class Keys(BaseModel):
    keys: list[str]


def serve_pair(suffix: str) -> None:
    """Register put_value{suffix} and get_value{suffix} over a store of their own."""
    store = stores.setdefault(suffix, {})

    def put_value(key: Key, value: Annotated[str, Field(max_length=1000, description="The value to store.")]) -> Stored:
        """Store a value under a key; writing an existing key replaces its value."""
        replaced = key in store
        store[key] = value
        written.pop((suffix, key), None)
        written[(suffix, key)] = None
        return Stored(key=key, replaced=replaced)

    def get_value(key: Key) -> Found:
        """The value stored under a key, or found: false when there is none."""
        if key not in store:
            return Found(found=False)
        return Found(found=True, value=store[key])

    which = f" of store {suffix[1:]}" if suffix else ""
    writes = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
    server.tool(name=f"put_value{suffix}", description=f"Store a value under a key{which}; writing an existing key "
                "replaces its value.", annotations=writes)(put_value)
    server.tool(name=f"get_value{suffix}", description=f"The value stored under a key{which}, or found: false when "
                "there is none.", annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))(get_value)
    TOOLS.update((f"put_value{suffix}", f"get_value{suffix}"))


@server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
def list_keys(limit: Annotated[int, Field(ge=1, le=100, description="At most this many keys.")] = 20) -> Keys:
    """Stored keys, most recently written first."""
    return Keys(keys=[key for _, key in reversed(written)][:limit])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=0, help="serve N put/get pairs, each its own store")
    pairs = parser.parse_args().pairs
    for suffix in [f"_{index}" for index in range(1, pairs + 1)] if pairs > 0 else [""]:
        serve_pair(suffix)
    server.run()


if __name__ == "__main__":
    main()
