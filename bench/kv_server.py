"""A small, correct key-value MCP server for benchmarks: three tools, stdio, official SDK.

- put_value(key, value): store a value under a key; an existing key is replaced.   (write)
- get_value(key): the value, or found: false.                                       (read-only)
- list_keys(limit=20): keys, most recently written first.                          (read-only)

    python bench/kv_server.py
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, ToolAnnotations
from pydantic import BaseModel, Field

server = MCPServer("kv-bench", log_level="WARNING")
store: dict[str, str] = {}
TOOLS = ("put_value", "get_value", "list_keys")


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


@server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                         open_world_hint=False))
def put_value(key: Key, value: Annotated[str, Field(max_length=1000, description="The value to store.")]) -> Stored:
    """Store a value under a key; writing an existing key replaces its value."""
    replaced = key in store
    store.pop(key, None)
    store[key] = value
    return Stored(key=key, replaced=replaced)


@server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
def get_value(key: Key) -> Found:
    """The value stored under a key, or found: false when there is none."""
    if key not in store:
        return Found(found=False)
    return Found(found=True, value=store[key])


@server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
def list_keys(limit: Annotated[int, Field(ge=1, le=100, description="At most this many keys.")] = 20) -> Keys:
    """Stored keys, most recently written first."""
    return Keys(keys=list(reversed(store))[:limit])


if __name__ == "__main__":
    server.run()
