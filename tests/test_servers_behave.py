"""The servers under test misbehave exactly as documented, and their twins do not.

Real server processes, driven with the raw SDK client (no output-schema check of its own, so a
broken result reaches us as sent). Each server file runs every variant once, concurrently, and
records what it observed; each test compares one variant's observations with the correct twin's,
changed only where its bug should show. One variant per server runs over streamable HTTP instead
of stdio and must exit with status 0 on SIGTERM.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client, types
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

import zygote

ROOT = Path(__file__).resolve().parents[1]
ENV = {"PYTHONPATH": str(ROOT / "src")}
LAUNCHER = str(ROOT / "tests/zygote.py")
"""Every server starts as `python tests/zygote.py ARGS...`: forked by the suite's zygote, which
imported the SDK once, instead of importing it again (about 0.8 s of CPU a start)."""


def server_env(**extra: str) -> dict[str, str]:
    """The environment of a stdio server: the SDK passes on only a few variables, so the zygote's
    address goes with the rest."""
    return {**ENV, **({zygote.ENV: os.environ[zygote.ENV]} if zygote.ENV in os.environ else {}), **extra}
SAMPLE = ["-m", "hypothesis_mcp.sample_server"]
SMOKE_SERVER = [str(ROOT / "tests/servers/smoke_bugs.py")]
PROBE_SERVER = [str(ROOT / "tests/servers/probe_bugs.py")]
SMOKE_DEMO = [str(ROOT / "examples/smoke_demo/server.py")]

Observations = dict[str, Any]
Scenario = Callable[["Session"], Awaitable[Observations]]


class Session:
    """A connected client that returns raw tool results and turns JSON-RPC errors into values."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.output_schemas: dict[str, Any] = {}

    async def list_tools(self) -> list[types.Tool]:
        tools = (await self.client.list_tools()).tools
        self.output_schemas = {tool.name: tool.output_schema for tool in tools}
        return tools

    async def call(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult | MCPError:
        request = types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=arguments))
        try:
            return await self.client.session.send_request(request, types.CallToolResult)
        except MCPError as error:
            return error

    async def outcome(self, name: str, arguments: dict[str, Any]) -> str:
        """rejected (isError or JSON-RPC error), ok, or bad-output (success that breaks the output schema)."""
        result = await self.call(name, arguments)
        if isinstance(result, MCPError) or result.is_error:
            return "rejected"
        schema = self.output_schemas.get(name)
        if schema is not None and not jsonschema.Draft202012Validator(schema).is_valid(
            result.structured_content
        ):
            return "bad-output"
        return "ok"

    async def structured(self, name: str, arguments: dict[str, Any]) -> Any:
        result = await self.call(name, arguments)
        assert isinstance(result, types.CallToolResult) and not result.is_error, result
        return result.structured_content

    async def text(self, name: str, arguments: dict[str, Any]) -> str:
        result = await self.call(name, arguments)
        assert isinstance(result, types.CallToolResult), result
        content = result.content[0]
        assert isinstance(content, types.TextContent)
        return content.text


async def _observe_stdio(args: list[str], scenario: Scenario) -> Observations:
    params = StdioServerParameters(command=sys.executable, args=[LAUNCHER, *args], env=server_env())
    async with Client(params, cache=None) as client:
        session = Session(client)
        await session.list_tools()
        return await scenario(session)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


HTTP_EXIT: Observations = {"exit status after SIGTERM": 0}


