"""Whether a success result's content says the call failed: an error reported as success.

The one place that reads an answer's own framing (a JSON object made of an error and its
explanation, the same printed as two or more `name: value` lines, or a text that opens with an
error word). `Outcome` asks it once per tool result, so every judgement (scenarios, smoke, probes,
replay) sees such an answer as a refusal. Two guards keep a correct server that shows user data
out: an object that carries anything besides the error and its explanation is data about something
else (a validator's `errors`, a job whose `status` is `failed`), and a text or error message found
in the call's own arguments is an echo, as is a text whose opening word the arguments name (a
message of the type `error` that the caller asked for), or one that opens with a value a write
probe wrote (its marker first): the run's own record shown back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

ERROR_MEMBERS = frozenset({"error", "errors"})
FALSE_FLAGS = frozenset({"success", "ok"})
FAILED_STATUSES = frozenset({"error", "failed", "failure", "fail", "fatal"})
FRAMING_KEYS = frozenset({
    "error", "errors", "message", "msg", "detail", "details", "reason", "code", "status", "statuscode",
    "status_code", "success", "ok", "type", "hint", "error_code", "errorcode", "error_message",
    "errormessage", "error_type", "errortype", "error_description", "suggestion", "help", "traceback",
    "stack", "trace", "exception",
})
"""Members an error answer is made of: indicators, the values that say it failed, and the explanation
beside them (FRAMING_KEYS); any other member that is not null makes the object data."""
_NOT_A_FAILURE = r"(?!\s*(?:none|null|nil|0|false|n/a|-)\s*$)"
_TRACEBACK = re.compile(r"^\s*traceback \(most recent call last\)", re.IGNORECASE)
MAX_LINES = 5
"""An error message is short; a longer text that opens with an error word is a document or a log."""
_TEXT_FAILURE = (
    re.compile(
        r"^\s*(?!(?:no|zero|0|without|ignored?|expected|last)\b)"
        r"\[?(?:[a-z][\w.-]*\s+){0,3}?(?:error|exception|failure|failed|fatal)\]?(?:\s*[:!]|\s+[-\u2013\u2014]\s)"
        + _NOT_A_FAILURE,
        re.IGNORECASE,
    ),
    re.compile(r"^\s*failed\s+to\s+\w", re.IGNORECASE),
    re.compile(r"^\s*(?:an?\s+)?(?:unexpected\s+|internal\s+)?(?:error|exception)\s+(?:occurred|occured|was\s+"
               r"raised|happened)\b", re.IGNORECASE),
    _TRACEBACK,
    re.compile(r"^\s*[A-Za-z_][\w.]*(?:Error|Exception)(?::|\(|\s*$)"),
    re.compile(r"^\s*\[?(?:ERROR|FAILED|FATAL)\b(?!\]?\s*[:=]?\s*\d)"),
)
_WIDTH = 120
_RUN_VALUE = re.compile(r"^\s*hm[0-9a-f]{8}-")
"""How a value a write probe wrote opens (its marker, strategies/markers.py): the run's own words."""
_PUNCTUATION = "[]:!-.,"


def failure_claim(content: list[dict[str, Any]], structured: Any, has_structured: bool,
                  arguments: Mapping[str, Any] | None = None) -> str | None:
    """Why a result that did not set isError says it failed, in a few words; None when it does not."""
    echoed = set(strings_in(arguments or {}))
    if has_structured:
        for value in _unwrapped(structured):
            if (found := _object_claim(value, echoed)) is not None:
                return found
    texts = [str(c.get("text", "")) for c in content if c.get("type") == "text"]
    if not texts:
        return None
    text = texts[0]
    try:
        parsed = json.loads(text)
    except ValueError:
        record = _line_record(text)  # one line (`Error: none`) is a sentence, which the text rules read
        claim = _object_claim(record, echoed) if record is not None and len(record) > 1 else None
        return claim if claim is not None else _text_claim(text, echoed)
    for value in _unwrapped(parsed):
        if (found := _object_claim(value, echoed)) is not None:
            return found
    return None


def _unwrapped(value: Any) -> Iterator[dict[str, Any]]:
    """The object itself, and the object a lone `result` member wraps (a plain return value)."""
    if isinstance(value, dict):
        yield value
        if len(value) == 1 and isinstance(value.get("result"), dict):
            yield value["result"]


def _object_claim(value: dict[str, Any], echoed: set[str]) -> str | None:
    members = {str(k).lower(): v for k, v in value.items()}
    if any(members.get(flag) is True for flag in FALSE_FLAGS):
        return None
    if any(k not in FRAMING_KEYS and v is not None for k, v in members.items()):
        return None
    if any(isinstance(v, str) and _RUN_VALUE.match(v) for v in members.values()):
        return None  # a record the run wrote shown back (`{"status": "error", "message": "hm…-message"}`)
    for key in sorted(ERROR_MEMBERS):
        found = members.get(key)
        if _truthy(found) and not (isinstance(found, str) and _echo(found, echoed)):
            return f"its {key!r} member is {_short(found)}"
    for key in sorted(FALSE_FLAGS):
        if members.get(key) is False:
            return f"{key!r} is false"
    for key, status in members.items():
        if key.endswith("status") and isinstance(status, str) and status.strip().lower() in FAILED_STATUSES \
                and not _echo(status, echoed):
            return f"{key!r} is {_short(status)}"
    return None


