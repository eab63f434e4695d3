"""A stdio transport that owns its server process.

The SDK's own stdio client hides the process, so it cannot tell us the exit code, keep a bounded
tail of stderr, survive non-protocol lines on stdout, or refuse an enormous response without
holding it in memory. This one does all four and kills the whole process group on close.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.abc
import mcp_types as types
from mcp.shared.message import SessionMessage

from hypothesis_mcp.connection.target import Target

OVERSIZED_CODE = -32099
"""Code of the error we put in place of a response larger than the size limit."""
MALFORMED_CODE = -32098
"""Code of the error we put in place of a JSON-RPC response we could not parse."""

MAX_MESSAGE_BYTES = 16 * 1024 * 1024
"""Largest response read whole; a larger one is dropped as it streams in and reported instead.

Parsing a response takes about six times its size at its peak (bytes, the decoded JSON, the SDK's
models), so this also bounds what one call can cost in memory."""

TMPDIR = "{tmpdir}"
"""Placeholder in a command or environment value for a per-process temporary folder."""

ALIVE_ID = "hypothesis-mcp-alive"
"""Id of the ping a slow greeting sends to learn whether the server answers anything at all
(connection/greeting.py); its answer is kept from the session."""
DISCOVER = "server/discover"

_ID_PATTERN = re.compile(rb'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')

STDOUT_GRACE_SHARE = 1 / 3
"""The share of the start-up timeout a server that wrote a non-JSON-RPC line, and no JSON-RPC
message yet, gets to write one before its handshake is given up: a banner followed by the answer is
judged by the run, a server that only ever writes other text fails well before the timeout, and
one that prints while it loads for long gets more time with a longer timeout."""
STDERR_GRACE = 0.5
"""Seconds a stopped process's stderr gets to reach its end (a child that escaped its group may
hold it open)."""
QUOTED_CHARS = 200
"""How much of a non-JSON-RPC line a finding quotes."""


@dataclass
class StdoutNoise:
    """Lines on stdout that are no JSON-RPC message: real clients read stdout as the protocol
    stream, and many stop at such a line, so the first is kept to be quoted."""

    first: str | None = None
    lines: int = 0

    def add(self, line: bytes) -> None:
        self.lines += 1
        if self.first is None:
            text = line.decode("utf-8", "replace").strip()
            self.first = text if len(text) <= QUOTED_CHARS else text[:QUOTED_CHARS] + "\u2026"


@dataclass
class ProcessState:
    """What we know about the server process, kept after it exits."""

    pid: int | None = None
    returncode: int | None = None
    stderr_tail: collections.deque[bytes] = field(default_factory=lambda: collections.deque())
    stderr_bytes: int = 0
    noise: StdoutNoise = field(default_factory=StdoutNoise)
    """This process's non-JSON-RPC lines on stdout."""
    messages: int = 0
    """JSON-RPC messages this process wrote."""
    noise_only: bool = False
    """The process wrote a non-JSON-RPC line and then no JSON-RPC message within the grace."""
    oversized: int = 0
    stopped_by_us: bool = False
    stdout_closed: bool = False
    stderr_closed: bool = False
    """The process's stderr reached its end: every line it wrote is in the tail."""
    stray_ids: list[object] = field(default_factory=list)
    pending: set[object] = field(default_factory=set)
    max_stderr: int = 64 * 1024
    probe_id: object = None
    """Id of the `server/discover` request, once it went out."""
    probe_meta: dict[str, Any] | None = None
    """The discovery request's `_meta` (protocol version, client info), which the ping repeats."""
    probe_sent: float | None = None
    probe_answered: bool = False
    stderr_at_probe: int = 0
    alive_at: float | None = None
    """When the server answered our ping (`ALIVE_ID`): from then on it is able to answer."""

    def add_stderr(self, chunk: bytes) -> None:
        self.stderr_bytes += len(chunk)
        self.stderr_tail.append(chunk)
        kept = sum(len(c) for c in self.stderr_tail)
        while kept > self.max_stderr and len(self.stderr_tail) > 1:
            kept -= len(self.stderr_tail.popleft())

    @property
    def exit_code_on_its_own(self) -> int | None:
        """The exit code, unless the process only exited because we stopped it."""
        return None if self.stopped_by_us else self.returncode

    def stderr_since_probe(self) -> str:
        """What the server wrote to stderr after the discovery request went out (within the tail)."""
        return "" if self.probe_sent is None else self.stderr_since(self.stderr_at_probe)

    def stderr_since(self, offset: int) -> str:
        """What the server wrote to stderr after it had written `offset` bytes (within the tail)."""
        since = self.stderr_bytes - offset
        return b"".join(self.stderr_tail)[-since:].decode("utf-8", "replace") if since > 0 else ""

    def stderr_text(self, limit: int = 4000) -> str:
        data = b"".join(self.stderr_tail)[-limit:]
        return data.decode("utf-8", "replace")


