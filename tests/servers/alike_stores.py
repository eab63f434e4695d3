"""Three stores whose write tools share one shape, the last of them hiding one effect bug.

put_value_1/get_value_1 … put_value_3/get_value_3, each pair its own store, and list_keys of every
store's keys, newest first (bench/kv_server.py --pairs 3). The probe run explores put_value_2 and
put_value_3 on one warm server, as the same shape as put_value_1: a bug of the last store must
still be found and replayed on a fresh server. Without `--bug` the server is the correct twin.

- evict-4: put_value_3's store keeps its 3 newest keys; a fourth distinct key silently drops the
  oldest, and get_value_3 then answers found: false.
- keep-first: put_value_3 reports success for a write to a key it holds but keeps the old value.

    python tests/servers/alike_stores.py [--bug NAME]
"""

from __future__ import annotations

import argparse
from typing import Annotated

from mcp.server import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

BUGS = ("evict-4", "keep-first")
PAIRS = 3
server = MCPServer("alike-stores", log_level="WARNING")
written: dict[tuple[int, str], None] = {}
"""Every (store, key) pair, in order of its last write: what list_keys shows."""
Key = Annotated[str, Field(min_length=1, max_length=100, description="The key a value is stored under.")]
Value = Annotated[str, Field(max_length=1000, description="The value to store.")]


class Stored(BaseModel):
    key: str
    replaced: bool


class Found(BaseModel):
    found: bool
    value: str | None = None


class Keys(BaseModel):
    keys: list[str]


def serve_pair(index: int, bug: str | None) -> None:
    """Register put_value_{index} and get_value_{index} over a store of their own; the bug, if
    any, only in the last store."""
    store: dict[str, str] = {}
    buggy = bug if index == PAIRS else None

    def put_value(key: Key, value: Value) -> Stored:
        replaced = key in store
        if not (replaced and buggy == "keep-first"):
            store[key] = value
        written.pop((index, key), None)
        written[(index, key)] = None
        if buggy == "evict-4" and len(store) > 3:
            oldest = next(iter(store))
            del store[oldest]
            written.pop((index, oldest), None)
        return Stored(key=key, replaced=replaced)

    def get_value(key: Key) -> Found:
        return Found(found=True, value=store[key]) if key in store else Found(found=False)

    writes = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
    server.tool(name=f"put_value_{index}", description=f"Store a value under a key of store {index}; writing an "
                "existing key replaces its value.", annotations=writes)(put_value)
    server.tool(name=f"get_value_{index}", description=f"The value stored under a key of store {index}, or found: "
                "false when there is none.", annotations=ToolAnnotations(read_only_hint=True,
                                                                          open_world_hint=False))(get_value)


@server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
def list_keys(limit: Annotated[int, Field(ge=1, le=100, description="At most this many keys.")] = 20) -> Keys:
    """Stored keys of every store, most recently written first."""
    return Keys(keys=[key for _, key in reversed(written)][:limit])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bug", choices=BUGS)
    bug = parser.parse_args().bug
    for index in range(1, PAIRS + 1):
        serve_pair(index, bug)
    server.run()


if __name__ == "__main__":
    main()
