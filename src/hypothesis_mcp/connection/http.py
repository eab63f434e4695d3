"""A size limit on streamable HTTP responses, so one enormous result cannot exhaust memory.

The SDK bounds each server-sent event (we pass it our limit) but reads a JSON response whole. This
transport wraps the body of every JSON response in a stream that fails once the body passes the
limit; the SDK turns that failure into a JSON-RPC error for the request, and the counter lets the
connection tell it apart from an error the server sent.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx2


class ResponseTooLarge(httpx2.StreamError):
    """A response body passed the size limit; what was read of it has been dropped."""


class _QuietWhenTooLarge(logging.Filter):
    """The SDK logs a traceback for the body we cut short; the outcome already reports it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], ResponseTooLarge))


logging.getLogger("mcp.client.streamable_http").addFilter(_QuietWhenTooLarge())


@dataclass
class HttpLimits:
    max_message_bytes: int
    oversized: int = 0
    last_error: str | None = None
    """Status and start of the body of the last HTTP error response: HTTP has no stderr to show."""


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
