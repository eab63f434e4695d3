"""Read-only tools that serve only values a caller must already know, so made-up ones never succeed.

No bug: every tool answers every call, and refuses an unknown invoice or account with an isError
result. A test that only invents values never sees one success; `--arg` with a real value does.

- `fetch_invoice(invoice_id)`: `INV-1001` and `INV-1002` exist.
- `account_balance(account, currency?)`: account `acme` exists.

    python tests/servers/locked_tools.py [--http PORT]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server
from serving import serve

_READ = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
_INVOICES = {"INV-1001": 120.5, "INV-1002": 80.0}
_ACCOUNTS = {"acme": 1000.0}
_SCHEMAS: dict[str, dict[str, Any]] = {
    "fetch_invoice": {"type": "object", "properties": {
        "invoice_id": {"type": "string", "description": "An existing invoice id, such as INV-1001."}},
        "required": ["invoice_id"]},
    "account_balance": {"type": "object", "properties": {
        "account": {"type": "string", "description": "An existing account name."},
        "currency": {"type": "string", "enum": ["EUR", "USD"], "description": "Currency of the answer."}},
        "required": ["account"]},
}


def _answer(text: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def build_server() -> Server[Any]:
    tools = [types.Tool(name=name, description=f"Read one {name.split('_')[-1]} of the ledger by its id.",
                        input_schema=schema, annotations=_READ) for name, schema in _SCHEMAS.items()]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        args = params.arguments or {}
        if params.name == "fetch_invoice":
            invoice = args.get("invoice_id")
            if not isinstance(invoice, str):
                return _answer("invoice_id must be a string", error=True)
            if invoice not in _INVOICES:
                return _answer(f"invoice {invoice!r} not found", error=True)
            return _answer(json.dumps({"invoice_id": invoice, "total": _INVOICES[invoice]}))
        if params.name == "account_balance":
            account = args.get("account")
            if not isinstance(account, str) or args.get("currency", "EUR") not in ("EUR", "USD"):
                return _answer("account must be a string and currency EUR or USD", error=True)
            if account not in _ACCOUNTS:
                return _answer(f"no account named {account!r}", error=True)
            return _answer(json.dumps({"account": account, "balance": _ACCOUNTS[account]}))
        return _answer(f"unknown tool {params.name}", error=True)

    return Server("locked-tools", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT/mcp")
    args = parser.parse_args(argv)
    serve(build_server(), args.http)


if __name__ == "__main__":
    main()
