"""The catalog for people (a rich table) and for machines (JSON)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import ServerInfo
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.report.issues import era_label


def catalog_json(tools: list[Tool], server: ServerInfo | None) -> dict[str, Any]:
    return {
        "server": server.to_dict() if server else None,
        "tools": [
            {
                **tool.to_dict(),
                "x-hypothesis-mcp": {
                    "role": tool.role,
                    "key_fields": profile(tool).key_fields,
                    "bounds": [
                        {"param": b.param, "kind": b.kind, "required": b.required} for b in profile(tool).bounds
                    ],
                },
            }
            for tool in tools
        ],
    }


def print_catalog(console: Console, tools: list[Tool], server: ServerInfo | None) -> None:
    if server:
        console.print(
            f"[bold]{server.name or 'unnamed server'}[/bold] {server.version}  "
            f"MCP {server.protocol_version} ({era_label(server.era, server.handshake)})"
        )
    table = Table(title=f"{len(tools)} tool(s)")
    for column in ("Tool", "Role", "Key fields", "Bounds", "Annotations", "Output schema"):
        table.add_column(column)
    for tool in tools:
        hints = ", ".join(
            f"{k.removesuffix('Hint')}={v}" for k, v in tool.annotations.items() if k.endswith("Hint")
        ) or "-"
        table.add_row(
            tool.name,
            tool.role,
            ", ".join(profile(tool).key_fields) or "-",
            ", ".join(f"{b.param} ({b.kind})" for b in profile(tool).bounds) or "-",
            hints,
            "yes" if tool.output_schema is not None else "no",
        )
    console.print(table)
