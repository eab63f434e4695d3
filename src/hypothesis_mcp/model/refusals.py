"""A server's own refusal shape, learned from calls that must fail.

Today's fixed shapes (isError, `error`, `success: false`, `status: "error"`, an error text) miss a
server that refuses with members of its own (`{"outcome": "rejected", "why": ...}`). Calls that
cannot succeed (a reader asked for an id that cannot exist, a write whose every text is empty)
show that shape: a top-level member whose value every such answer shares, from at least two tools,
and that the run's successful answers do not carry. One answer alone, or one tool alone, proves
nothing (a reader's empty result may share a member with anything), so nothing is learned then.
"""

from __future__ import annotations

from typing import Any

from hypothesis_mcp.connection import LearnedRefusal, Outcome

IMPOSSIBLE_ID = "no-such-record-7f3e9c1d"
"""An id no server made: a reader asked for it must refuse (or answer nothing)."""


def learned_shape(failed: list[tuple[str, Outcome]], succeeded: list[Outcome]) -> LearnedRefusal | None:
    """The member and value that every answer to a must-fail call (tool name, answer) shares, from
    two tools at least, and no successful answer carries; None when the answers do not agree."""
    answers = [(tool, o.value()) for tool, o in failed if o.ok]  # a refusal in a known shape says nothing more
    objects = [(tool, a) for tool, a in answers if isinstance(a, dict)]
    if len(objects) < len(answers) or len({tool for tool, _ in objects}) < 2:
        return None
    first = objects[0][1]
    shared = [(k, v) for k, v in first.items() if _scalar(v)
              and all(k in a and type(a[k]) is type(v) and a[k] == v for _, a in objects[1:])]
    for member, value in shared:
        shape = LearnedRefusal(str(member), value)
        if succeeded and not any(shape.claim(o.content, o.structured, o.has_structured) for o in succeeded):
            return shape
    return None


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, bool)) and value != ""
