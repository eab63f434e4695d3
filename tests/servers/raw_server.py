"""A hand-written JSON-RPC stdio server that misbehaves on request.

No SDK on purpose: it must be able to break the protocol in ways an SDK would not allow.
`python tests/servers/raw_server.py [--http PORT] MODE...` where each MODE turns one behaviour on (any
other word is ignored, so a test can pass a unique token to find the process in /proc). With
`--http PORT` it serves streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio: every POST is
answered with one JSON body (the modes that write to stdout or stderr, and `linger`, do nothing there,
and a crash ends the whole server):

  paginate        tools/list in three pages; the second cursor is the empty string
  cursor-loop     tools/list hands back the same cursor forever
  die-at-start    writes to stderr and exits 3 before reading anything
  no-handshake    reads requests and never answers
  noise           prints non-protocol lines on stdout before every answer
  flood-stderr    writes ~5 MB to stderr at start and before every answer
  wrong-id        answers `echo` with a response whose id is off by 1000
  bad-error       answers `echo` with an error whose code is a string
  bad-result      answers `echo` with a result whose content is not a list
  huge            `echo` answers with a text result of RAW_SERVER_HUGE_MB MB (default 40)
  bad-catalog     lists an invalid inputSchema, a missing one, an unsatisfiable one and a duplicate name
  crashy          adds `crash_above(n)`: 0 <= n <= 1000, the process exits when n > 50
  hangy           adds `hang_long(text)`: never answers when the text is longer than 3 characters
  rpc-faults      adds three tools that always misbehave, whatever the arguments: `wrong_id(text)`
                  answers with an id off by 1000, `bad_error(text)` with an error whose code is a
                  string, `bad_result(text)` with a result whose content is not a list
  surfaces        also offers resources (raw://readme and a shelf per genre, raw://shelf/NAME with
                  the name percent-encoded) and one prompt (greet, one required argument `name`);
                  an unknown URI is refused with -32002, an unknown prompt or a missing argument
                  with -32602
  undecoded       (with surfaces) never percent-decodes a shelf URI, so every shelf whose name
                  needs escaping cannot be read
  zero-code       refuses every unknown name (tool, resource URI, prompt) and a missing prompt
                  argument with a JSON-RPC error whose code is 0
  exit-on-unknown exits with code 2 (and a line on stderr) on a request whose method it does not
                  know, as servers built on the Python SDK up to 1.6 do on `server/discover`
  drop-unknown    never answers a request whose method it does not know, and says nothing about it
  linger          keeps running after stdin closes (until a signal ends it), like a server that
                  ignores end of input
  late-report     a crash leaves its stderr line to a crash reporter of its own session, which
                  writes it 0.2 s after the server exited

Always present: `echo(text)` (read-only), `crash(text)` exits when text contains "boom",
`hang(text)` never answers when text contains "wait". Arguments that break a tool's inputSchema
get an isError result (tools with a broken schema accept anything).

Environment:
  RAW_SERVER_PIDFILE  append this process's pid (one line) to the file at start
  RAW_SERVER_LOG      append `METHOD ID` for every message received (notifications too)
  RAW_SERVER_HUGE_MB  size of the `huge` result in MB
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import quote, unquote

import jsonschema

ARGS = sys.argv[1:]
HTTP_PORT = int(ARGS[ARGS.index("--http") + 1]) if "--http" in ARGS else None
MODES = set(ARGS)
LOG = os.environ.get("RAW_SERVER_LOG")


def _tool(name: str, description: str, properties: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": properties, "required": list(properties)},
            "annotations": {"readOnlyHint": True}}


TEXT = {"type": "string", "description": "Any text."}
ECHO = _tool("echo", "Echo the text back.", {"text": TEXT})
CRASH = _tool("crash", "Exits the server process when the text contains 'boom'.", {"text": TEXT})
HANG = _tool("hang", "Never answers when the text contains 'wait'.", {"text": TEXT})
CRASH_ABOVE = _tool("crash_above", "Exits the server process when n is greater than 50.",
                    {"n": {"type": "integer", "minimum": 0, "maximum": 1000, "description": "A number."}})
HANG_LONG = _tool("hang_long", "Never answers when the text is longer than 3 characters.", {"text": TEXT})
TOOLS: list[dict[str, Any]] = [ECHO, CRASH, HANG]
if "rpc-faults" in MODES:
    TOOLS[:0] = [_tool("wrong_id", "Answers with an id that is off by 1000.", {"text": TEXT}),
                 _tool("bad_error", "Answers with an error whose code is a string.", {"text": TEXT}),
                 _tool("bad_result", "Answers with a result whose content is not a list.", {"text": TEXT})]
if "crashy" in MODES:
    TOOLS.insert(0, CRASH_ABOVE)
if "hangy" in MODES:
    TOOLS.insert(0, HANG_LONG)
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
CATALOG = TOOLS + (BAD_TOOLS if "bad-catalog" in MODES else [])


def _validator(tool: dict[str, Any]) -> jsonschema.protocols.Validator | None:
    schema = tool.get("inputSchema")
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError:
        return None
    return jsonschema.Draft202012Validator(schema)


VALIDATORS = {t["name"]: _validator(t) for t in reversed(CATALOG)}  # the first tool of a name wins


_ANSWER = threading.local()
"""Over HTTP, the request handler's thread collects its answer here instead of writing to stdout."""


