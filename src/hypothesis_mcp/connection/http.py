"""A size limit on streamable HTTP responses, so one enormous result cannot exhaust memory, and
the JSON-RPC checks the SDK's HTTP client leaves out.

The SDK bounds each server-sent event (we pass it our limit) but reads a JSON response whole. This
transport wraps the body of every JSON response in a stream that fails once the body passes the
limit; the SDK turns that failure into a JSON-RPC error for the request, and the counter lets the
connection tell it apart from an error the server sent.

The SDK also drops a response whose id matches no request without a word, so the request only
times out; `CheckedStreams` notes such ids, as the stdio transport does, so the connection can
report a protocol violation instead of a hang.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Self

import anyio
import httpx2
import mcp_types as types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError


class ResponseTooLarge(httpx2.StreamError):
    """A response body passed the size limit; what was read of it has been dropped."""


class _QuietWhenReported(logging.Filter):
    """The SDK logs a traceback for a body we cut short or it could not parse; the outcome of the
    call already reports both, and a traceback on the console would look like our own crash."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], ResponseTooLarge | ValidationError))


logging.getLogger("mcp.client.streamable_http").addFilter(_QuietWhenReported())


@dataclass
class HttpLimits:
    max_message_bytes: int
    oversized: int = 0
    last_error: str | None = None
    """Status and start of the body of the last HTTP error response: HTTP has no stderr to show."""
    pending: set[object] = field(default_factory=set)
    stray_ids: list[object] = field(default_factory=list)
    """Ids of responses that answered no pending request (the SDK drops them)."""


class _Wrapped:
    """An SDK memory stream seen through a wrapper: closing and the context manager pass through."""

    def __init__(self, inner: Any, limits: HttpLimits) -> None:
        self._inner = inner
        self._limits = limits

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> Self:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)


class _NotingWrites(_Wrapped):
    """The client's write stream; notes the id of every request sent."""

    async def send(self, item: SessionMessage) -> None:
        if isinstance(item.message, types.JSONRPCRequest):
            self._limits.pending.add(item.message.id)
        await self._inner.send(item)


class _CheckedReads(_Wrapped):
    """The client's read stream; notes responses whose id answers no pending request."""

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        item = await self._inner.receive()
        message = getattr(item, "message", None)
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            if message.id in self._limits.pending:
                self._limits.pending.discard(message.id)
            else:
                self._limits.stray_ids.append(message.id)
        return item

    def __aiter__(self) -> _CheckedReads:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None


class _LimitedBody(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, limits: HttpLimits, *, counted: bool = True) -> None:
        self._inner = inner
        self._limits = limits
        self._counted = counted

    async def __aiter__(self) -> AsyncIterator[bytes]:
        size = 0
        async for chunk in self._inner:
            size += len(chunk)
            if size > self._limits.max_message_bytes:
                self._limits.oversized += self._counted
                raise ResponseTooLarge(
                    f"response of more than {self._limits.max_message_bytes} bytes exceeded the "
                    f"{self._limits.max_message_bytes}-byte limit"
                )
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


class LimitedTransport(httpx2.AsyncBaseTransport):
    """Passes requests to `inner`; JSON response bodies larger than the limit fail to read."""

    def __init__(self, inner: httpx2.AsyncBaseTransport, limits: HttpLimits) -> None:
        self._inner = inner
        self.limits = limits

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        if not isinstance(response.stream, httpx2.AsyncByteStream):
            return response
        if response.status_code >= 400:
            response.stream = _LimitedBody(response.stream, self.limits, counted=False)
            try:
                body = (await response.aread()).decode("utf-8", "replace").strip()
            except ResponseTooLarge:
                body = "(a body too large to show)"
            status = f"HTTP {response.status_code} {response.reason_phrase}"
            self.limits.last_error = f"{status}: {body[:500]}" if body else status
        elif response.headers.get("content-type", "").startswith("application/json"):
            response.stream = _LimitedBody(response.stream, self.limits)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


class CheckedStreams:
    """Wraps an SDK transport (an async context manager of read and write streams) so that
    responses to no pending request are noted in `limits`."""

    def __init__(self, inner: Any, limits: HttpLimits) -> None:
        self._inner = inner
        self._limits = limits

    async def __aenter__(self) -> tuple[_CheckedReads, _NotingWrites]:
        read, write = await self._inner.__aenter__()
        return _CheckedReads(read, self._limits), _NotingWrites(write, self._limits)

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)
