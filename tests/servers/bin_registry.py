"""A registry of storage bins: a bin holds no text and no number wide enough for a marker (a capacity
of 1 to 12, a material from a list, a flag), so only the reference the registry hands out tells two
bins apart. Answers are JSON texts with no output schema; an unknown reference is an exception the
SDK turns into an `isError` result. No tool is annotated.

- add_bin(capacity, material, stacked=false): registers a bin; answers {"bin": {"ref": "bin-N", ...}}.
- bin_detail(ref): the bin.
- bin_list(): every bin, newest first, as {"bins": [...], "count": n}.
- retire_bin(ref): removes the bin.

`--bug listed-after-retire`: `retire_bin` removes the bin from `bin_detail` only; `bin_list` still
shows it. `--bug evicts-oldest`: the registry keeps its six newest bins and drops the oldest without a
word when a seventh is added.

    python tests/servers/bin_registry.py [--bug listed-after-retire|evicts-oldest]
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

BUGS = ("listed-after-retire", "evicts-oldest")
KEPT = 6
"""The bins `evicts-oldest` keeps."""


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("bin-registry", log_level="WARNING")
    bins: dict[str, dict[str, Any]] = {}
    retired: dict[str, dict[str, Any]] = {}
    """Bins `retire_bin` removed that the buggy listing still shows."""
    made = [0]

    @mcp.tool(structured_output=False)
    def add_bin(capacity: Annotated[int, Field(ge=1, le=12, description="Crates the bin takes.")],
                material: Literal["steel", "plastic", "wood"], stacked: bool = False) -> str:
        """Registers a bin and answers it with the reference the registry gave it."""
        made[0] += 1
        ref = f"bin-{made[0]}"
        bins[ref] = {"ref": ref, "capacity": capacity, "material": material, "stacked": stacked}
        if bug == "evicts-oldest" and len(bins) > KEPT:
            del bins[next(iter(bins))]
        return json.dumps({"bin": bins[ref]})

    @mcp.tool(structured_output=False)
    def bin_detail(ref: str) -> str:
        """One bin, by its reference."""
        if ref not in bins:
            raise ValueError(f"unknown bin {ref}")
        return json.dumps({"bin": bins[ref]})

    @mcp.tool(structured_output=False)
    def bin_list() -> str:
        """Every bin, newest first."""
        shown = [*bins.values(), *retired.values()][::-1]
        return json.dumps({"bins": shown, "count": len(shown)})

    @mcp.tool(structured_output=False)
    def retire_bin(ref: str) -> str:
        """Takes a bin out of the registry."""
        if ref not in bins:
            raise ValueError(f"unknown bin {ref}")
        gone = bins.pop(ref)
        if bug == "listed-after-retire":
            retired[ref] = gone
        return json.dumps({"retired": ref})

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
