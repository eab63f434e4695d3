"""A server's own refusal shape, learned from calls that must fail.

Today's fixed shapes (isError, `error`, `success: false`, `status: "error"`, an error text) miss a
server that refuses with members of its own (`{"outcome": "rejected", "why": ...}`), or that wraps
a known flag in members of its own (`{"ok": false, "error": ..., "meta": {...}}`), or that answers
a missing record with a sentence (`Book 'x' was not found.`). Calls that cannot succeed (a reader
asked for an id that cannot exist, a write whose every text is empty) show that shape: a top-level
member whose value every such answer shares, and that the run's successful answers do not carry;
or, for a reader asked for two such ids, one text that differs only where it names the id. A member
is learned from two tools, or from one when a success carries the same member with another value
(the flag the server sets both ways) or when it is one of the fixed failure indicators. One answer
alone proves nothing (a reader's empty result may share a member with anything), so nothing is
learned then.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis_mcp.connection import LearnedRefusal, Outcome
from hypothesis_mcp.connection.failure import MAX_LINES, TEXT, WILDCARD, indicator

IMPOSSIBLE_ID = "no-such-record-7f3e9c1d"
"""An id no server made: a reader asked for it must refuse (or answer nothing)."""
MAX_TEMPLATE = 300
"""A not-found sentence is short; a longer text is a document, never learned as a refusal."""


def learned_shape(failed: list[tuple[str, Outcome]], succeeded: list[Outcome]) -> LearnedRefusal | None:
    """The member and value that every answer to a must-fail call (tool name, answer) shares and no
    successful answer carries; None when the answers do not agree or show too little."""
    answers = [(tool, o.value()) for tool, o in failed if o.ok]  # a refusal in a known shape says nothing more
    objects = [(tool, a) for tool, a in answers if isinstance(a, dict)]
    if len(objects) < max(len(answers), 2):
        return None
    first = objects[0][1]
    shared = [(k, v) for k, v in first.items() if _scalar(v)
              and all(k in a and type(a[k]) is type(v) and a[k] == v for _, a in objects[1:])]
    tools = len({tool for tool, _ in objects})
    for member, value in shared:
        shape = LearnedRefusal(str(member), value)
        if not succeeded or any(shape.claim(o.content, o.structured, o.has_structured) for o in succeeded):
            continue
        if tools >= 2 or indicator(str(member), value) or any(_flips(o, str(member), value) for o in succeeded):
            return shape
    return None


def text_template(asked: list[tuple[str, Outcome]]) -> LearnedRefusal | None:
    """The sentence a reader answered two ids that cannot exist with, the same but for the id it
    names: its not-found answer. Not learned from JSON, an empty text, a long text, one that only
    echoes the id, or one that does not name it (`No results.` may be any empty answer's text); nor
    beside structuredContent, which says what the answer is (`{"found": false}` with its sentence)."""
    if len(asked) < 2 or not all(o.ok and not o.has_structured for _, o in asked):
        return None
    made = {o.text.strip().replace(value, WILDCARD) for value, o in asked}
    if len(made) != 1:
        return None
    template = made.pop()
    constant = template.replace(WILDCARD, "").strip(" \t\n'\"`.,:;!?()[]{}-")
    if WILDCARD not in template or not constant or len(template) > MAX_TEMPLATE \
            or len(template.splitlines()) > MAX_LINES or _json(template):
        return None
    return LearnedRefusal(TEXT, template)


def _flips(outcome: Outcome, member: str, value: str | int | bool) -> bool:
    """The success carries the member with another text of its own: a state named both ways. Not a
    boolean (a last page's `has_more: false` beside a listing's `true` says nothing of refusals) and
    not a number (a count or a field)."""
    answer = outcome.value()
    return isinstance(value, str) and isinstance(answer, dict) and isinstance(answer.get(member), str) \
        and answer[member] != value


def _json(text: str) -> bool:
    try:
        json.loads(text.replace(WILDCARD, ""))
    except ValueError:
        return False
    return True


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, bool)) and value != ""
