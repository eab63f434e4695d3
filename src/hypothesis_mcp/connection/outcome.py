"""One type for everything a tool call can come back with."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from hypothesis_mcp.connection.failure import LearnedRefusal, failure_claim

OutcomeKind = Literal["result", "error", "timeout", "closed", "protocol", "unavailable"]

TIMEOUT_CODE = -32001
CLOSED_CODE = -32000
INTERNAL_ERROR = -32603
_MISSING = object()
_STANDARD_CODES = frozenset({-32700, -32600, -32601, -32602, -32603})
_RESERVED = range(-32768, -31999)
_SERVER_ERRORS = range(-32099, -31999)


def valid_error_code(code: int | None) -> bool:
    """A JSON-RPC error code a client can read as a refusal: not 0 (which reads as no error), and
    inside the range JSON-RPC 2.0 reserves only one of its own codes or an implementation-defined
    server error (-32099..-32000, where MCP's -32002 lives)."""
    if code is None or code == 0:
        return False
    return code not in _RESERVED or code in _STANDARD_CODES or code in _SERVER_ERRORS


def text_lines(text: str) -> list[str]:
    """A server's text split into its lines at line feeds (`\n`, `\r\n`) only. `str.splitlines` also
    breaks at characters a record's value may hold (\x1c, \x85, \u2028...), which would cut one
    record's line or row in two."""
    found = text.split("\n")
    if found[-1] == "":
        found.pop()
    return [line.removesuffix("\r") for line in found]


@dataclass
class Outcome:
    """A result (content, structuredContent, isError), a JSON-RPC error, a timeout, a closed
    connection (with the exit code and stderr tail), a protocol violation, or no call at all
    because the server stopped answering after an earlier call hung (`unavailable`). A tool
    result whose content says it failed though isError is not set carries why in `failure`: it is
    a refusal to every judgement, and the `error-as-success` rule reports it."""

    kind: OutcomeKind
    content: list[dict[str, Any]] = field(default_factory=list)
    structured: Any = None
    has_structured: bool = False
    is_error: bool = False
    code: int | None = None
    message: str = ""
    data: Any = None
    exit_code: int | None = None
    stderr: str = ""
    """A closed connection's stderr tail; for a timeout, what the server wrote while the call hung
    beyond what it writes for every call it answers (connection.hung)."""
    elapsed: float = 0.0
    answer: dict[str, Any] | None = None
    """The whole result of a resources/read or prompts/get, whose `content` holds its list."""
    failure: str | None = None
    """Why a tool result without isError reads as an error (connection.failure), else None."""

    @classmethod
    def from_answer(cls, raw: dict[str, Any], key: str, elapsed: float) -> Outcome:
        """A resources/read (`contents`) or prompts/get (`messages`) result; entries of the wrong
        type are kept for the checks to judge."""
        listed = raw.get(key)
        return cls(kind="result", content=[c if isinstance(c, dict) else {"_not_an_object": c}
                                           for c in listed] if isinstance(listed, list) else [],
                   elapsed=elapsed, answer=raw)

    @classmethod
    def from_result(cls, raw: dict[str, Any], elapsed: float, arguments: Mapping[str, Any] | None = None,
                    refusals: Sequence[LearnedRefusal] = ()) -> Outcome:
        """A tools/call result; `arguments` are the call's, so an answer that shows them back is
        not read as the tool's own error; `refusals` are the shapes calibration learned."""
        structured = raw.get("structuredContent", _MISSING)
        listed = raw.get("content")
        content = [c for c in listed if isinstance(c, dict)] if isinstance(listed, list) else []
        is_error = raw.get("isError") is True
        has_structured = structured is not _MISSING
        structured = None if structured is _MISSING else structured
        failure = None if is_error else failure_claim(content, structured, has_structured, arguments)
        if failure is None and not is_error:
            failure = next((c for shape in refusals if (c := shape.claim(content, structured, has_structured))), None)
        return cls(kind="result", content=content, structured=structured, has_structured=has_structured,
                   is_error=is_error, elapsed=elapsed, failure=failure)

    def slim(self) -> Outcome:
        """A copy small enough to keep for every example: the first text, cut, and no data."""
        text = self.text[:200]
        return replace(self, content=[{"type": "text", "text": text}] if text else [], structured=None, data=None)

    @property
    def ok(self) -> bool:
        """A result the tool reported as a success, whose content does not say it failed."""
        return self.kind == "result" and not self.is_error and self.failure is None

    @property
    def error_shaped(self) -> bool:
        """A success result whose content says the call failed: an error reported as success."""
        return self.kind == "result" and not self.is_error and self.failure is not None

    @property
    def rejected(self) -> bool:
        """The server refused the call itself: an isError result (or one whose content says it
        failed) or a JSON-RPC error it owns."""
        if self.kind == "result":
            return self.is_error or self.failure is not None
        return self.kind == "error" and self.code != INTERNAL_ERROR

    @property
    def protocol_refusal(self) -> bool:
        """A JSON-RPC error with a valid code: how the protocol refuses an unknown name or URI."""
        return self.kind == "error" and valid_error_code(self.code)

    @property
    def text(self) -> str:
        if self.answer is not None:  # resource contents carry `text` directly; prompt messages in `content`
            blocks = [c.get("content") if isinstance(c.get("content"), dict) else c for c in self.content]
            return "\n".join(str(b["text"]) for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str))
        return "\n".join(str(c.get("text", "")) for c in self.content if c.get("type") == "text")

    def value(self) -> Any:
        """The result as data: structuredContent, else the text parsed as JSON, else the text."""
        if self.has_structured and self.structured is not None:
            return self.structured
        text = self.text
        try:
            return json.loads(text)
        except ValueError:
            return text

    def summary(self, width: int = 80) -> str:
        """One line for people: what came back."""
        if self.kind == "result" and self.answer is not None:
            what = "contents" if "contents" in self.answer else "message(s)"
            return f"answered {len(self.content)} {what}" + (f"; first text {json.dumps(self.text[:width])}"
                                                              if self.text else "")
        if self.kind == "result":
            kinds = ", ".join(sorted({str(c.get("type")) for c in self.content})) or "none"
            parts = [f"returned {len(self.content)} content block(s) [{kinds}]"]
            if self.has_structured:
                parts.append("structuredContent present")
            if self.is_error:
                parts.append("isError: true")
            elif self.failure is not None:
                parts.append("isError not set, but the content says it failed")
            text = self.text
            if text:
                shown = text[:width]
                cut = " [truncated]" if len(text) > width else ""
                parts.append(f"first text {json.dumps(shown)}{cut}")
            return "; ".join(parts)
        if self.kind == "error":
            return f"JSON-RPC error {self.code}: {self.message[:width]}"
        tail = self.stderr.strip().splitlines()[-1:] if self.stderr.strip() else []
        shown_tail = f"; stderr: {tail[0][:width]}" if tail else ""
        if self.kind == "timeout":
            return f"no answer within {self.elapsed:.1f}s{shown_tail}"
        if self.kind == "closed":
            return f"connection closed (exit code {self.exit_code}){shown_tail}"
        if self.kind == "unavailable":
            return f"not called: {self.message[:width]}"
        return f"protocol violation: {self.message[:width]}"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "elapsed_s": round(self.elapsed, 4)}
        if self.kind == "result" and self.answer is not None:
            data["answer"] = self.answer
        elif self.kind == "result":
            data.update(content=self.content, isError=self.is_error)
            if self.has_structured:
                data["structuredContent"] = self.structured
        elif self.kind == "error":
            data.update(code=self.code, message=self.message, data=self.data)
        elif self.kind == "closed":
            data.update(exit_code=self.exit_code, stderr=self.stderr[-2000:])
        else:
            data["message"] = self.message
            if self.stderr:
                data["stderr"] = self.stderr[-2000:]
        return data