def send(message: dict[str, Any]) -> None:
    if HTTP_PORT is not None:
        _ANSWER.messages.append(message)
        return
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


def text(value: str, *, is_error: bool = False) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": value}], "isError": is_error}


README = {"uri": "raw://readme", "name": "readme", "description": "What this server is.", "mimeType": "text/plain"}
SHELVES = {"Science Fiction": 12, "Art & Design": 4, "Poetry": 7, "Cookery/Baking": 3}
SHELF_ENTRIES = [{"uri": f"raw://shelf/{quote(name, safe='')}", "name": name, "mimeType": "text/plain",
                  "description": f"How many books stand on the {name} shelf."} for name in SHELVES]
GREET = {"name": "greet", "description": "A greeting for someone.",
         "arguments": [{"name": "name", "description": "Who to greet.", "required": True}]}


def refuse(request_id: Any, code: int, message: str) -> None:
    """Refuse a request for something unknown: with `code`, or with 0 under `zero-code`."""
    error(request_id, 0 if "zero-code" in MODES else code, message)


def read_resource(request_id: Any, params: dict[str, Any]) -> None:
    uri = str(params.get("uri"))
    if uri.startswith("raw://shelf/"):
        tail = uri.removeprefix("raw://shelf/")
        name = tail if "undecoded" in MODES else unquote(tail)
        if name in SHELVES:
            result(request_id, {"contents": [{"uri": uri, "mimeType": "text/plain",
                                              "text": f"{name}: {SHELVES[name]} books"}]})
        else:
            refuse(request_id, -32002, f"Resource not found: {uri}")
        return
    if uri != README["uri"]:
        refuse(request_id, -32002, f"Resource not found: {params.get('uri')}")
        return
    result(request_id, {"contents": [{"uri": README["uri"], "mimeType": "text/plain",
                                      "text": "A hand-written JSON-RPC server."}]})


def get_prompt(request_id: Any, params: dict[str, Any]) -> None:
    arguments = params.get("arguments") or {}
    if params.get("name") != GREET["name"]:
        refuse(request_id, -32602, f"Unknown prompt: {params.get('name')}")
    elif not isinstance(arguments, dict) or not isinstance(arguments.get("name"), str):
        refuse(request_id, -32602, "Missing required argument: name")
    else:
        result(request_id, {"messages": [{"role": "user", "content": {
            "type": "text", "text": f"Say hello to {arguments['name']}."}}]})


def list_tools(request_id: Any, params: dict[str, Any]) -> None:
    cursor = params.get("cursor")
    if "cursor-loop" in MODES:
        result(request_id, {"tools": CATALOG[:1], "nextCursor": "again"})
    elif "paginate" in MODES:
        pages = {None: (CATALOG[:1], ""), "": (CATALOG[1:2], "last"), "last": (CATALOG[2:], None)}
        tools, next_cursor = pages.get(cursor, ([], None))
        page: dict[str, Any] = {"tools": tools}
        if next_cursor is not None:
            page["nextCursor"] = next_cursor
        result(request_id, page)
    else:
        result(request_id, {"tools": CATALOG})


