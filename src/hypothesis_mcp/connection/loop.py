"""One asyncio event loop in a daemon thread, shared by every connection of the process.

Hypothesis drives tests synchronously while the SDK is async; submitting coroutines to one
long-lived loop avoids paying for a loop and a thread per server process.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def background_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="hypothesis-mcp-loop", daemon=True)
            thread.start()
            _loop = loop
        return _loop


def submit(coro: Coroutine[Any, Any, T]) -> Future[T]:
    return asyncio.run_coroutine_threadsafe(coro, background_loop())
