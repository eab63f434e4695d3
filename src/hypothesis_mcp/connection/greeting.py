"""When a server greeted with `server/discover` will never answer it, so that a fresh process is
greeted with `initialize` instead (docs/architecture.md, "Greeting a server").

A server that answers the discovery request with an error is greeted with `initialize` in the same
session by the SDK, and one that exits on it is seen by its exit. What is left is a server that
stays up and never answers: it logged an error about the request (an older SDK whose session died
on the unknown method while a thread of the server keeps the process up), or dropped the request
without a word. Neither can be told from a server still starting by the time since the spawn alone,
so the judgement waits for the server to show that it is able to answer.
"""

from __future__ import annotations

import re
import time

import anyio

from hypothesis_mcp.connection.stdio import DISCOVER, StdioTransport

PING_AFTER = 0.5
"""Seconds the discovery request may go unanswered before a ping asks whether the server answers
anything; a server that answers at once never sees the ping."""
SILENCE = 1.0
"""Seconds the discovery request may stay unanswered after the server answered the ping sent after it."""
SETTLE = 0.3
"""Seconds a server that complained about the request on stderr has to answer it after all."""
_COMPLAINT = re.compile(r"traceback|error|exception|invalid|unknown|not found|unsupported", re.IGNORECASE)


def complained(stderr: str) -> bool:
    """Whether stderr written after the discovery request names it along with a complaint: the
    server says it could not handle the request (a validation error, a traceback)."""
    return DISCOVER in stderr and _COMPLAINT.search(stderr) is not None


async def unanswerable(transport: StdioTransport) -> str | None:
    """Watch the discovery request until it is answered (None), the process exits (None: its exit
    says why), or it is judged never to be answered: then why."""
    state = transport.state
    pinged = False
    complaint_at: float | None = None
    while state.pid is None:  # the SDK starts the process as the greeting begins
        await anyio.sleep(0.02)
    while transport.alive and not state.probe_answered:
        await anyio.sleep(0.02)
        if state.probe_sent is None or state.probe_answered:
            continue
        now = time.monotonic()
        if not pinged and now - state.probe_sent >= PING_AFTER:
            pinged = True
            await transport.ping()
        if complaint_at is None and complained(state.stderr_since_probe()):
            complaint_at = now
        if complaint_at is not None and now - complaint_at >= SETTLE:
            return f"the server logged an error about the {DISCOVER} request and did not answer it"
        if state.alive_at is not None and now - state.alive_at >= SILENCE:
            return f"the server answered a ping but not the {DISCOVER} request sent before it"
    return None