async def _observe_http(args: list[str], scenario: Scenario) -> Observations:
    """Run the scenario over streamable HTTP, then SIGTERM the server and record its exit status."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, LAUNCHER, *args, "--http", str(port)], env={**os.environ, **ENV}, stderr=subprocess.DEVNULL
    )
    try:
        await _wait_for_port(port, process)
        async with Client(f"http://127.0.0.1:{port}/mcp", cache=None) as client:
            session = Session(client)
            await session.list_tools()
            observed = await scenario(session)
        process.send_signal(signal.SIGTERM)
        observed["exit status after SIGTERM"] = await asyncio.to_thread(process.wait, 10)
        return observed
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def _observe(args: list[str], bug: str | None, http_bug: str, scenario: Scenario) -> Awaitable[Observations]:
    """One variant per server runs over HTTP instead of stdio: same checks, one process fewer."""
    args = [*args, *(["--bug", bug] if bug else [])]
    return _observe_http(args, scenario) if bug == http_bug else _observe_stdio(args, scenario)


async def _wait_for_port(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)
        else:
            writer.close()
            await writer.wait_closed()
            return


def _run_all(runs: dict[Any, Awaitable[Any]]) -> dict[Any, Any]:
    """Run every variant at once (server start-up dominates); a failure is kept for its own test."""

    async def gather() -> list[Any]:
        return await asyncio.gather(*runs.values(), return_exceptions=True)

    return dict(zip(runs, asyncio.run(gather()), strict=True))


def _result(results: dict[Any, Any], key: Any) -> Any:
    result = results[key]
    if isinstance(result, BaseException):
        raise result
    return result


# --- sample_server -----------------------------------------------------------------------------


async def sample_scenario(s: Session) -> Observations:
    seen: Observations = {
        "list limit=1": len((await s.structured("list_notes", {"limit": 1}))["notes"]),
        "list default": len((await s.structured("list_notes", {}))["notes"]),
        "first create": await s.text("create_note", {"title": "A", "body": "first"}),
        "second create": await s.text("create_note", {"title": "A", "body": "second", "tags": ["t"]}),
    }
    seen["A body"] = (await s.structured("get_note", {"title": "A"}))["note"]["body"]
    await s.text("create_note", {"title": "B", "body": "other"})
    seen["titles"] = [note["title"] for note in (await s.structured("list_notes", {"limit": 100}))["notes"]]
    seen["search 'other'"] = [
        n["title"] for n in (await s.structured("search_notes", {"query": "OTHER"}))["notes"]
    ]
    seen["missing note"] = await s.structured("get_note", {"title": "nope"})
    for fmt in ("markdown", "json", "html"):
        seen[f"export {fmt}"] = await s.outcome("export_notes", {"format": fmt})
    for label, name, args in [
        ("limit as string", "list_notes", {"limit": "5"}),
        ("limit out of range", "list_notes", {"limit": 101}),
        ("tags as JSON text", "create_note", {"title": "C", "body": "b", "tags": '["x"]'}),
        ("empty title", "create_note", {"title": "", "body": "b"}),
        ("missing body", "create_note", {"title": "C"}),
        ("bad enum", "export_notes", {"format": "pdf"}),
    ]:
        result = await s.call(name, args)
        seen[label] = result.code if isinstance(result, MCPError) else "accepted"
    unknown = await s.call("no_such_tool", {})
    seen["unknown tool"] = unknown.code if isinstance(unknown, MCPError) else "result"
    return seen


SAMPLE_TWIN: Observations = {
    "list limit=1": 1,
    "list default": 3,
    "first create": "Created note 'A'",
    "second create": "Updated note 'A'",
    "A body": "second",
    "titles": ["B", "A", "Standup", "Groceries", "Welcome"],
    "search 'other'": ["B"],
    "missing note": {"found": False, "note": None},
    "export markdown": "ok",
    "export json": "ok",
    "export html": "bad-output",
    "limit as string": -32602,
    "limit out of range": -32602,
    "tags as JSON text": -32602,
    "empty title": -32602,
    "missing body": -32602,
    "bad enum": -32602,
    "unknown tool": -32602,
}
SAMPLE_BUGS: dict[str | None, Observations] = {
    None: {},
    "silent-skip": {"second create": "Created note 'A'", "A body": "first"},
    "lose-on-write": {"titles": ["B"]},
    "limit-ignored": {"list limit=1": 3},
}


@functools.cache
def sample_results() -> dict[Any, Any]:
    return _run_all({bug: _observe(SAMPLE, bug, "silent-skip", sample_scenario) for bug in SAMPLE_BUGS})


@pytest.mark.parametrize("bug", list(SAMPLE_BUGS))
def test_sample_server(bug: str | None) -> None:
    http = HTTP_EXIT if bug == "silent-skip" else {}
    assert _result(sample_results(), bug) == SAMPLE_TWIN | SAMPLE_BUGS[bug] | http


# --- smoke_bugs --------------------------------------------------------------------------------

SMOKE_CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "count 0 items": ("count_items", {"items": []}),
    "count 3 items": ("count_items", {"items": ["c", "a", "b"]}),
    "count 4 items": ("count_items", {"items": ["d", "c", "a", "b"]}),
    "count wrong type": ("count_items", {"items": "abcd"}),
    "square 0": ("square", {"n": 0}),
    "square 1000": ("square", {"n": 1000}),
    "square 1001": ("square", {"n": 1001}),
    "square 100000": ("square", {"n": 100000}),
    "square over max": ("square", {"n": 100001}),
    "score 1": ("score_label", {"n": 1}),
    "score 10": ("score_label", {"n": 10}),
    "score 0": ("score_label", {"n": 0}),
    "score 11": ("score_label", {"n": 11}),
    "score wrong type": ("score_label", {"n": "5"}),
    "greeting en": ("greeting", {"language": "en"}),
    "greeting de": ("greeting", {"language": "de"}),
    "greeting es": ("greeting", {"language": "es"}),
    "greeting wrong type": ("greeting", {"language": 1}),
    "echo": ("echo", {"message": "hi"}),
    "echo extra property": ("echo", {"message": "hi", "loud": True}),
    "echo missing message": ("echo", {}),
    "echo wrong type": ("echo", {"message": 3}),
}
SMOKE_REJECTED = {
    "count wrong type", "square over max", "score 0", "score 11", "score wrong type", "greeting es",
    "greeting wrong type", "echo extra property", "echo missing message", "echo wrong type",
}  # fmt: skip
SMOKE_TWIN: Observations = {case: "rejected" if case in SMOKE_REJECTED else "ok" for case in SMOKE_CASES}
SMOKE_BUGS: dict[str | None, Observations] = {
    None: {},
    "long-list": {"count 4 items": "bad-output"},
    "big-number": {"square 1001": "bad-output", "square 100000": "bad-output"},
    "picky-big-number": {"square 0": "rejected", "square 1001": "bad-output", "square 100000": "bad-output"},
    "range-unchecked": {"score 0": "ok", "score 11": "ok"},
    "enum-unchecked": {"greeting es": "ok"},
    "extra-props": {"echo extra property": "ok"},
}


async def smoke_scenario(s: Session) -> Observations:
    seen = {case: await s.outcome(name, args) for case, (name, args) in SMOKE_CASES.items()}
    unknown = await s.call("no_such_tool", {})
    seen["unknown tool code"] = unknown.code if isinstance(unknown, MCPError) else "result"
    return seen


@functools.cache
def smoke_results() -> dict[Any, Any]:
    return _run_all(
        {bug: _observe(SMOKE_SERVER, bug, "range-unchecked", smoke_scenario) for bug in SMOKE_BUGS}
    )


@pytest.mark.parametrize("bug", list(SMOKE_BUGS))
def test_smoke_bugs_server(bug: str | None) -> None:
    http = HTTP_EXIT if bug == "range-unchecked" else {}
    assert (
        _result(smoke_results(), bug) == SMOKE_TWIN | SMOKE_BUGS[bug] | {"unknown tool code": -32602} | http
    )


# --- probe_bugs --------------------------------------------------------------------------------


async def probe_scenario(s: Session) -> Observations:
    async def names(limit: int) -> list[str]:
        return [r["name"] for r in (await s.structured("list_records", {"limit": limit}))["records"]]

    async def value(name: str) -> str | None:
        found = (await s.structured("search_records", {"query": name}))["records"]
        return next((r["value"] for r in found if r["name"] == name), None)

    seen: Observations = {"empty list": await names(10)}
    await s.text("create_record", {"name": "log", "value": "l1\nl2\nl3\nl4\nl5\nl6"})
    seen["tail"] = [(await s.structured("read_lines", {"name": "log", "tail": n}))["lines"] for n in range(6)]
    seen["head"] = [
        len((await s.structured("read_lines", {"name": "log", "head": n}))["lines"]) for n in range(4)
    ]
    seen["head 4 tail 2"] = (await s.structured("read_lines", {"name": "log", "head": 4, "tail": 2}))["lines"]
    for i in range(1, 8):
        await s.text("create_record", {"name": f"r{i}", "value": f"value {i}"})
    seen["names"] = await names(50)
    seen["list sizes"] = [len(await names(n)) for n in range(1, 8)]
    seen["default limit"] = len((await s.structured("list_records", {}))["records"])
    seen["overwrite message"] = await s.text("create_record", {"name": "r7", "value": "VALUE 7"})
    seen["after same-length overwrite"] = await value("r7")
    await s.text("create_record", {"name": "r7", "value": "v7"})
    seen["after shorter overwrite"] = await value("r7")
    await s.text("create_record", {"name": "r7", "value": "a longer value 7"})
    seen["after longer overwrite"] = await value("r7")
    for label, name, args in [
        ("read missing record", "read_lines", {"name": "nope"}),
        ("limit 0", "list_records", {"limit": 0}),
        ("limit 51", "list_records", {"limit": 51}),
        ("negative tail", "read_lines", {"name": "r7", "tail": -1}),
        ("missing value", "create_record", {"name": "x"}),
        ("unknown tool", "no_such_tool", {}),
    ]:
        result = await s.call(name, args)
        seen[label] = (
            result.code if isinstance(result, MCPError) else "isError" if result.is_error else "accepted"
        )
    return seen


LOG = ["l1", "l2", "l3", "l4", "l5", "l6"]
PROBE_TWIN: Observations = {
    "empty list": [],
    "tail": [LOG[len(LOG) - n :] if n else [] for n in range(6)],
    "head": [0, 1, 2, 3],
    "head 4 tail 2": ["l3", "l4"],
    "names": ["log", "r1", "r2", "r3", "r4", "r5", "r6", "r7"],
    "list sizes": [1, 2, 3, 4, 5, 6, 7],
    "default limit": 8,
    "overwrite message": "Updated record 'r7'.",
    "after same-length overwrite": "VALUE 7",
    "after shorter overwrite": "v7",
    "after longer overwrite": "a longer value 7",
    "read missing record": "isError",
    "limit 0": "isError",
    "limit 51": "isError",
    "negative tail": "isError",
    "missing value": "isError",
    "unknown tool": -32602,
}
PROBE_BUGS: dict[str | None, Observations] = {
    None: {},
    "evict-after-3": {"names": ["r5", "r6", "r7"], "list sizes": [1, 2, 3, 3, 3, 3, 3], "default limit": 3},
    "noop-some-values": {"after shorter overwrite": "VALUE 7"},
    "bound-over-5": {"list sizes": [1, 2, 3, 4, 5, 7, 8]},
    "tail-off-by-one": {"tail": [[], ["l6"], ["l5", "l6"], LOG[2:], LOG[1:], LOG]},
}


@functools.cache
def probe_results() -> dict[Any, Any]:
    return _run_all({bug: _observe(PROBE_SERVER, bug, "evict-after-3", probe_scenario) for bug in PROBE_BUGS})


@pytest.mark.parametrize("bug", list(PROBE_BUGS))
def test_probe_bugs_server(bug: str | None) -> None:
    http = HTTP_EXIT if bug == "evict-after-3" else {}
    assert _result(probe_results(), bug) == PROBE_TWIN | PROBE_BUGS[bug] | http


# --- examples/smoke_demo -----------------------------------------------------------------------


async def demo_scenario(s: Session) -> Observations:
    tools = {tool.name: tool for tool in await s.list_tools()}
    seen: Observations = {
        "read-only": sorted(n for n, t in tools.items() if t.annotations and t.annotations.read_only_hint),
        "unannotated": sorted(n for n, t in tools.items() if t.annotations is None),
        "honest": await s.outcome("honest", {"message": ""}),
        "honest text": await s.text("honest", {"message": ""}),
        "dishonest": await s.outcome("dishonest", {"message": ""}),
        "sloppy with a string count": await s.text("sloppy", {"count": "many"}),
        "sloppy with nothing": await s.outcome("sloppy", {}),
        "writer": await s.text("writer", {"key": "k", "value": "v"}),
    }
    for label, name, args in [
        ("honest wrong type", "honest", {"message": 0}),
        ("dishonest wrong type", "dishonest", {"message": 0}),
        ("writer missing value", "writer", {"key": "k"}),
        ("unknown tool", "no_such_tool", {}),
    ]:
        result = await s.call(name, args)
        seen[label] = result.code if isinstance(result, MCPError) else "result"
    return seen


def test_smoke_demo_server() -> None:
    results = _run_all(
        {"stdio": _observe_stdio(SMOKE_DEMO, demo_scenario), "http": _observe_http(SMOKE_DEMO, demo_scenario)}
    )
    expected = {
        "read-only": ["dishonest", "honest", "sloppy"],
        "unannotated": ["writer"],
        "honest": "ok",
        "honest text": '{"result": "ok"}',
        "dishonest": "bad-output",
        "sloppy with a string count": "{}",
        "sloppy with nothing": "ok",
        "writer": "Stored 'k'.",
        "honest wrong type": -32602,
        "dishonest wrong type": -32602,
        "writer missing value": -32602,
        "unknown tool": -32602,
    }
    assert _result(results, "stdio") == expected
    assert _result(results, "http") == expected | HTTP_EXIT


# --- breaker_bugs, hang_bugs, locked_tools -----------------------------------------------------

BREAKER_SERVER = [str(ROOT / "tests/servers/breaker_bugs.py")]
HANG_SERVER = [str(ROOT / "tests/servers/hang_bugs.py")]
LOCKED_SERVER = [str(ROOT / "tests/servers/locked_tools.py")]
BREAKER_CASES: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "nul-crash": ("annotate", {"text": "a b"}, {"text": "a\x00b"}),
    "long-crash": ("digest", {"body": "x" * 1500}, {"body": "x" * 1501}),
    "huge-int-crash": ("convert", {"amount": -(2**31), "unit": "m"}, {"amount": 2**31, "unit": "m"}),
}


async def _answer(s: Session, name: str, arguments: dict[str, Any], within: float = 3.0) -> str:
    """ok, rejected, or gone (the process exited or the call got no answer in time)."""
    try:
        result = await asyncio.wait_for(s.call(name, arguments), within)
    except (TimeoutError, OSError):
        return "gone"
    if isinstance(result, MCPError):
        return "rejected" if result.error.code == types.INVALID_PARAMS else "gone"
    return "rejected" if result.is_error else "ok"


def _one_call(case: tuple[str, dict[str, Any]]) -> Scenario:
    async def scenario(s: Session) -> Observations:
        return {"answer": await _answer(s, *case)}

    return scenario


@functools.cache
def breaker_results() -> dict[Any, Any]:
    runs = {}
    for bug, (tool, inside, breaking) in BREAKER_CASES.items():
        for twin in (False, True):
            for label, args in (("inside", inside), ("breaking", breaking)):
                runs[(bug, twin, label)] = _observe_stdio(
                    [*BREAKER_SERVER, *([] if twin else ["--bug", bug])], _one_call((tool, args)))
    return _run_all(runs)


@pytest.mark.parametrize("bug", list(BREAKER_CASES))
def test_breaker_bugs_server(bug: str) -> None:
    seen = {key[1:]: _result(breaker_results(), key)["answer"] for key in breaker_results() if key[0] == bug}
    assert seen == {(False, "inside"): "ok", (False, "breaking"): "gone",
                    (True, "inside"): "ok", (True, "breaking"): "ok"}


async def hang_scenario(s: Session) -> Observations:
    return {"lookup -1": await _answer(s, "lookup", {"id": -1}), "lookup 2": await _answer(s, "lookup", {"id": 2}),
            "history -1": await _answer(s, "history", {"before": -1}),
            "status": await _answer(s, "status", {})}


def test_hang_bugs_server() -> None:
    results = _run_all({bug: _observe_stdio([*HANG_SERVER, *(["--bug", bug] if bug else [])], hang_scenario)
                        for bug in (None, "negative-hang", "negative-stall")})
    twin = {"lookup -1": "rejected", "lookup 2": "ok", "history -1": "rejected", "status": "ok"}
    assert _result(results, None) == twin
    assert _result(results, "negative-hang") == dict.fromkeys(twin, "gone")  # the process is wedged
    assert _result(results, "negative-stall") == twin | {"history -1": "gone"}


async def locked_scenario(s: Session) -> Observations:
    return {"INV-1001": await _answer(s, "fetch_invoice", {"invoice_id": "INV-1001"}),
            "made up": await _answer(s, "fetch_invoice", {"invoice_id": "x"}),
            "acme": await _answer(s, "account_balance", {"account": "acme", "currency": "USD"}),
            "nobody": await _answer(s, "account_balance", {"account": ""})}


def test_locked_tools_server() -> None:
    assert _result(_run_all({"stdio": _observe_stdio(LOCKED_SERVER, locked_scenario)}), "stdio") == {
        "INV-1001": "ok", "made up": "rejected", "acme": "ok", "nobody": "rejected"}
# --- journal_store -----------------------------------------------------------------------------

JOURNAL_SERVER = [str(ROOT / "tests/servers/journal_store.py")]


async def _journal_processes(bug: str | None, file: Path) -> list[Observations]:
    """Two processes one after the other on the same JOURNAL_FILE: the first saves, both browse."""
    seen = []
    for step in ("first", "second"):
        args = [*JOURNAL_SERVER, *(["--bug", bug] if bug else [])]
        params = StdioServerParameters(command=sys.executable, args=[LAUNCHER, *args],
                                       env=server_env(JOURNAL_FILE=str(file)))
        async with Client(params, cache=None) as client:
            s = Session(client)
            await s.list_tools()
            if step == "first":
                await s.text("save_entry", {"slug": "monday", "body": "rain"})
                await s.text("save_entry", {"slug": "monday", "body": "sun"})
            seen.append({"browse": await s.text("browse_journal", {}),
                         "lookup": await s.outcome("lookup_entry", {"slug": "monday"}),
                         "bad save": await s.outcome("save_entry", {"slug": ""})})
    return seen


@pytest.mark.parametrize("bug", [None, "keeps-file"])
def test_journal_store_server(bug: str | None, tmp_path: Path) -> None:
    first, second = asyncio.run(_journal_processes(bug, tmp_path / "journal.json"))
    assert first == {"browse": "monday: sun", "lookup": "ok", "bad save": "rejected"}
    if bug is None:
        assert second == {"browse": "The journal is empty.", "lookup": "rejected", "bad save": "rejected"}
        assert not (tmp_path / "journal.json").exists()
    else:
        assert second == first, "a new process still holds what the first one wrote"


# --- shelf_store and memo_pad: refusals of a value the schema allows ----------------------------

SHELF_SERVER = [str(ROOT / "tests/servers/shelf_store.py")]
MEMO_SERVER = [str(ROOT / "tests/servers/memo_pad.py")]


async def shelf_scenario(s: Session) -> Observations:
    return {"owner with a dash": await s.outcome("put_item", {"title": "t", "notes": "a", "owner": "ann-lee"}),
            "put": await s.outcome("put_item", {"title": "t", "notes": "a", "owner": "ann_lee"}),
            "again": await s.outcome("put_item", {"title": "t", "notes": "b", "owner": "bo"}),
            "item": json.loads(await s.text("get_item", {"title": "t"})),
            "unknown": await s.outcome("get_item", {"title": "u"})}


@pytest.mark.parametrize("bug", [None, "keeps-old-notes"])
def test_shelf_store_server(bug: str | None) -> None:
    args = [*SHELF_SERVER, *(["--bug", bug] if bug else [])]
    seen = _result(_run_all({"stdio": _observe_stdio(args, shelf_scenario)}), "stdio")
    notes = "a" if bug else "b"
    assert seen == {"owner with a dash": "rejected", "put": "ok", "again": "ok",
                    "item": {"title": "t", "notes": notes, "owner": "bo"}, "unknown": "rejected"}


async def memo_scenario(s: Session) -> Observations:
    return {"odd label": await s.text("save_memo", {"slug": "m", "body": "x", "label": "urgent"}),
            "save": await s.text("save_memo", {"slug": "m", "body": "x", "label": "work"}),
            "again": await s.text("save_memo", {"slug": "m", "body": "y"}),
            "memo": json.loads(await s.text("read_memo", {"slug": "m"})),
            "unknown": await s.text("read_memo", {"slug": "u"}),
            "reminder": await s.text("add_reminder", {"slug": "m", "text": "soon"}),
            "as a success": await s.outcome("add_reminder", {"slug": "m", "text": "soon"})}


@pytest.mark.parametrize("bug", [None, "drops-body-on-overwrite"])
def test_memo_pad_server(bug: str | None) -> None:
    args = [*MEMO_SERVER, *(["--bug", bug] if bug else [])]
    seen = _result(_run_all({"stdio": _observe_stdio(args, memo_scenario)}), "stdio")
    assert seen == {"odd label": '{"error": "unknown label \'urgent\'"}', "save": '{"saved": "m"}',
                    "again": '{"saved": "m"}', "memo": {"slug": "m", "body": "" if bug else "y", "label": None},
                    "unknown": '{"error": "no memo \'u\'"}',
                    "reminder": '{"error": "reminders are switched off"}', "as a success": "ok"}
