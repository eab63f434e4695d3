"""A shop's coupon book: coupons kept under a code of capitals the caller picks (no marker fits it),
their terms nested in an object (`{"code": "SPRING", "terms": {"percent": 10, "shop": "north"}}`),
answered as structured content.
No tool removes a coupon, and no tool carries annotations or descriptions of its arguments.

- issue(code, percent, shop?): keeps a coupon (a code already kept is overwritten); answers it.
- redeem_check(code): the coupon under that code; an unknown code is an `isError` result.
- book(): every coupon, oldest first.

`--bug blank-coupon`: redeem_check answers an unknown code with a success holding the code alone
(`{"code": "X"}`), as if such a coupon were kept with no terms; nothing is stored.

    python tests/servers/coupon_book.py [--bug blank-coupon]
"""

from __future__ import annotations

from typing import Annotated, Any

import serving
from mcp.server.mcpserver import MCPServer
from pydantic import Field

BUGS = ("blank-coupon",)


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("coupon-book", log_level="WARNING")
    kept: dict[str, dict[str, Any]] = {}

    @mcp.tool(structured_output=True)
    def issue(code: Annotated[str, Field(pattern=r"^[A-Z]{4,10}$")],
              percent: Annotated[int, Field(ge=1, le=90)],
              shop: Annotated[str, Field(max_length=60)] = "any") -> dict[str, Any]:
        """Keeps a coupon."""
        kept[code] = {"code": code, "terms": {"percent": percent, "shop": shop}}
        return kept[code]

    @mcp.tool(structured_output=True)
    def redeem_check(code: str) -> dict[str, Any]:
        """The coupon under a code."""
        if code in kept:
            return kept[code]
        if bug == "blank-coupon":
            return {"code": code}
        raise ValueError(f"unknown coupon {code!r}")

    @mcp.tool(structured_output=True)
    def book() -> dict[str, Any]:
        """Every coupon."""
        return {"coupons": list(kept.values())}

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
