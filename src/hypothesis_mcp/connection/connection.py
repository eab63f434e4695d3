"""A synchronous connection to one MCP server, over stdio or streamable HTTP."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import anyio
import httpx2
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import TypeAdapter, ValidationError

from hypothesis_mcp.catalog import Tool, placed
from hypothesis_mcp.connection.failure import LearnedRefusal
from hypothesis_mcp.connection.greeting import unanswerable
from hypothesis_mcp.connection.http import CheckedStreams, HttpLimits, LimitedTransport
from hypothesis_mcp.connection.hung import StderrWords
from hypothesis_mcp.connection.outcome import CLOSED_CODE, TIMEOUT_CODE, Outcome
from hypothesis_mcp.connection.stdio import (
    MALFORMED_CODE,
    MAX_MESSAGE_BYTES,
    OVERSIZED_CODE,
    STDOUT_GRACE_SHARE,
    StdioTransport,
    StdoutNoise,
)
from hypothesis_mcp.connection.target import Target, parse_target
from hypothesis_mcp.errors import HypothesisMCPError, ServerStartError
from hypothesis_mcp.results import PROMPTS_GET, RESOURCES_READ, Call
from hypothesis_mcp.version import __version__

_RAW = TypeAdapter(dict[str, Any])
_MALFORMED = "malformed result"
_SSE_TOO_LARGE = "byte limit"  # in the SDK's error for a server-sent event over max_sse_event_size
_UNPARSED_HTTP = "Failed to parse JSON response"  # the SDK's error for a JSON body that is no JSON-RPC message
MAX_PAGES = 1000
RECENT_STEPS = 16
"""How many of the last calls a connection keeps with their answers: a printed reproduction has at most 8."""
_LISTINGS: dict[str, tuple[Any, str]] = {
    "resources/list": (types.ListResourcesRequest, "resources"),
    "resources/templates/list": (types.ListResourceTemplatesRequest, "resourceTemplates"),
    "prompts/list": (types.ListPromptsRequest, "prompts"),
}


class CatalogError(HypothesisMCPError):
    """tools/list could not be read whole: a cursor loop, a malformed page, an error answer."""


@dataclass(frozen=True)
class ServerInfo:
    name: str
    version: str
    protocol_version: str
    era: str  # legacy | modern | dual
    handshake: str = "discover"
    """`discover` (server/discover answered), `initialize` (refused, the SDK fell back in the same
    session), or `initialize after restart` (the server died on the discovery request, or was judged
    never to answer it: `handshake_note` says which)."""
    handshake_note: str = ""

    def to_dict(self) -> dict[str, str]:
        note = {"handshake_note": self.handshake_note} if self.handshake_note else {}
        return {"name": self.name, "version": self.version,
                "protocol_version": self.protocol_version, "era": self.era, "handshake": self.handshake, **note}


@dataclass
class Exchange:
    """One request and what came back, for reproductions and debugging."""

    method: str
    params: dict[str, Any]
    outcome: dict[str, Any]
    started: float
    elapsed: float


@dataclass
class Stats:
    calls: int = 0
    server_starts: int = 0
    call_seconds: float = 0.0
    slow_seconds: int = 0
    stdout: StdoutNoise = field(default_factory=StdoutNoise)
    """What the server processes wrote on stdout that is no JSON-RPC message."""

    def cost(self) -> int:
        """Work done so far in call units, the budget unit of shrinking: a server start counts as
        50 calls and every whole second a call took (a hang, a slow tool) as 20."""
        return self.calls + 50 * self.server_starts + 20 * self.slow_seconds


QUIET = (Exception, asyncio.CancelledError)
"""What closing a loop may meet and ignore: never Ctrl-C, which is the user's and must stop the run
wherever it lands (in the wait for a hung server to close too)."""


class Connection:
    """Holds one session on an event loop of its own behind a synchronous facade.

    The loop runs in whichever thread calls: a call is one `run_until_complete`, with no hop to
    another thread and back (under load, those two wake-ups cost more than the call itself).
    Between calls the loop rests; the handshake of a server started ahead runs on a helper
    thread until `open()`. One thread at a time may use a connection.

    Use as a context manager. `call()` never raises for what the server does: timeouts, errors,
    crashes and protocol violations come back as an `Outcome`. A server that exited is started
    again on the next call when `restart` is true; so is one that let a call time out (a process
    is killed, a URL gets a new session), so no later call inherits the hang. If it cannot be
    reached again, `unavailable` says why and later calls come back `unavailable` unsent.
    """

    def __init__(
        self,
        target: str | Sequence[str] | Target,
        *,
        timeout: float = 30.0,
        startup_timeout: float = 30.0,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        headers: Mapping[str, str] | None = None,
        token: str | None = None,
        restart: bool = True,
        transcript_limit: int = 5000,
        stats: Stats | None = None,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
        refusals: list[LearnedRefusal] | None = None,
    ) -> None:
        self.target = parse_target(target, env=env, cwd=cwd, headers=headers, token=token)
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.restart = restart
        self.transcript: list[Exchange] = []
        self.transcript_limit = transcript_limit
        self.recent: deque[tuple[Call, Outcome]] = deque(maxlen=RECENT_STEPS)
        """The last calls and their answers, for a reproduction to judge (`replay.holds`)."""
        self.stats = stats or Stats()
        self.max_message_bytes = max_message_bytes
        self.refusals: list[LearnedRefusal] = refusals if refusals is not None else []
        """The refusal shapes calibration learned of this server (a list shared with its pool)."""
        self._http_limits = HttpLimits(max_message_bytes)
        self.server: ServerInfo | None = None
        self._tools: list[Tool] | None = None
        self.catalog_problems: list[str] = []
        """Why pages of tools/list had to be read without the SDK's schema validation."""
        self._client: Client | None = None
        self._transport: StdioTransport | None = None
        self._stop: asyncio.Event | None = None
        self._handshaken: asyncio.Event | None = None
        self._noise_only: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: asyncio.Task[None] | None = None
        self._starter: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._hung = False
        self._said = StderrWords()
        """What the server writes on stderr for every call it answers, so a hang's own words show."""
        self.unavailable: str | None = None
        self.probe_exit: str | None = None
        """Why this connection greets with `initialize` only: the server died on the discovery
        request, or was judged never to answer it."""
        self._offered: frozenset[str] = frozenset()

    # lifecycle -------------------------------------------------------------------------------
    def __enter__(self) -> Connection:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Begin connecting on a helper thread; `open()` waits for it."""
        if self._loop is not None:
            return
        self._ready.clear()
        self._error = None
        self.stats.server_starts += 1
        loop = asyncio.new_event_loop()
        self._loop = loop
        self._stop = asyncio.Event()
        self._handshaken = asyncio.Event()
        self._noise_only = asyncio.Event()
        self._runner = loop.create_task(self._run())
        self._starter = threading.Thread(target=self._handshake, name="hypothesis-mcp-start", daemon=True)
        self._starter.start()

    def _handshake(self) -> None:
        assert self._loop is not None and self._runner is not None
        with contextlib.suppress(BaseException):
            self._loop.run_until_complete(self._until_ready())

    async def _until_ready(self) -> None:
        assert self._runner is not None and self._handshaken is not None and self._stop is not None
        assert self._noise_only is not None
        waiters = {asyncio.ensure_future(event.wait()) for event in (self._handshaken, self._stop, self._noise_only)}
        await asyncio.wait({self._runner, *waiters}, timeout=self.startup_timeout,
                           return_when=asyncio.FIRST_COMPLETED)
        for waiter in waiters:
            waiter.cancel()

    def _join_starter(self) -> None:
        starter, self._starter = self._starter, None
        if starter is not None:
            starter.join()

    def open(self) -> Connection:
        self.start()
        self._join_starter()
        if not self._ready.is_set():
            self._pump(0.2)  # read what the server wrote and whether it exited, before judging
            stderr = self.stderr()
            code = self._transport.state.exit_code_on_its_own if self._transport else None
            if self._runner is not None:
                self._runner.cancel()
            self._close_runner()
            stdout_reason = self._stdout_reason() if code is None else None
            reason = stdout_reason or (
                f"the server exited with code {code} before finishing the MCP handshake" if code is not None
                else f"the server did not finish the MCP handshake within {self.startup_timeout:g}s")
            if stdout_reason is None and (noise := self._stdout_noise()):
                reason += f"; it wrote non-JSON-RPC to stdout: {noise}"
            raise ServerStartError(f"{self.target.describe()}: {reason}", stderr=stderr, exit_code=code,
                                   remote=self.target.is_url)
        if self._error is not None:
            error = self._error
            self._close_runner()
            raise self._start_error(error)
        return self

    def close(self) -> None:
        self._close_runner()

    @property
    def is_open(self) -> bool:
        return self._client is not None and self._runner is not None and not self._runner.done()

    def reopen(self) -> None:
        self._close_runner()
        self.open()

    def _close_runner(self) -> None:
        loop, runner, stop = self._loop, self._runner, self._stop
        if loop is None or runner is None or stop is None:
            self._join_starter()
            return
        if self._starter is not None and self._starter.is_alive():
            with contextlib.suppress(RuntimeError):  # a spare still starting: stop waiting for it
                loop.call_soon_threadsafe(stop.set)
        self._join_starter()
        if not self._ready.is_set():
            runner.cancel()
        stop.set()
        with contextlib.suppress(*QUIET):
            loop.run_until_complete(asyncio.wait({runner}, timeout=15))
        if not runner.done():
            runner.cancel()
            with contextlib.suppress(*QUIET):
                loop.run_until_complete(asyncio.wait({runner}, timeout=5))
        for task in asyncio.all_tasks(loop):
            self._settle(task)
        with contextlib.suppress(*QUIET):
            loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
        self._loop = None
        self._runner = None
        self._client = None
        self._stop = None

    def _settle(self, task: asyncio.Task[Any]) -> None:
        """Cancel a task left behind (by Ctrl-C, or at close) and let it end quietly."""
        assert self._loop is not None
        task.cancel()
        with contextlib.suppress(*QUIET):
            self._loop.run_until_complete(asyncio.wait({task}, timeout=2))
        if task.done() and not task.cancelled():
            task.exception()

    def _pump(self, seconds: float = 0.0) -> None:
        """Let the resting loop handle what arrived meanwhile (an exit, end of output)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if seconds:
            loop.run_until_complete(asyncio.sleep(seconds))
        else:
            loop.call_soon(loop.stop)
            loop.run_forever()

    async def _run(self) -> None:
        assert self._stop is not None
        try:
            async with contextlib.AsyncExitStack() as stack:
                try:
                    client = await self._greet(stack)
                except Exception:
                    if not await self._failed_on_probe():
                        raise
                    await stack.aclose()
                    self.target = replace(self.target, handshake="legacy")
                    self.stats.server_starts += 1
                    client = await self._greet(stack)
                self._client = client
                self.server = _server_info(client, self.probe_exit)
                if self.server.era == "legacy":  # every later start greets the way that worked
                    self.target = replace(self.target, handshake="legacy")
                capabilities = client.server_capabilities
                self._offered = frozenset(name for name in ("tools", "resources", "prompts")
                                          if getattr(capabilities, name, None) is not None)
                self._ready.set()
                if self._handshaken is not None:
                    self._handshaken.set()
                await self._stop.wait()
        except BaseException as exc:  # reported to the caller of open() or call()
            self._error = exc
        finally:
            self._client = None
            self._ready.set()

    async def _greet(self, stack: contextlib.AsyncExitStack) -> Client:
        """Start the server (or open the URL) and finish the handshake the target asks for."""
        transport: Any
        if self.target.is_url:
            http = await stack.enter_async_context(httpx2.AsyncClient(
                headers=self.target.http_headers(),
                timeout=httpx2.Timeout(30.0, read=max(self.timeout, self.startup_timeout) + 30),
                transport=LimitedTransport(httpx2.AsyncHTTPTransport(), self._http_limits),
            ))
            transport = CheckedStreams(
                streamable_http_client(str(self.target.url), http_client=http,
                                       max_sse_event_size=self.max_message_bytes),
                self._http_limits,
            )
            self._transport = None
        else:
            noise_only = self._noise_only
            transport = StdioTransport(self.target, max_message_bytes=self.max_message_bytes, noise=self.stats.stdout,
                                       on_noise_only=noise_only.set if noise_only is not None else None,
                                       grace=self._grace())
            self._transport = transport
        client = Client(
            transport,
            cache=None,
            mode=self.target.handshake,
            read_timeout_seconds=self.startup_timeout,
            client_info=types.Implementation(name="hypothesis-mcp", version=__version__),
        )
        watcher = asyncio.ensure_future(self._watch_probe(transport)) \
            if isinstance(transport, StdioTransport) and self.target.handshake == "auto" else None
        try:
            await stack.enter_async_context(client)
        finally:
            if watcher is not None:
                watcher.cancel()
        return client

    async def _watch_probe(self, transport: StdioTransport) -> None:
        """Kill a process judged never to answer the discovery request (connection/greeting.py):
        the greeting fails at once and `_failed_on_probe` starts a fresh one with `initialize`."""
        reason = await unanswerable(transport)
        if reason is not None:
            self.probe_exit = reason
            transport.kill()

    async def _failed_on_probe(self) -> bool:
        """Whether a server process greeted with `server/discover` first was judged never to answer
        it, or ended during the handshake, as servers built on the Python SDK up to 1.9.3 do on a
        request method they do not know: then it is started again and greeted with `initialize`
        (`probe_exit` keeps why)."""
        transport = self._transport
        if self.target.handshake != "auto" or transport is None:
            return False
        if self.probe_exit is not None:
            return True
        deadline = time.monotonic() + 2.0
        while transport.alive and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        code = transport.state.exit_code_on_its_own
        if code is None:
            return False
        self.probe_exit = f"the server exited with code {code} on the server/discover request"
        return True

    def _start_error(self, error: BaseException) -> ServerStartError:
        while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        if isinstance(error, ServerStartError):
            return error
        stderr = self.stderr()
        code = self._transport.state.exit_code_on_its_own if self._transport else None
        if isinstance(error, FileNotFoundError | PermissionError | NotADirectoryError):
            reason = f"could not start {self.target.command[0]!r}: {error.strerror or error}"
        elif code is not None:
            reason = f"the server exited with code {code} before finishing the MCP handshake"
        elif isinstance(error, MCPError) and error.code == TIMEOUT_CODE:
            reason = f"the server did not answer the MCP handshake within {self.startup_timeout:.0f}s"
        elif isinstance(error, MCPError):
            reason = f"the MCP handshake failed: {error}"
        else:
            reason = f"could not connect: {_describe(error)}"
        if self.target.is_url and self._http_limits.last_error:
            reason += f" ({self._http_limits.last_error})"
        if noise := self._stdout_noise():
            reason += f"; it wrote non-JSON-RPC to stdout: {noise}"
        return ServerStartError(f"{self.target.describe()}: {reason}", stderr=stderr, exit_code=code,
                                remote=self.target.is_url)

    def stderr(self) -> str:
        return self._transport.state.stderr_text() if self._transport else ""

    def _stdout_noise(self) -> str | None:
        """This process's first non-JSON-RPC line on stdout, quoted, if it wrote one."""
        first = self._transport.state.noise.first if self._transport else None
        return f"'{first}'" if first is not None else None

    def _stdout_reason(self) -> str | None:
        """Why a handshake was given up early: only non-JSON-RPC text came on stdout."""
        if self._transport is None or not self._transport.state.noise_only:
            return None
        return (f"the server wrote non-JSON-RPC to stdout: {self._stdout_noise()}, and no JSON-RPC message "
                f"within {self._grace():g}s after it, a third of the start-up timeout (an MCP server over stdio "
                "writes only JSON-RPC there; logs go to stderr)")

    def _grace(self) -> float:
        return round(self.startup_timeout * STDOUT_GRACE_SHARE, 1)

    # catalog ---------------------------------------------------------------------------------
    @property
    def tools(self) -> list[Tool]:
        if self._tools is None:
            self._tools = self.list_tools()
        return self._tools

    def tool(self, name: str) -> Tool:
        for tool in self.tools:
            if tool.name == name:
                return tool
        raise KeyError(f"the server has no tool named {name!r}; it has {[t.name for t in self.tools]}")

    def list_tools(self) -> list[Tool]:
        """Every page of tools/list; an empty-string cursor is a cursor, a repeated one a loop."""
        tools: list[Tool] = []
        seen: set[str] = set()
        self.catalog_problems = []
        cursor: str | None = None
        for _ in range(MAX_PAGES):
            params = {"cursor": cursor} if cursor is not None else {}
            request = types.ListToolsRequest(
                params=types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None,
            )
            page = self._request(request, "tools/list", params)
            if isinstance(page, Outcome) and page.kind == "protocol" and page.message.startswith(_MALFORMED):
                # The SDK refuses a page that breaks the MCP schema (a tool without inputSchema, say).
                # Read it again unvalidated: judging such tools is the lint checks' job.
                self.catalog_problems.append(f"tools/list page {len(seen) + 1}: {page.message}")
                page = self._request(request, "tools/list", params, unchecked=True)
            if isinstance(page, Outcome):
                raise CatalogError(f"tools/list failed: {page.summary()}")
            raw_tools = page.get("tools")
            if not isinstance(raw_tools, list):
                raise CatalogError("tools/list answered without a 'tools' list")
            tools.extend(_tool_from(t) for t in raw_tools if isinstance(t, dict))
            cursor = page.get("nextCursor")
            if cursor is None:
                self._tools = placed(tools)
                return self._tools
            if not isinstance(cursor, str):
                raise CatalogError(f"tools/list returned a nextCursor that is not a string: {cursor!r}")
            if cursor in seen:
                raise CatalogError(f"tools/list cursor loop: cursor {cursor!r} came back twice")
            seen.add(cursor)
        raise CatalogError(f"tools/list did not end after {MAX_PAGES} pages")

    def offers(self, feature: str) -> bool:
        """Whether the server declared the `feature` capability (tools, resources, prompts) in its
        handshake: a client asks nothing of a feature the server did not declare."""
        return feature in self._offered

    def list_all(self, method: str) -> list[dict[str, Any]] | Outcome:
        """Every page of resources/list, resources/templates/list or prompts/list, unvalidated (the
        checks judge each entry), or the Outcome that ended the listing."""
        if (closed := self._ready_for_call()) is not None:
            return closed
        request_type, key = _LISTINGS[method]
        entries: list[dict[str, Any]] = []
        seen: set[str] = set()
        cursor: str | None = None
        for page_number in range(1, MAX_PAGES + 1):
            request = request_type(
                params=types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None)
            page = self._request(request, method, {"cursor": cursor} if cursor is not None else {}, unchecked=True)
            if isinstance(page, Outcome):
                return page
            listed = page.get(key)
            if not isinstance(listed, list):
                return Outcome(kind="protocol", message=f"{method} page {page_number} has no {key!r} list")
            entries.extend(e if isinstance(e, dict) else {"_not_an_object": e} for e in listed)
            cursor = page.get("nextCursor")
            if cursor is None:
                return entries
            if not isinstance(cursor, str) or cursor in seen:
                return Outcome(kind="protocol", message=f"{method}: bad or repeated nextCursor {cursor!r}")
            seen.add(cursor)
        return Outcome(kind="protocol", message=f"{method} did not end after {MAX_PAGES} pages")

    # calls -----------------------------------------------------------------------------------
    def _ready_for_call(self) -> Outcome | None:
        """Start the server again if it exited; the Outcome to return instead when that fails."""
        self._pump()
        if self._hung and self.restart:
            self._recover()
        if self.unavailable is not None:
            return Outcome(kind="unavailable", message=self.unavailable)
        if not self.is_open or (self._transport is not None and not self._transport.alive):
            if not self.restart:
                return Outcome(kind="closed", message="the connection is closed", stderr=self.stderr())
            try:
                self.reopen()
            except ServerStartError as exc:
                self.stats.calls += 1
                return Outcome(kind="closed", exit_code=exc.exit_code, stderr=exc.stderr,
                               message=f"the server could not be restarted: {exc}")
        return None

    def read_resource(self, uri: str, *, timeout: float | None = None) -> Outcome:
        """resources/read; the answer's `contents` come back as the Outcome's content, unvalidated."""
        return self._kept(Call(uri, {}, RESOURCES_READ), self._read(uri, timeout))

    def _read(self, uri: str, timeout: float | None) -> Outcome:
        if (closed := self._ready_for_call()) is not None:
            return closed
        request = types.ReadResourceRequest(params=types.ReadResourceRequestParams(uri=uri))
        return self._answer(self._request(request, "resources/read", {"uri": uri}, timeout, unchecked=True),
                            "contents")

    def get_prompt(self, name: str, arguments: Mapping[str, str] | None = None, *,
                   timeout: float | None = None) -> Outcome:
        """prompts/get; the answer's `messages` come back as the Outcome's content, unvalidated."""
        args = dict(arguments or {})
        return self._kept(Call(name, args, PROMPTS_GET), self._prompt(name, args, timeout))

    def _prompt(self, name: str, args: dict[str, str], timeout: float | None) -> Outcome:
        if (closed := self._ready_for_call()) is not None:
            return closed
        request = types.GetPromptRequest(params=types.GetPromptRequestParams(name=name, arguments=args))
        return self._answer(self._request(request, "prompts/get", {"name": name, "arguments": args}, timeout,
                                          unchecked=True), "messages")

    def _kept(self, call: Call, outcome: Outcome) -> Outcome:
        self.recent.append((call, outcome))
        return outcome

    def perform(self, call: Call, *, timeout: float | None = None) -> Outcome:
        """One reproduction step, whichever request it is."""
        if call.method == RESOURCES_READ:
            return self.read_resource(call.tool, timeout=timeout)
        if call.method == PROMPTS_GET:
            return self.get_prompt(call.tool, call.arguments, timeout=timeout)
        return self.call(call.tool, call.arguments, timeout=timeout)

    def _answer(self, answer: dict[str, Any] | Outcome, key: str) -> Outcome:
        self.stats.calls += 1
        if isinstance(answer, Outcome):
            return answer
        return Outcome.from_answer(answer, key, self.transcript[-1].elapsed if self.transcript else 0.0)

    def call(self, name: str, arguments: Mapping[str, Any] | None = None, *,
             timeout: float | None = None) -> Outcome:
        """Call a tool; whatever happens comes back as an Outcome."""
        args = dict(arguments or {})
        return self._kept(Call(name, args), self._call(name, args, timeout))

    def _call(self, name: str, args: dict[str, Any], timeout: float | None) -> Outcome:
        if (closed := self._ready_for_call()) is not None:
            return closed
        params = {"name": name, "arguments": args}
        request = types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=args))
        before = self._transport.state.stderr_bytes if self._transport else 0
        answer = self._request(request, "tools/call", params, timeout=timeout)
        self.stats.calls += 1
        written = self._transport.state.stderr_since(before) if self._transport else ""
        if isinstance(answer, Outcome) and answer.kind == "timeout":
            answer.stderr = self._said.while_hung(written, name, args)
        elif not isinstance(answer, Outcome) or answer.kind == "error":
            self._said.answered(written, name, args)
        if isinstance(answer, Outcome):
            self._hung = answer.kind == "timeout"
            return answer
        return Outcome.from_result(answer, self.transcript[-1].elapsed if self.transcript else 0.0, args,
                                   self.refusals)

    def _recover(self) -> None:
        """Start over after a call hung: a wedged server would leave every later call hanging."""
        self._hung = False
        self._pump(0.1)  # let the cancellation of the hung request go out first
        if self._transport is not None:
            self._transport.kill()
        self._close_runner()
        try:
            self.open()
        except ServerStartError as exc:
            self.unavailable = f"the server did not answer again after a call hung ({exc})"

    def _request(self, request: Any, method: str, params: dict[str, Any],
                 timeout: float | None = None, *, unchecked: bool = False) -> dict[str, Any] | Outcome:
        limit = self.timeout if timeout is None else timeout
        client = self._client
        started = time.perf_counter()
        strays = len(self._stray_ids())
        oversized = self._http_limits.oversized
        if client is None or self._loop is None:
            outcome: dict[str, Any] | Outcome = self._closed_outcome(0.0)
        else:
            send = (_send_unchecked if unchecked else _send)(client, request, limit)
            task = self._loop.create_task(_within(send, limit + 10))
            try:
                outcome = self._loop.run_until_complete(task)
            except TimeoutError:
                outcome = Outcome(kind="timeout", elapsed=limit, message="the client gave up waiting")
            except (KeyboardInterrupt, SystemExit):
                self._settle(task)  # Ctrl-C while waiting is the user's, not something the server did
                raise
            except BaseException as exc:
                outcome = self._classify(exc, time.perf_counter() - started, limit, strays, oversized)
        elapsed = time.perf_counter() - started
        self.stats.call_seconds += elapsed
        self.stats.slow_seconds += int(elapsed)
        if isinstance(outcome, Outcome):
            outcome.elapsed = elapsed
        self._record(method, params, outcome, started, elapsed)
        return outcome

    def _classify(self, exc: BaseException, elapsed: float, limit: float, strays: int,
                  oversized: int = 0) -> Outcome:
        state = self._transport.state if self._transport else None
        if isinstance(exc, MCPError):
            code = exc.error.code
            if self._http_limits.oversized > oversized or _SSE_TOO_LARGE in exc.error.message:
                # Our HTTP size limit cut the response short (a JSON body, or one server-sent event).
                return Outcome(kind="protocol", code=OVERSIZED_CODE,
                               message=f"response exceeded the {self.max_message_bytes}-byte limit")
            if code == TIMEOUT_CODE and elapsed >= limit * 0.9:
                if len(self._stray_ids()) > strays:
                    stray = self._stray_ids()[-1]
                    return Outcome(kind="protocol", message=f"response with unknown id {stray!r}")
                return Outcome(kind="timeout", message=str(exc))
            if code == CLOSED_CODE and not self._server_alive():
                return self._closed_outcome(elapsed)
            if code in (MALFORMED_CODE, OVERSIZED_CODE):
                return Outcome(kind="protocol", code=code, message=exc.error.message)
            if state is None and code == types.PARSE_ERROR and exc.error.message.startswith(_UNPARSED_HTTP):
                reason = exc.error.message.removeprefix(_UNPARSED_HTTP).lstrip(": ").splitlines()[0]
                return Outcome(kind="protocol", code=MALFORMED_CODE, message=f"malformed JSON-RPC response: {reason}")
            return Outcome(kind="error", code=code, message=exc.error.message, data=exc.error.data)
        if isinstance(exc, ValidationError):
            return Outcome(kind="protocol", message=f"{_MALFORMED}: {_describe(exc)}")
        if isinstance(exc, anyio.ClosedResourceError | anyio.BrokenResourceError | httpx2.TransportError):
            return self._closed_outcome(elapsed)
        return Outcome(kind="protocol", message=_describe(exc))

    def _stray_ids(self) -> list[object]:
        """Ids of responses that answered no request, on either transport."""
        return self._transport.state.stray_ids if self._transport else self._http_limits.stray_ids

    def _server_alive(self) -> bool:
        """Over HTTP, whether the session survived: its teardown runs on the loop, which rests
        between calls, so give it a moment first."""
        if self._transport is None:
            deadline = time.monotonic() + 0.5
            while time.monotonic() < deadline and self.is_open:
                self._pump(0.01)
            return self.is_open
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline and self._transport.alive:
            self._pump(0.02)
        return self._transport.alive

    def _closed_outcome(self, elapsed: float) -> Outcome:
        code = self._transport.state.returncode if self._transport else None
        self._close_runner()
        return Outcome(kind="closed", exit_code=code, stderr=self.stderr(), elapsed=elapsed,
                       message="the server closed the connection")

    def _record(self, method: str, params: dict[str, Any], outcome: dict[str, Any] | Outcome,
                started: float, elapsed: float) -> None:
        shown = outcome.to_dict() if isinstance(outcome, Outcome) else {"kind": "result", **outcome}
        self.transcript.append(Exchange(method, params, shown, started, elapsed))
        if len(self.transcript) > self.transcript_limit:
            del self.transcript[: len(self.transcript) - self.transcript_limit]


