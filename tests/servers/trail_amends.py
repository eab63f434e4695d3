"""Trails charted under a slug the user picks, then amended: the creator requires only the slug, so
an amend that leaves fields out looks like a full replace unless the schemas or a read tell.

Every store has four camelCase tools, no annotations, and answers in its own shapes:
- chartTrail(slug, ranger="", miles=0, loop=false, tags=[]): answers the text "charted SLUG"; a slug
  charted before is refused (isError).
- amendTrail(slug, ranger?, miles?, loop?, tags?): each field optional with a null default (no
  default of the creator's); answers {"amended": SLUG, "set": [names]}.
- lookTrail(slug): {"found": {...the trail}}; an unknown slug is refused.
- allTrails(): {"trails": [...], "n": count}, in the order charted.

Stores (`--store`): `amend` and `retag` change only the fields given (a patch); `recast` is a correct
full replace whose schema does not say so (every field it is not given returns to chartTrail's
default). `--bug`: `amend` lands on a blank trail (every field left out returns to its default);
`retag` loses the tags whenever they are left out, and keeps the rest. `recast` has no bug.

    python tests/servers/trail_amends.py --store amend|retag|recast [--bug]
"""

from __future__ import annotations

import argparse
from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{1,30}$", description="The trail's slug.")]
DEFAULTS: dict[str, Any] = {"ranger": "", "miles": 0.0, "loop": False, "tags": []}


def build(store: str, bug: bool) -> MCPServer:
    mcp = MCPServer(f"trail-amends-{store}", log_level="WARNING")
    trails: dict[str, dict[str, Any]] = {}

    def trail(slug: str) -> dict[str, Any]:
        if slug not in trails:
            raise ValueError(f"no trail {slug!r}")
        return trails[slug]

    @mcp.tool()
    def chartTrail(slug: Slug, ranger: Annotated[str, Field(max_length=120)] = "", miles: float = 0.0,
                   loop: bool = False, tags: Annotated[list[str], Field(max_length=6)] = []) -> str:  # noqa: B006
        """Charts a new trail."""
        if slug in trails:
            raise ValueError(f"trail {slug!r} is already charted")
        trails[slug] = {"slug": slug, "ranger": ranger, "miles": miles, "loop": loop, "tags": list(tags)}
        return f"charted {slug}"

    @mcp.tool()
    def amendTrail(slug: Slug, ranger: Annotated[str | None, Field(max_length=120)] = None,
                   miles: float | None = None, loop: bool | None = None,
                   tags: Annotated[list[str] | None, Field(max_length=6)] = None) -> dict[str, Any]:
        """Amends a trail."""
        old = trail(slug)
        given = {k: v for k, v in {"ranger": ranger, "miles": miles, "loop": loop, "tags": tags}.items()
                 if v is not None}
        if store == "recast" or (store == "amend" and bug):
            trails[slug] = {"slug": slug, **DEFAULTS, **given}
        else:
            trails[slug] = {**old, **given, **({"tags": []} if bug and "tags" not in given else {})}
        return {"amended": slug, "set": sorted(given)}

    @mcp.tool()
    def lookTrail(slug: Slug) -> dict[str, Any]:
        """One trail."""
        return {"found": dict(trail(slug))}

    @mcp.tool()
    def allTrails() -> dict[str, Any]:
        """Every trail."""
        return {"trails": [dict(t) for t in trails.values()], "n": len(trails)}

    return mcp


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--store", choices=("amend", "retag", "recast"), required=True)
    parser.add_argument("--bug", action="store_true", help="the buggy twin (amend, retag)")
    args = parser.parse_args()
    if args.bug and args.store == "recast":
        parser.error("recast has no bug: it is the correct replace")
    serving.exit_on_signals()
    build(args.store, args.bug).run()


if __name__ == "__main__":
    main()