class StdioTransport:
    """Async context manager yielding the (read, write) streams the SDK session expects."""

    def __init__(self, target: Target, *, max_message_bytes: int = MAX_MESSAGE_BYTES,
                 noise: StdoutNoise | None = None, on_noise_only: Callable[[], None] | None = None,
                 grace: float = 10.0) -> None:
        self.target = target
        self.max_message_bytes = max_message_bytes
        self.state = ProcessState()
        self.noise = noise if noise is not None else StdoutNoise()
        """Non-JSON-RPC lines of every process this one belongs with (a run's, say)."""
        self._on_noise_only = on_noise_only
        self.grace = grace
        """Seconds after a first non-JSON-RPC line before `on_noise_only` is called, if no message came."""
        self._tg: anyio.abc.TaskGroup | None = None
        self._stack: contextlib.AsyncExitStack | None = None
        self._process: anyio.abc.Process | None = None
        self._stdin_lock = anyio.Lock()

    async def __aenter__(self) -> tuple[anyio.abc.ObjectReceiveStream[Any], anyio.abc.ObjectSendStream[Any]]:
        self._stack = contextlib.AsyncExitStack()
        await self._stack.__aenter__()
        try:
            return await self._start(self._stack)
        except BaseException:
            await self._stack.__aexit__(None, None, None)
            raise

    async def __aexit__(self, *exc: Any) -> None:
        assert self._stack is not None
        await self._stack.__aexit__(*exc)

    async def _start(
        self, stack: contextlib.AsyncExitStack
    ) -> tuple[anyio.abc.ObjectReceiveStream[Any], anyio.abc.ObjectSendStream[Any]]:
        command, env = self._expand(stack)
        env.setdefault("PYTHONUNBUFFERED", "1")
        process = await anyio.open_process(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=self.target.cwd,
            env=env,
            start_new_session=True,
        )
        self._process = process
        self.state.pid = process.pid
        read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](16)
        write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](16)
        tg = await stack.enter_async_context(anyio.create_task_group())
        self._tg = tg
        stack.push_async_callback(self._stop, tg)
        tg.start_soon(self._read_stdout, process, read_writer)
        tg.start_soon(self._read_stderr, process)
        tg.start_soon(self._write_stdin, process, write_reader)
        tg.start_soon(self._watch_exit, process)
        return read_stream, write_stream

    def _expand(self, stack: contextlib.AsyncExitStack) -> tuple[list[str], dict[str, str]]:
        """Replace `{tmpdir}` in the command and environment by a new folder for this process,
        removed when it stops, so each fresh server also gets fresh files (a memory file, a db)."""
        command, extra = list(self.target.command), dict(self.target.env)
        if any(TMPDIR in part for part in [*command, *extra.values()]):
            folder = tempfile.mkdtemp(prefix="hypothesis-mcp-")
            stack.callback(shutil.rmtree, folder, True)
            command = [part.replace(TMPDIR, folder) for part in command]
            extra = {k: v.replace(TMPDIR, folder) for k, v in extra.items()}
        return command, {**os.environ, **extra}

    async def _read_stdout(self, process: anyio.abc.Process, sink: anyio.abc.ObjectSendStream[Any]) -> None:
        assert process.stdout is not None
        buffer = bytearray()
        head = b""
        discarding = 0
        async with sink:
            try:
                async for chunk in process.stdout:
                    start = 0
                    while True:
                        newline = chunk.find(b"\n", start)
                        piece = chunk[start:] if newline < 0 else chunk[start:newline]
                        if discarding:
                            discarding += len(piece)
                        else:
                            buffer += piece
                            if len(buffer) > self.max_message_bytes:
                                head = bytes(buffer[:4096])
                                discarding = len(buffer)
                                buffer.clear()
                        if newline < 0:
                            break
                        if discarding:
                            await self._send_oversized(sink, head, discarding)
                            discarding = 0
                        else:
                            await self._send_line(sink, bytes(buffer))
                            buffer.clear()
                        start = newline + 1
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
                return
            finally:
                self.state.stdout_closed = True

    async def _send_line(self, sink: anyio.abc.ObjectSendStream[Any], line: bytes) -> None:
        if not line.strip():
            return
        try:
            message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except ValueError as exc:
            await self._send_malformed(sink, line, exc)
            return
        self.state.messages += 1
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            if message.id == ALIVE_ID:
                self.state.alive_at = time.monotonic()
                return
            if message.id == self.state.probe_id:
                self.state.probe_answered = True
            if message.id not in self.state.pending:
                self.state.stray_ids.append(message.id)
                return
            self.state.pending.discard(message.id)
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            await sink.send(SessionMessage(message))

    async def _send_malformed(self, sink: anyio.abc.ObjectSendStream[Any], line: bytes, exc: ValueError) -> None:
        """A line that is JSON with the id of a pending request fails that request at once."""
        try:
            data = json.loads(line)
        except ValueError:
            self._noise(line)
            return
        request_id = data.get("id") if isinstance(data, dict) else None
        if request_id not in self.state.pending:
            self._noise(line)
            return
        self.state.messages += 1
        self.state.pending.discard(request_id)
        reason = str(exc).splitlines()[0] if str(exc) else "invalid message"
        await self._send_error(sink, request_id, MALFORMED_CODE, f"malformed JSON-RPC response: {reason}")

    def _noise(self, line: bytes) -> None:
        """Keep a line that is no JSON-RPC message; the first before any message starts the grace."""
        self.state.noise.add(line)
        self.noise.add(line)
        if self.state.noise.lines == 1 and not self.state.messages and self._tg is not None:
            self._tg.start_soon(self._noise_grace)

    async def _noise_grace(self) -> None:
        await anyio.sleep(self.grace)
        if not self.state.messages:
            self.state.noise_only = True
            if self._on_noise_only is not None:
                self._on_noise_only()

    async def _send_error(
        self, sink: anyio.abc.ObjectSendStream[Any], request_id: int | str | None, code: int, text: str
    ) -> None:
        error = types.JSONRPCError(
            jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=text)
        )
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            await sink.send(SessionMessage(error))

    async def _send_oversized(self, sink: anyio.abc.ObjectSendStream[Any], head: bytes, size: int) -> None:
        self.state.oversized += 1
        match = _ID_PATTERN.search(head)
        if match is None:
            return
        request_id = json.loads(match.group(1))
        self.state.pending.discard(request_id)
        text = f"response of {size} bytes exceeded the {self.max_message_bytes}-byte limit"
        await self._send_error(sink, request_id, OVERSIZED_CODE, text)

    async def _read_stderr(self, process: anyio.abc.Process) -> None:
        assert process.stderr is not None
        try:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
                async for chunk in process.stderr:
                    self.state.add_stderr(chunk)
        finally:
            self.state.stderr_closed = True

    async def _write_stdin(self, process: anyio.abc.Process, source: anyio.abc.ObjectReceiveStream[Any]) -> None:
        assert process.stdin is not None
        try:
            async with source:
                async for message in source:
                    if isinstance(message.message, types.JSONRPCRequest):
                        self.state.pending.add(message.message.id)
                        if message.message.method == DISCOVER and self.state.probe_sent is None:
                            self.state.probe_id = message.message.id
                            self.state.probe_meta = (message.message.params or {}).get("_meta")
                            self.state.probe_sent = time.monotonic()
                            self.state.stderr_at_probe = self.state.stderr_bytes
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    async with self._stdin_lock:
                        await process.stdin.send(data.encode() + b"\n")
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            return

    async def ping(self) -> None:
        """Ask whether the server answers at all: a ping is the one request every handshake-era
        server must answer before `initialize`; its answer, or an error (a discovery-era server may
        not know the method), sets `state.alive_at`. It carries the discovery request's `_meta`: a
        dual-era server answers every later request in the handshake era's shapes once a request
        comes without the protocol version (server-filesystem 2.0.1 does)."""
        process = self._process
        if process is None or process.stdin is None:
            return
        ping: dict[str, Any] = {"jsonrpc": "2.0", "id": ALIVE_ID, "method": "ping"}
        if self.state.probe_meta:
            ping["params"] = {"_meta": self.state.probe_meta}
        line = json.dumps(ping).encode() + b"\n"
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            async with self._stdin_lock:
                await process.stdin.send(line)

    async def _watch_exit(self, process: anyio.abc.Process) -> None:
        self.state.returncode = await process.wait()

    async def _stop(self, tg: anyio.abc.TaskGroup) -> None:
        process = self._process
        if process is None:
            return
        with anyio.CancelScope(shield=True):
            if self.state.stdout_closed:
                await _exited_within(process, 0.5)
            self.state.stopped_by_us = self.state.stopped_by_us or process.returncode is None
            if process.stdin is not None:
                with contextlib.suppress(Exception):
                    await process.stdin.aclose()
            if not await _exited_within(process, 1.0):
                _signal_group(process.pid, signal.SIGTERM)
                if not await _exited_within(process, 2.0):
                    _signal_group(process.pid, signal.SIGKILL)
                    await _exited_within(process, 2.0)
            _signal_group(process.pid, signal.SIGKILL)
            self.state.returncode = process.returncode
            await _stderr_ended(self.state, STDERR_GRACE)
        tg.cancel_scope.cancel()

    def kill(self) -> None:
        """Kill a server that stopped answering at once: closing stdin would only wait on it."""
        process = self._process
        if process is not None and process.returncode is None:
            self.state.stopped_by_us = True
            _signal_group(process.pid, signal.SIGKILL)

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.returncode is None


async def _exited_within(process: anyio.abc.Process, seconds: float) -> bool:
    with anyio.move_on_after(seconds):
        while process.returncode is None:
            await anyio.sleep(0.01)
    return process.returncode is not None


async def _stderr_ended(state: ProcessState, seconds: float) -> None:
    """Wait, within `seconds`, for the rest of stderr: the process may exit before its last line
    (a crash's traceback) is read, and a crash is told by that line."""
    with anyio.move_on_after(seconds):
        while not state.stderr_closed:
            await anyio.sleep(0.01)


def _signal_group(pid: int, sig: signal.Signals) -> None:
    """Signal the server's whole process group, so wrappers such as npx take their children along."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)