def _text_claim(text: str, echoed: set[str]) -> str | None:
    """The first line opens with an error word, and the text is an error message (a few lines, or a
    traceback), not a listing whose lines share their first word (a log that shows an error line).
    A value of the call quoted in the message counts as its first line alone."""
    for value in sorted((v for v in echoed if "\n" in v.strip()), key=len, reverse=True):
        text = text.replace(value, value.strip().splitlines()[0])
    found = [line.strip() for line in text.splitlines() if line.strip()]
    if not found or _echo(found[0], echoed) or _RUN_VALUE.match(found[0]) \
            or not any(p.match(found[0]) for p in _TEXT_FAILURE):
        return None
    if found[0].split()[0].strip(_PUNCTUATION).lower() in {value.strip().lower() for value in echoed}:
        return None  # the caller asked for it: an example message of the kind named "error"
    if not _TRACEBACK.match(found[0]):
        first_word = found[0].split()[0].lower()
        if len(found) > MAX_LINES or any(line.split()[0].lower() == first_word for line in found[1:]):
            return None
    return f"its text opens with {_short(found[0])}"


def _echo(text: str, echoed: set[str]) -> bool:
    """The text came from the call's arguments: user data shown back, not the tool's framing."""
    needle = text.strip()
    return bool(needle) and any(needle in value for value in echoed)


def strings_in(value: Any) -> Iterator[str]:
    """Every string inside a JSON value, however deep."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for inner in value.values():
            yield from strings_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from strings_in(inner)


def _truthy(value: Any) -> bool:
    if isinstance(value, str):
        return bool(value.strip())
    return bool(value)


def _short(value: Any) -> str:
    shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return json.dumps(shown[:_WIDTH], ensure_ascii=False)


TEXT = ""
"""The member a learned text template stands under: the answer's whole text, not a JSON member."""
WILDCARD = "\x00"
"""Where a text template had the id it was asked for: any value may stand there."""


def indicator(member: str, value: Any) -> bool:
    """A member and value that say a call failed by the fixed words above (`ok: false`, `error: "..."`,
    `status: "failed"`): read so only in the answer to a call that cannot succeed, whatever else it carries."""
    key = member.lower()
    if key in FALSE_FLAGS:
        return value is False
    if key in ERROR_MEMBERS:
        return value is True or (isinstance(value, str) and bool(value.strip()))
    return key.endswith("status") and isinstance(value, str) and value.strip().lower() in FAILED_STATUSES


@dataclass(frozen=True)
class LearnedRefusal:
    """A top-level member and value that a server's refusals carried and its successes did not,
    learned by calibration (`{"outcome": "rejected", ...}`): an answer with it is a refusal. With
    `member` TEXT, `value` is the text of the server's not-found answer, WILDCARD where it named
    the id it was asked for: an answer without structuredContent whose whole text reads so is a refusal."""

    member: str
    value: str | int | bool

    def claim(self, content: list[dict[str, Any]], structured: Any, has_structured: bool) -> str | None:
        """Why the answer is one of this server's refusals, or None."""
        if self.member == TEXT:
            if has_structured:
                return None  # the structure says what the answer is; the sentence beside it is its rendering
            texts = [str(c.get("text", "")) for c in content if c.get("type") == "text"]
            return self.reason if texts and isinstance(self.value, str) and _fits(texts[0], self.value) else None
        answer = answer_object(content, structured, has_structured)
        if isinstance(answer, dict) and self.member in answer and _same(answer[self.member], self.value):
            return self.reason
        return None

    @property
    def reason(self) -> str:
        """What an answer of this shape says (an Outcome's `failure`), by which a check tells it apart."""
        if self.member == TEXT:
            shown = str(self.value).replace(WILDCARD, "\u2026")
            return f"its text reads {_short(shown)}, as in the refusals calibration saw"
        return f"its {self.member!r} member is {_short(self.value)}, as in the refusals calibration saw"


def _fits(text: str, template: str) -> bool:
    """The text is the template, any value (the id asked, however odd) in each WILDCARD."""
    parts = [re.escape(part) for part in template.strip().split(WILDCARD)]
    return re.fullmatch(".*?".join(parts), text.strip(), re.DOTALL) is not None


def _same(found: Any, value: str | int | bool) -> bool:
    return type(found) is type(value) and found == value


def answer_object(content: list[dict[str, Any]], structured: Any, has_structured: bool) -> Any:
    """What a learned member is read from: structuredContent, else the first text as JSON, else a
    text made of `name: value` lines (a record printed line by line) as the object it spells."""
    if has_structured:
        return structured
    texts = [str(c.get("text", "")) for c in content if c.get("type") == "text"]
    if not texts:
        return None
    try:
        return json.loads(texts[0])
    except ValueError:
        return _line_record(texts[0])


_LINE = re.compile(r"^\s*([A-Za-z_][\w.-]{0,39}):[ \t]+(\S.*?)\s*$")


def _line_record(text: str) -> dict[str, Any] | None:
    """`success: false` / `reason: ...` as {"success": false, "reason": "..."}: every non-blank line
    a name and a value, a JSON scalar read as one (false, 3), anything else kept as its text."""
    record: dict[str, Any] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        found = _LINE.match(line)
        if found is None or found[1] in record:
            return None
        record[found[1]] = _scalar_text(found[2])
    return record or None


def _scalar_text(value: str) -> Any:
    try:
        parsed = json.loads(value)
    except ValueError:
        return value
    return parsed if isinstance(parsed, bool | int) else value