async def _within(coro: Any, seconds: float) -> Any:
    async with asyncio.timeout(seconds):
        return await coro


async def _send(client: Client, request: Any, timeout: float) -> dict[str, Any]:
    # The SDK types send_request for its own result models; a TypeAdapter reads the raw result.
    return await client.session.send_request(request, _RAW, request_read_timeout_seconds=timeout)  # type: ignore[type-var]


async def _send_unchecked(client: Client, request: Any, timeout: float) -> dict[str, Any]:
    """`send_request` without the SDK's check of the result against the MCP schema.

    The SDK has no public way to skip that check, so this repeats what `send_request` does before
    it (the session's per-request stamp, the timeout) and calls the dispatcher itself.
    """
    session: Any = client.session
    data = request.model_dump(by_alias=True, mode="json", exclude_none=True)
    opts: dict[str, Any] = {"timeout": timeout}
    session._stamp(data, opts)
    raw: dict[str, Any] = await session._dispatcher.send_raw_request(data["method"], data.get("params"), opts)
    return raw


def _tool_from(data: dict[str, Any]) -> Tool:
    """A Tool even from a definition with fields of the wrong type; `raw` keeps them for lint."""
    try:
        return Tool.from_dict(data)
    except (TypeError, ValueError):
        schema = data.get("inputSchema")
        description = data.get("description")
        return Tool(name=str(data.get("name", "")),
                    input_schema=dict(schema) if isinstance(schema, dict) else {},
                    description=description if isinstance(description, str) else None,
                    raw=dict(data))


def _server_info(client: Client, probe_exit: str | None) -> ServerInfo:
    session = client.session
    info = client.server_info
    discover = session.discover_result
    handshake = "discover"
    if discover is None:
        era = "legacy"
        handshake = "initialize after restart" if probe_exit else "initialize"
    elif any(v in HANDSHAKE_PROTOCOL_VERSIONS for v in discover.supported_versions):
        era = "dual"
    else:
        era = "modern"
    return ServerInfo(
        name=info.name if info else "",
        version=info.version if info else "",
        protocol_version=client.protocol_version,
        era=era,
        handshake=handshake,
        handshake_note=probe_exit or "",
    )


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def connect(
    target: str | Sequence[str] | Target,
    *,
    timeout: float = 30.0,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    headers: Mapping[str, str] | None = None,
    token: str | None = None,
    startup_timeout: float = 30.0,
) -> Connection:
    """Connect to an MCP server. Use as `with connect("python server.py") as server: ...`."""
    return Connection(target, timeout=timeout, env=env, cwd=cwd, headers=headers, token=token,
                      startup_timeout=startup_timeout).open()
