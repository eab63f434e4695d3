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


def test_servers_expected_together_all_start_at_once_and_no_more() -> None:
    """A model machine's examples are a few calls each: every server they will take starts at once."""
    stats = Stats()
    pool = ServerPool(parse_target(sample()), timeout=30, stats=stats, spares=1)
    try:
        pool.expect(3, together=True)
        assert stats.server_starts == 3
        taken = [pool.acquire() for _ in range(3)]
        assert stats.server_starts == 3, "none started beyond the three expected"
        assert taken[0].call("create_note", {"title": "kept", "body": "x"}).ok
        assert all("kept" not in str(c.call("list_notes", {}).content) for c in taken[1:]), "each one fresh"
        pool.expect(1)
        pool.acquire()
        assert stats.server_starts == 4, "an expectation not together starts on demand, one ahead at most"
        for conn in taken:
            pool.release(conn)
    finally:
        pool.close()
