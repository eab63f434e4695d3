"""The server pool against real server processes: spares start ahead, but never beyond the fresh
servers its user says it can still take, and a server beyond them is still given, started then."""

from __future__ import annotations

from helpers import sample
from hypothesis_mcp.connection import Stats, parse_target
from hypothesis_mcp.search.pool import ServerPool


def test_spares_stop_at_the_expected_servers_and_resume_when_unknown() -> None:
    stats = Stats()
    pool = ServerPool(parse_target(sample()), timeout=30, stats=stats, spares=2)
    try:
        pool.prepare()
        assert stats.server_starts == 2
        pool.expect(2)
        first = pool.acquire()  # one more may come: the spare left is enough
        assert first.call("create_note", {"title": "kept", "body": "x"}).ok
        assert stats.server_starts == 2
        second = pool.acquire()
        assert stats.server_starts == 2
        assert "kept" not in str(second.call("list_notes", {}).content), "each acquire is a fresh server"
        third = pool.acquire()  # beyond what was expected: started on demand, and it answers
        assert stats.server_starts == 3 and third.call("list_notes", {}).ok
        pool.expect(None)  # unknown again: two spares start ahead
        fourth = pool.acquire()
        assert stats.server_starts == 6 and fourth.call("list_notes", {}).ok
        for conn in (first, second, third, fourth):
            pool.release(conn)
    finally:
        pool.close()
