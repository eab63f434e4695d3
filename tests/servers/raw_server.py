"""A hand-written JSON-RPC stdio server that misbehaves on request.

No SDK on purpose: it must be able to break the protocol in ways an SDK would not allow.
`python tests/servers/raw_server.py MODE...` where each MODE turns one behaviour on:

  paginate        tools/list in three pages; the second cursor is the empty string
  cursor-loop     tools/list hands back the same cursor forever
  die-at-start    writes to stderr and exits 3 before reading anything
  no-handshake    reads requests and never answers
  noise           prints non-protocol lines on stdout before every answer
  flood-stderr    writes ~5 MB to stderr at start and before every answer
  wrong-id        answers `echo` with a response whose id is off by 1000
  bad-error       answers `echo` with an error whose code is a string
  bad-result      answers `echo` with a result whose content is not a list
  huge            `echo` answers with a ~40 MB text result
  bad-catalog     lists an invalid inputSchema, a missing one, an unsatisfiable one and a duplicate name

Always present: `echo(text)` (read-only), `crash(text)` exits when text contains "boom",
`hang(text)` never answers when text contains "wait".
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

MODES = set(sys.argv[1:])

ECHO = {"name": "echo", "description": "Echo the text back.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        "annotations": {"readOnlyHint": True}}
CRASH = {"name": "crash", "description": "Exits the server process when the text contains 'boom'.",
         "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
         "annotations": {"readOnlyHint": True}}
HANG = {"name": "hang", "description": "Never answers when the text contains 'wait'.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        "annotations": {"readOnlyHint": True}}
TOOLS: list[dict[str, Any]] = [ECHO, CRASH, HANG]
BAD_TOOLS: list[dict[str, Any]] = [
    {"name": "bad_schema", "description": "Its schema has a type that does not exist.",
     "inputSchema": {"type": "object", "properties": {"n": {"type": "integr"}}}},
    {"name": "no_schema", "description": "Declares no inputSchema at all."},
    {"name": "impossible", "description": "Its schema can never be satisfied.",
     "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 5, "maximum": 1}},
                     "required": ["n"]}},
    {"name": "echo", "description": "A second tool with the name echo.",
     "inputSchema": {"type": "object"}},
]


def send(message: dict[str, Any]) -> None:
    if "noise" in MODES:
        sys.stdout.write("starting worker... this line is not JSON-RPC\n")
    if "flood-stderr" in MODES:
        sys.stderr.write("x" * 1_000_000 + "\n")
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def result(request_id: Any, value: dict[str, Any]) -> None:
    send({"jsonrpc": "2.0", "id": request_id, "result": value})


def error(request_id: Any, code: Any, message: str) -> None:
    send({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}})


def text(value: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": value}], "isError": False}


def list_tools(request_id: Any, params: dict[str, Any]) -> None:
    catalog = TOOLS + (BAD_TOOLS if "bad-catalog" in MODES else [])
    cursor = params.get("cursor")
    if "cursor-loop" in MODES:
        result(request_id, {"tools": catalog[:1], "nextCursor": "again"})
    elif "paginate" in MODES:
        pages = {None: (catalog[:1], ""), "": (catalog[1:2], "last"), "last": (catalog[2:], None)}
        tools, next_cursor = pages.get(cursor, ([], None))
        result(request_id, {"tools": tools, **({"nextCursor": next_cursor} if next_cursor is not None else {})})
    else:
        result(request_id, {"tools": catalog})


def call_tool(request_id: Any, params: dict[str, Any]) -> None:
    name = params.get("name")
    value = str((params.get("arguments") or {}).get("text", ""))
    if name == "crash" and "boom" in value:
        sys.stderr.write(f"fatal: cannot handle {value!r}\n")
        sys.stderr.flush()
        os._exit(9)
    if name == "hang" and "wait" in value:
        return
    if name not in {t["name"] for t in TOOLS + BAD_TOOLS}:
        error(request_id, -32602, f"Unknown tool: {name}")
        return
    if name == "echo" and "wrong-id" in MODES:
        result(request_id + 1000, text(value))
    elif name == "echo" and "bad-error" in MODES:
        error(request_id, "oops", "the code of this error is a string")
    elif name == "echo" and "bad-result" in MODES:
        result(request_id, {"content": "not a list"})
    elif name == "echo" and "huge" in MODES:
        result(request_id, text("y" * 40_000_000))
    else:
        result(request_id, text(value))


def main() -> None:
    if "die-at-start" in MODES:
        sys.stderr.write("raw_server: cannot open database 'notes.db': permission denied\n")
        sys.exit(3)
    if "flood-stderr" in MODES:
        for _ in range(5):
            sys.stderr.write("w" * 1_000_000 + "\n")
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        if "no-handshake" in MODES or "id" not in request:
            continue
        method, request_id, params = request.get("method"), request["id"], request.get("params") or {}
        if method == "initialize":
            result(request_id, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                                "serverInfo": {"name": "raw-server", "version": "0.0.1"}})
        elif method == "tools/list":
            list_tools(request_id, params)
        elif method == "tools/call":
            call_tool(request_id, params)
        elif method == "ping":
            result(request_id, {})
        else:
            error(request_id, -32601, f"Method not found: {method}")
        time.sleep(0)


if __name__ == "__main__":
    main()
