"""A server's own refusal shape, learned from calls that must fail.

Today's fixed shapes (isError, `error`, `success: false`, `status: "error"`, an error text) miss a
server that refuses with members of its own (`{"outcome": "rejected", "why": ...}`), or that wraps
a known flag in members of its own (`{"ok": false, "error": ..., "meta": {...}}`), or that answers
a missing record with a sentence (`Book 'x' was not found.`). Calls that cannot succeed (a reader
asked for an id that cannot exist, a write whose every text is empty) show that shape: a top-level
member whose value every such answer shares, and that the run's successful answers do not carry;
or, for a reader asked for two such ids, one text that differs only where it names the id; or, for
invalid arguments on two tools, the opening their texts share while the rest names what was wrong.
A text of `name: value` lines is read as the object it spells (`success: false` on a line is a
member like any other). A member
is learned from two tools, or from one when a success carries the same member with another value
(the flag the server sets both ways) or when it is one of the fixed failure indicators. One answer
alone proves nothing (a reader's empty result may share a member with anything), so nothing is
learned then.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis_mcp.connection import LearnedRefusal, Outcome
from hypothesis_mcp.connection.failure import MAX_LINES, TEXT, WILDCARD, answer_object, indicator

IMPOSSIBLE_ID = "no-such-record-7f3e9c1d"
"""An id no server made: a reader asked for it must refuse (or answer nothing)."""
MAX_TEMPLATE = 300
"""A not-found sentence is short; a longer text is a document, never learned as a refusal."""
_KINDS: list[type] = [str, bool, int]
MAX_OPENING = 60
"""A refusal's label before its colon (`Request rejected:`) is a few words."""


def learned_shape(failed: list[tuple[str, Outcome]], succeeded: list[Outcome]) -> LearnedRefusal | None:
    """The member and value that every answer to a must-fail call (tool name, answer) shares and no
    successful answer carries; None when the answers do not agree or show too little."""
    answers = [(tool, _object(o)) for tool, o in failed if o.ok]  # a refusal in a known shape says nothing more
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


def tool_shapes(failed: list[tuple[str, Outcome]], valid: list[tuple[str, Outcome]]) -> list[LearnedRefusal]:
    """The shapes that answers to invalid arguments (tool name, answer) show, by contrast with the
    same tools' answers to valid arguments: a member every such answer of a tool carries (one: a
    fixed failure word first, then a member a valid answer sets another way, then a text before a
    boolean before a number, a version or a count, then the one more tools agree on), or an opening the
    plain texts of two tools share. A tool that accepts invalid input and answers as it answers
    valid calls shows nothing, and hides nothing the other tools show."""
    answered = {tool: [o for t, o in failed if t == tool and o.ok] for tool, _ in failed}
    ranked: list[tuple[tuple[int, int, int, int], LearnedRefusal]] = []
    for member, value in sorted(_pairs([o for answers in answered.values() for o in answers]), key=str):
        shape = LearnedRefusal(member, value)
        agreeing = [tool for tool, answers in answered.items()
                    if answers and all(shape.claim(o.content, o.structured, o.has_structured) for o in answers)]
        contrast = _contrast(shape, agreeing, answered, valid)
        if not contrast:
            continue
        flips = any(_flips(o, member, value) for o in contrast)
        if indicator(member, value) or (_explained(agreeing, answered) and (len(agreeing) >= 2 or flips)):
            rank = (0 if indicator(member, value) else 1 if flips else 2, _KINDS.index(type(value)),
                    -len(agreeing), _place(answered[agreeing[0]][0], member))
            ranked.append((rank, shape))
    found = [min(ranked, key=lambda r: r[0])[1]] if ranked else []
    openings: dict[str, list[str]] = {}
    for tool, answers in answered.items():
        plain = {_opening(o.text) if not o.has_structured and o.text.strip() and not _json(o.text) else None
                 for o in answers}
        if len(plain) == 1 and (opening := plain.pop()) is not None:
            openings.setdefault(opening, []).append(tool)
    for opening, tools in openings.items():
        shape = LearnedRefusal(TEXT, opening + WILDCARD)
        if len(tools) >= 2 and _explained(tools, answered) and any(c.isalpha() for c in opening) \
                and _contrast(shape, tools, answered, valid):
            found.append(shape)
    return found


def _place(outcome: Outcome, member: str) -> int:
    """Where the member stands in the answer: of two members that qualify alike, the first is kept."""
    answer = _object(outcome)
    return list(answer).index(member) if isinstance(answer, dict) and member in answer else 0


def _explained(tools: list[str], answered: dict[str, list[Outcome]]) -> bool:
    """The answers to different invalid arguments differ: a refusal says what was wrong, while a tool
    that ignores what it cannot use answers every such call alike (a lax search's empty last page,
    `{"items": [], "has_more": false}`, is no refusal)."""
    return len({(o.text.strip(), json.dumps(o.structured, sort_keys=True, default=str))
                for tool in tools for o in answered[tool]}) >= 2


def _contrast(shape: LearnedRefusal, tools: list[str], answered: dict[str, list[Outcome]],
              valid: list[tuple[str, Outcome]]) -> list[Outcome]:
    """These tools' answers to valid arguments (the run's others when these have none), when some of
    them lacks the shape (a valid call may be refused too, but one answered otherwise shows the shape
    tells the two apart); else none. Enough
    answers to invalid arguments to agree on: two, one alone proves nothing."""
    if sum(len(answered[tool]) for tool in tools) < 2:
        return []
    answers = [o for tool, o in valid if tool in tools and o.ok] or [o for _, o in valid if o.ok]
    if all(shape.claim(o.content, o.structured, o.has_structured) for o in answers):
        return []
    return answers


def _opening(text: str) -> str:
    first = text.strip().splitlines()[0].strip()
    colon = first.find(":")
    return first[:colon + 1] if 0 < colon < MAX_OPENING else first[:MAX_TEMPLATE]


def _pairs(answers: list[Outcome]) -> set[tuple[str, str | int | bool]]:
    """Every scalar member and value some of these answers carries."""
    return {(str(k), v) for o in answers if isinstance(a := _object(o), dict) for k, v in a.items() if _scalar(v)}


def _same_member(answer: Any, member: str, value: str | int | bool) -> bool:
    return isinstance(answer, dict) and member in answer and type(answer[member]) is type(value) \
        and answer[member] == value


def _object(outcome: Outcome) -> Any:
    return answer_object(outcome.content, outcome.structured, outcome.has_structured)


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
    answer = _object(outcome)
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
