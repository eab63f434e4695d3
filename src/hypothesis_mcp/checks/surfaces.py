"""What the resource and prompt checks share: listing, metadata rules and results.

Resources and prompts are read-only by the protocol (resources/read, prompts/get), so their checks
run under `--smoke` on every server, and their results are smoke results: they never change the
score, and a failure makes `--smoke` exit 4 like any smoke failure.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.connection import Connection, Outcome
from hypothesis_mcp.profiles import Profile
from hypothesis_mcp.results import Call, Confidence, Reproduction, Result, Status
from hypothesis_mcp.rules.registry import fix_for
from hypothesis_mcp.rules.surfaces import bad_code, incident, refused

METHOD_NOT_FOUND = -32601
MIN_DESCRIPTION_CHARS = 20
MEDIA_TYPE = re.compile(r"[A-Za-z0-9][\w!#$&^.+-]{0,126}/[A-Za-z0-9][\w!#$&^.+-]{0,126}(\s*;.*)?")
URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:\S*")


@dataclass
class Listing:
    """One listing's entries, or why there are none to check."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    absent: str | None = None
    """Set when the server does not offer this listing at all (method not found)."""
    broken: Outcome | None = None


@dataclass(frozen=True)
class MetadataRules:
    """The rule ids a listing's metadata is judged under, for one kind of entry."""

    invalid: str
    duplicate: str
    no_description: str


@dataclass
class SurfaceChecks:
    """The state a resource or prompt check run keeps: where it calls, its results so far."""

    conn: Connection
    profile: Profile
    stop: Callable[[], bool] = lambda: False
    results: list[Result] = field(default_factory=list)
    on_result: Callable[[Result], None] = lambda result: None
    """Told of each result as it is made, for a progress display."""

    def __post_init__(self) -> None:
        # A server that stopped answering after a hang gets no more requests: they would only come
        # back unsent and read as failures of their own.
        outer = self.stop
        self.stop = lambda: outer() or self.conn.unavailable is not None

    def add(self, result: Result) -> None:
        self.results.append(result)
        self.on_result(result)

    def entry_metadata(self, rules: MetadataRules, subject: str, entry: dict[str, Any], problems: list[str],
                       identity: tuple[str, Any], seen: set[str], *, check: str, basis: str) -> int:
        """The results every listed entry can earn (invalid fields, an identity listed twice, no
        description), whatever the listing; how many it found."""
        found = 0
        if problems:
            found += 1
            self.add(smoke_result(check, subject, "fail", "; ".join(problems), rule=rules.invalid, basis=basis,
                                  details={"entry": entry}))
        label, value = identity
        if isinstance(value, str):
            if value in seen:
                found += 1
                self.add(smoke_result(check, subject, "fail", f"{label} {value} is listed twice",
                                      rule=rules.duplicate, basis=basis))
            seen.add(value)
        if (problem := description_problem(entry)) is not None:
            found += 1
            self.add(smoke_result(check, subject, "warn", problem, rule=rules.no_description, basis=basis))
        return found

    def judge_unknown(self, outcome: Outcome, call: Call, details: dict[str, Any], *, check: str, basis: str,
                      accepted_rule: str, accepted: str) -> None:
        """A request for something the server does not list must be refused with a JSON-RPC error;
        a crash or hang is its incident, any answer is `accepted`."""
        if refused(outcome):
            self.add(smoke_result(check, None, "pass", f"rejected with JSON-RPC error {outcome.code}", basis=basis,
                                  details=details))
        elif (found := incident(outcome)) is not None:
            self.add(smoke_result(check, None, "fail", found.message, rule=found.rule, basis=basis, call=call,
                                  details=details))
        else:
            self.add(smoke_result(check, None, "fail", bad_code(outcome) or accepted, rule=accepted_rule, basis=basis,
                                  call=call, details=details))

    def unreachable(self, check: str, basis: str) -> bool:
        """Say once, as a skip, that the server no longer answers; True when it does not."""
        if self.conn.unavailable is None:
            return False
        self.add(smoke_result(check, None, "skip", f"not checked: {self.conn.unavailable}", basis=basis))
        return True


def list_entries(conn: Connection, method: str) -> Listing:
    feature = method.split("/")[0]
    if not conn.offers(feature):
        return Listing(absent=f"the server does not offer {method} (no {feature} capability)")
    answer = conn.list_all(method)
    if isinstance(answer, list):
        return Listing(entries=answer)
    if answer.kind == "error" and answer.code == METHOD_NOT_FOUND:
        return Listing(absent=f"the server does not offer {method} (method not found)")
    return Listing(broken=answer)


def smoke_result(check: str, subject: str | None, status: Status, message: str, *, rule: str | None = None,
                 confidence: Confidence = "high", basis: str, call: Call | None = None,
                 details: dict[str, Any] | None = None) -> Result:
    """A smoke result about a resource, template or prompt; failures carry a one-call reproduction."""
    failing = status in ("fail", "warn")
    return Result(
        kind="smoke", check=check, tool=None, status=status, rule=rule or check, message=message,
        confidence=confidence, basis=basis, fix=fix_for(rule or check) if failing else "",
        reproduction=Reproduction([call], fresh_server=False) if call is not None and failing else None,
        details={**({"subject": subject} if subject else {}), **(details or {})},
    )


def text_problem(entry: dict[str, Any], key: str, *, required: bool) -> str | None:
    value = entry.get(key)
    if value is None:
        return f"no {key}" if required else None
    if not isinstance(value, str) or not value.strip():
        return f"{key} is not a non-empty string ({value!r:.40})"
    return None


def description_problem(entry: dict[str, Any]) -> str | None:
    description = entry.get("description")
    if description is None or (isinstance(description, str) and not description.strip()):
        return "no description"
    if not isinstance(description, str):
        return f"description is not a string ({description!r:.40})"
    if len(description.strip()) < MIN_DESCRIPTION_CHARS:
        return f"description is only {len(description.strip())} characters ({description.strip()!r})"
    return None


def unknown_name(names: set[str], prefix: str) -> str:
    """A name built from the listing itself, so it cannot collide with a real entry."""
    digest = hashlib.sha256("\0".join(sorted(names)).encode()).hexdigest()[:10]
    name = f"{prefix}{digest}"
    while name in names:
        name += "_x"
    return name
