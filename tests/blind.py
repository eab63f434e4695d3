"""A name-blind MCP stdio proxy: serves a server's tools as `t1`, `t2`, … with no descriptions or
titles, so a test can show that what the tester learns comes from watching the server, not from
reading its words.

    python tests/blind.py -- COMMAND [ARGS...]

A raw JSON-RPC line relay on real pipes (stdlib only, cheap to start): the child's answers to
`tools/list` are rewritten (names made opaque in listing order, `description` and `title` dropped
from the tool, its annotations and its schemas; annotation hints and property names kept), the
names of `tools/call` requests are mapped back, and everything else passes through unchanged.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
from typing import IO, Any

WORDS = ("description", "title")
MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
"""Schema members whose keys are names chosen by the server (kept), not keywords."""


def blind_schema(schema: Any) -> Any:
    """The schema without `description` and `title` keywords, wherever they sit; a property named
    `description` stays."""
    if isinstance(schema, list):
        return [blind_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    found: dict[str, Any] = {}
    for key, value in schema.items():
        if key in WORDS:
            continue
        if key in MAPS and isinstance(value, dict):
            found[key] = {name: blind_schema(sub) for name, sub in value.items()}
        else:
            found[key] = blind_schema(value)
    return found


class Names:
    """The opaque name of each real tool name, given in the order the tools are first listed."""

    def __init__(self) -> None:
        self.opaque: dict[str, str] = {}
        self.real: dict[str, str] = {}
        self.lock = threading.Lock()

    def blind(self, name: str) -> str:
        with self.lock:
            if name not in self.opaque:
                alias = f"t{len(self.opaque) + 1}"
                self.opaque[name], self.real[alias] = alias, name
            return self.opaque[name]

    def call(self, name: Any) -> Any:
        """The real name of an alias; a real name is hidden too (sent as `t0`, a name no tool has), so
        a call by a real name fails as an unknown tool would; anything else goes as it came."""
        if not isinstance(name, str):
            return name
        if name in self.real:
            return self.real[name]
        return "t0" if name in self.opaque else name

    def tool(self, tool: Any) -> Any:
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            return tool
        blinded = {k: blind_schema(v) if k in ("inputSchema", "outputSchema") else v
                   for k, v in tool.items() if k not in WORDS and k != "icons"}
        blinded["name"] = self.blind(tool["name"])
        if isinstance(tool.get("annotations"), dict):
            blinded["annotations"] = {k: v for k, v in tool["annotations"].items() if k not in WORDS}
        return blinded


OWN = "blind-list"
"""The id of the proxy's own `tools/list` requests, whose answers the client never sees."""


class Lister:
    """The proxy's own walk of the catalog, for a client that calls a tool before listing any (a
    second session of a client that listed on its first)."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.cursor: Any = None

    def request(self, child: IO[bytes], template: dict[str, Any]) -> None:
        params: dict[str, Any] = {k: v for k, v in (template.get("params") or {}).items() if k == "_meta"}
        if self.cursor is not None:
            params["cursor"] = self.cursor
        message = {"jsonrpc": "2.0", "id": OWN, "method": "tools/list", **({"params": params} if params else {})}
        child.write(json.dumps(message).encode() + b"\n")
        child.flush()

    def walk(self, child: IO[bytes], template: dict[str, Any]) -> None:
        while True:
            self.done.clear()
            self.request(child, template)
            if not self.done.wait(30) or self.cursor is None:
                return


PASSED = object()
"""What `_parsed_or_passed` gives for a line that is no JSON (JSON `null` is a message too)."""


def _parsed_or_passed(line: bytes, out: IO[bytes]) -> Any:
    """The JSON message on a line, or PASSED once a line that is no JSON was passed on unchanged."""
    try:
        return json.loads(line)
    except ValueError:
        out.write(line)
        out.flush()
        return PASSED


def relay_requests(source: IO[bytes], child: IO[bytes], names: Names, listing: set[Any], lister: Lister) -> None:
    """Client → server: `tools/call` names mapped back (the catalog walked first when the client
    calls before listing); the ids of `tools/list` requests noted."""
    for line in source:
        if (message := _parsed_or_passed(line, child)) is PASSED:
            continue
        for item in message if isinstance(message, list) else [message]:
            if not isinstance(item, dict):
                continue
            if item.get("method") == "tools/list" and "id" in item:
                listing.add(json.dumps(item["id"]))
            params = item.get("params")
            if item.get("method") == "tools/call" and isinstance(params, dict):
                if not names.real:
                    lister.walk(child, item)
                params["name"] = names.call(params.get("name"))
        child.write(json.dumps(message).encode() + b"\n")
        child.flush()
    child.close()


def relay_answers(child: IO[bytes], sink: IO[bytes], names: Names, listing: set[Any], lister: Lister) -> None:
    """Server → client: the answers to `tools/list` blinded; the proxy's own listing kept; everything
    else as it came."""
    for line in child:
        if (message := _parsed_or_passed(line, sink)) is PASSED:
            continue
        if isinstance(message, dict) and message.get("id") == OWN:
            result = message.get("result") if isinstance(message.get("result"), dict) else {}
            for tool in result.get("tools") or []:
                names.tool(tool)
            lister.cursor = result.get("nextCursor")
            lister.done.set()
            continue
        if isinstance(message, dict) and json.dumps(message.get("id")) in listing and "result" in message:
            listing.discard(json.dumps(message.get("id")))
            result = message["result"]
            if isinstance(result, dict) and isinstance(result.get("tools"), list):
                result["tools"] = [names.tool(t) for t in result["tools"]]
            line = json.dumps(message).encode() + b"\n"
        sink.write(line)
        sink.flush()


def main(argv: list[str]) -> int:
    command = argv[1:] if argv[:1] == ["--"] else argv
    if not command:
        print("usage: blind.py -- COMMAND [ARGS...]", file=sys.stderr)
        return 2
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    names, listing, lister = Names(), set[Any](), Lister()
    answers = threading.Thread(target=relay_answers, args=(child.stdout, sys.stdout.buffer, names, listing, lister),
                               daemon=True)
    answers.start()
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        relay_requests(sys.stdin.buffer, child.stdin, names, listing, lister)
    code = child.wait()
    answers.join(timeout=5)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