def call_tool(request_id: Any, params: dict[str, Any]) -> None:
    name = params.get("name")
    arguments = params.get("arguments")
    if not isinstance(arguments, dict):
        arguments = {}
    value = arguments.get("text")
    if name == "crash" and isinstance(value, str) and "boom" in value:
        die(f"fatal: cannot handle {value!r}")
    if name == "crash_above" and isinstance(arguments.get("n"), int) and arguments["n"] > 50:
        die(f"fatal: n={arguments['n']} overflows the buffer")
    if name == "hang" and isinstance(value, str) and "wait" in value:
        return
    if name == "hang_long" and isinstance(value, str) and len(value) > 3:
        return
    if name not in VALIDATORS:
        refuse(request_id, -32602, f"Unknown tool: {name}")
        return
    validator = VALIDATORS[name]
    problem = jsonschema.exceptions.best_match(validator.iter_errors(arguments)) if validator else None
    if problem is not None:
        result(request_id, text(f"invalid arguments: {problem.message}", is_error=True))
    elif name == "wrong_id" or (name == "echo" and "wrong-id" in MODES):
        result(request_id + 1000, text(str(value)))
    elif name == "bad_error" or (name == "echo" and "bad-error" in MODES):
        error(request_id, "oops", "the code of this error is a string")
    elif name == "bad_result" or (name == "echo" and "bad-result" in MODES):
        result(request_id, {"content": "not a list"})
    elif name == "echo" and "huge" in MODES:
        size = int(float(os.environ.get("RAW_SERVER_HUGE_MB", "40")) * 1_000_000)
        result(request_id, text("y" * size))
    else:
        result(request_id, text(json.dumps(arguments)))


def die(message: str) -> None:
    if "late-report" in MODES:
        reporter = f"import sys, time; time.sleep(0.2); sys.stderr.write({message + chr(10)!r})"
        subprocess.Popen([sys.executable, "-c", reporter], start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL)
    else:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    os._exit(9)


def log(request: dict[str, Any]) -> None:
    if LOG:
        with open(LOG, "a", encoding="utf-8") as handle:
            handle.write(f"{request.get('method')} {json.dumps(request.get('id'))}\n")


def dispatch(request: Any) -> None:
    """Answer one message (through `send`), or not at all: notifications, hangs, `no-handshake`."""
    if not isinstance(request, dict):
        return
    log(request)
    if "no-handshake" in MODES or "id" not in request:
        return
    method, request_id, params = request.get("method"), request["id"], request.get("params") or {}
    surfaces = "surfaces" in MODES
    if method == "initialize":
        offered: dict[str, Any] = {"tools": {}, **({"resources": {}, "prompts": {}} if surfaces else {})}
        result(request_id, {"protocolVersion": "2025-11-25", "capabilities": offered,
                            "serverInfo": {"name": "raw-server", "version": "0.0.1"}})
    elif method == "tools/list":
        list_tools(request_id, params)
    elif method == "tools/call":
        call_tool(request_id, params)
    elif surfaces and method == "resources/list":
        result(request_id, {"resources": [README, *SHELF_ENTRIES]})
    elif surfaces and method == "resources/templates/list":
        result(request_id, {"resourceTemplates": []})
    elif surfaces and method == "resources/read":
        read_resource(request_id, params)
    elif surfaces and method == "prompts/list":
        result(request_id, {"prompts": [GREET]})
    elif surfaces and method == "prompts/get":
        get_prompt(request_id, params)
    elif method == "ping":
        result(request_id, {})
    elif "exit-on-unknown" in MODES:
        sys.stderr.write(f"raw_server: unknown method {method!r}\n")
        sys.stderr.flush()
        os._exit(2)
    elif "drop-unknown" in MODES:
        return
    else:
        error(request_id, -32601, f"Method not found: {method}")


class _HttpHandler(BaseHTTPRequestHandler):
    """Streamable HTTP without sessions or SSE: a POSTed request gets one JSON body, a
    notification 202, a GET (the optional event stream) 405."""

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            request = json.loads(body)
        except ValueError:
            request = None
        _ANSWER.messages = []
        dispatch(request)
        if not _ANSWER.messages:
            if isinstance(request, dict) and "id" in request:
                threading.Event().wait()  # a hanging tool, or no-handshake: never answer
            self._reply(202, b"")
            return
        self._reply(200, json.dumps(_ANSWER.messages[0]).encode(), "application/json")

    def do_GET(self) -> None:
        self._reply(405, b"")

    def do_DELETE(self) -> None:
        self._reply(200, b"")

    def _reply(self, status: int, body: bytes, content_type: str | None = None) -> None:
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the tests read the server's answers, not its access log."""


def main() -> None:
    pidfile = os.environ.get("RAW_SERVER_PIDFILE")
    if pidfile:
        with open(pidfile, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()}\n")
    if "die-at-start" in MODES:
        sys.stderr.write("raw_server: cannot open database 'notes.db': permission denied\n")
        sys.exit(3)
    if HTTP_PORT is not None:
        server = ThreadingHTTPServer(("127.0.0.1", HTTP_PORT), _HttpHandler)
        server.daemon_threads = True
        server.serve_forever()
    if "flood-stderr" in MODES:
        for _ in range(5):
            sys.stderr.write("w" * 1_000_000 + "\n")
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        dispatch(request)
    while "linger" in MODES:
        time.sleep(1)


if __name__ == "__main__":
    main()
