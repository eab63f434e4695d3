"""What a correct resources/read or prompts/get answer satisfies: the judgement the resource and
prompt checks make and a replay of their reproductions repeats."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

import mcp_types as types
from pydantic import ValidationError

from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.results import Check, RuleId
from hypothesis_mcp.rules.expectations import Expectation, Finding, NoIncident

READ_FAILED: RuleId = "resource-read-failed"
BAD_CONTENTS: RuleId = "resource-contents-invalid"
URI_MISMATCH: RuleId = "resource-uri-mismatch"
MIME_MISMATCH: RuleId = "resource-mime-mismatch"
RESOURCE_UNKNOWN_ACCEPTED: RuleId = "resource-unknown-accepted"
BAD_MESSAGES: RuleId = "prompt-messages-invalid"
MISSING_ACCEPTED: RuleId = "prompt-missing-argument-accepted"
PROMPT_UNKNOWN_ACCEPTED: RuleId = "prompt-unknown-accepted"
NONSTANDARD_CODE: RuleId = "refusal-nonstandard-code"
RESOURCE_NOT_FOUND = -32002
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


def refused(outcome: Outcome) -> bool:
    """A JSON-RPC error answer with a valid code: the way the protocol refuses a read or a prompt
    request."""
    return outcome.protocol_refusal


def nonstandard(outcome: Outcome, expected: int, *, internal: bool = True) -> str | None:
    """Why a JSON-RPC error refuses with a code clients do not look for, if it does: code 0 (as one
    popular SDK answers every exception) or any invalid code, and, where `internal`, -32603, which
    says the server broke rather than that the name is unknown. The answer is still a refusal:
    nothing was served."""
    if outcome.kind != "error" or (outcome.protocol_refusal and not (internal and outcome.code == INTERNAL_ERROR)):
        return None
    return f"refused with code {outcome.code}; clients expect {expected}"


def bad_code(outcome: Outcome) -> str | None:
    """Why a JSON-RPC error does not count as a refusal: its code is not a valid error code."""
    if outcome.kind != "error" or outcome.protocol_refusal:
        return None
    return (f"answered with JSON-RPC error code {outcome.code}, which is not a valid error code (0 reads as no "
            "error; JSON-RPC reserves -32768..-32000 for its own codes and server errors), so no client can "
            "read it as a refusal")


def incident(outcome: Outcome) -> Finding | None:
    """The server exited, hung or broke the protocol on this request."""
    return NoIncident().breach(outcome)


def contents_problem(outcome: Outcome, uri: str, mime_type: Any) -> Finding | None:
    """What is wrong with a successful read of `uri`, if anything (`mime_type` from the listing)."""
    returned = {"returned": outcome.summary()}
    contents = (outcome.answer or {}).get("contents")
    if not isinstance(contents, list) or not contents:
        return Finding(BAD_CONTENTS, "the read answered without a non-empty contents list", returned)
    for index, entry in enumerate(outcome.content):
        where = f"contents[{index}]"
        if not isinstance(entry.get("uri"), str):
            return Finding(BAD_CONTENTS, f"{where} has no uri", returned)
        has_text, has_blob = isinstance(entry.get("text"), str), isinstance(entry.get("blob"), str)
        if has_text == has_blob:
            carried = "both text and blob" if has_text else "neither text nor blob"
            return Finding(BAD_CONTENTS, f"{where} carries {carried}", returned)
        if has_blob:
            try:
                base64.b64decode(entry["blob"], validate=True)
            except (binascii.Error, ValueError):
                return Finding(BAD_CONTENTS, f"{where}.blob is not base64", returned)
    mine = [entry for entry in outcome.content if entry.get("uri") == uri]
    if not mine:
        given = sorted({str(entry.get("uri")) for entry in outcome.content})[:3]
        return Finding(URI_MISMATCH, f"no contents entry carries the URI read ({uri}); they carry {', '.join(given)}",
                       {**returned, "uri": uri, "contents_uris": given})
    answered = mine[0].get("mimeType")
    if isinstance(mime_type, str) and isinstance(answered, str) and _media(answered) != _media(mime_type):
        return Finding(MIME_MISMATCH, f"the listing declares mimeType {mime_type} but the read answers {answered}",
                       {**returned, "declared": mime_type, "answered": answered})
    return None


def _media(mime_type: str) -> str:
    return mime_type.split(";")[0].strip().lower()


def messages_problem(outcome: Outcome) -> Finding | None:
    """What breaks the GetPromptResult shape in a successful prompts/get, if anything."""
    try:
        types.GetPromptResult.model_validate(outcome.answer or {})
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        return Finding(BAD_MESSAGES, f"the answer is not a valid prompt result: {error['msg']} (at {where})",
                       {"returned": outcome.summary()})
    return None


class SurfaceAnswer(Expectation):
    """An expectation about a resources/read or prompts/get answer, which also says why it holds or not."""

    def why(self, answer: Outcome) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class ReadAnswer(SurfaceAnswer):
    """A read of `uri` does not break `rule` again (`mime_type` is the listing's)."""

    rule: RuleId | Check
    uri: str
    mime_type: Any = None

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if self.rule == NONSTANDARD_CODE:
            return nonstandard(answer, RESOURCE_NOT_FOUND) is None
        if self.rule == RESOURCE_UNKNOWN_ACCEPTED:
            return refused(answer)
        if incident(answer) is not None:
            return False
        if not answer.ok:
            return self.rule != READ_FAILED
        finding = contents_problem(answer, self.uri, self.mime_type)
        return finding is None or finding.rule != self.rule

    def why(self, answer: Outcome) -> str:
        if self.rule not in (RESOURCE_UNKNOWN_ACCEPTED, NONSTANDARD_CODE) and (found := incident(answer)) is not None:
            return found.message
        if self.rule in (RESOURCE_UNKNOWN_ACCEPTED, NONSTANDARD_CODE) or not answer.ok:
            return answer.summary()
        finding = contents_problem(answer, self.uri, self.mime_type)
        return finding.message if finding else "the contents now match"


@dataclass(frozen=True)
class PromptAnswer(SurfaceAnswer):
    """A prompts/get does not break `rule` again: refused when it must be, a valid prompt result otherwise."""

    rule: RuleId | Check

    def holds(self, answer: Outcome, before: Outcome | None = None) -> bool:
        if self.rule == NONSTANDARD_CODE:
            return nonstandard(answer, INVALID_PARAMS, internal=False) is None
        if self.rule in (MISSING_ACCEPTED, PROMPT_UNKNOWN_ACCEPTED):
            return refused(answer)
        if incident(answer) is not None:
            return False
        return not answer.ok or messages_problem(answer) is None

    def why(self, answer: Outcome) -> str:
        if self.rule in (MISSING_ACCEPTED, PROMPT_UNKNOWN_ACCEPTED, NONSTANDARD_CODE):
            return answer.summary()
        if (found := incident(answer)) is not None:
            return found.message
        if not answer.ok:
            return f"the request is now refused: {answer.summary()}"
        finding = messages_problem(answer)
        return finding.message if finding else "the messages are now valid"
