"""Fresh servers for stateful examples, with the next one already starting in the background.

Each example of a state machine must start from a known state. For a command target that means
a new process per example; the start-up (often most of an example's time) is hidden by starting
a spare while the current example runs. A URL target cannot be restarted, so it is shared.
A caller that knows how many fresh servers it may still take says so (`expect`), and no spare is
started beyond them: each start costs a second of CPU that the examples running beside it share.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from hypothesis_mcp.connection import Connection, LearnedRefusal, Stats, Target


class ServerPool:
    def __init__(self, target: Target, *, timeout: float, startup_timeout: float = 30.0,
                 stats: Stats | None = None, spares: int = 1, refusals: list[LearnedRefusal] | None = None) -> None:
        self.target = target
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.stats = stats or Stats()
        self.spares = spares
        self.shared = target.is_url
        self._spare: list[Connection] = []
        self._shared_conn: Connection | None = None
        self._expected: int | None = None
        self._together = False
        self._closer = ThreadPoolExecutor(max_workers=4, thread_name_prefix="hypothesis-mcp-close")
        self._lock = threading.Lock()
        self.refusals: list[LearnedRefusal] = refusals if refusals is not None else []
        """Refusal shapes calibration learned; every connection of the pool reads answers by them (a
        list shared with the run's other connections, so a shape learned once applies to all)."""

    def _new(self) -> Connection:
        conn = Connection(self.target, timeout=self.timeout, startup_timeout=self.startup_timeout,
                          stats=self.stats, refusals=self.refusals)
        conn.start()
        return conn

    def prepare(self) -> None:
        """Start the spares now, so the first `acquire()` finds one already starting."""
        if self.shared:
            return
        with self._lock:
            while len(self._spare) < max(1, self.spares):
                self._spare.append(self._new())

    def expect(self, servers: int | None, *, together: bool = False) -> None:
        """At most `servers` more `acquire()` calls come until the next `expect` (None: unknown).
        With `together`, all of them start now, side by side: a model machine's examples are a few
        calls each, too short to hide one server's start behind the example before it."""
        with self._lock:
            self._expected = servers
            self._together = together and servers is not None
            if self._together and not self.shared:
                while len(self._spare) < (servers or 0):
                    self._spare.append(self._new())

    def acquire(self) -> Connection:
        """A connection to a server in its initial state (fresh, unless the target is a URL)."""
        if self.shared:
            return self.warm()
        with self._lock:
            conn = self._spare.pop(0) if self._spare else self._new()
            if self._expected is not None:
                self._expected = max(0, self._expected - 1)
            wanted = (self.spares if self._expected is None
                      else self._expected if self._together else min(self.spares, self._expected))
            while len(self._spare) < wanted:
                self._spare.append(self._new())
        return conn.open()

    def warm(self) -> Connection:
        """One long-lived server for work that tolerates earlier state (shrinking candidates)."""
        if self._shared_conn is None or not self._shared_conn.is_open:
            self._shared_conn = Connection(self.target, timeout=self.timeout,
                                           startup_timeout=self.startup_timeout, stats=self.stats,
                                           refusals=self.refusals).open()
        return self._shared_conn

    def retire_warm(self) -> None:
        """Let the next `warm()` start a new server: one job's leftovers must not steer the next
        job's shrinking, whichever lane it runs on."""
        if self._shared_conn is not None and not self.shared:
            self._closer.submit(self._shared_conn.close)
            self._shared_conn = None

    def release(self, conn: Connection) -> None:
        if conn is self._shared_conn:
            return
        self._closer.submit(conn.close)

    def close(self) -> None:
        with self._lock:
            spares, self._spare = self._spare, []
        if self._shared_conn is not None:
            spares.append(self._shared_conn)
            self._shared_conn = None
        for conn in spares:
            self._closer.submit(conn.close)
        self._closer.shutdown(wait=True)
