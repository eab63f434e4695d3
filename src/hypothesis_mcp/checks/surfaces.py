"""What the resource and prompt checks share: listing, metadata rules and results.

Resources and prompts are read-only by the protocol (resources/read, prompts/get), so their checks
run under `--smoke` on every server, and their results are smoke results: they never change the
score, and a failure makes `--smoke` exit 4 like any smoke failure.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import unquote

from hypothesis_mcp.connection import Connection, Exchange, Outcome
from hypothesis_mcp.connection.failure import strings_in
from hypothesis_mcp.profiles import Profile
from hypothesis_mcp.results import TOOLS_CALL, Call, Check, Confidence, Reproduction, Result, RuleId, Status
from hypothesis_mcp.rules.registry import fix_for
from hypothesis_mcp.rules.surfaces import NONSTANDARD_CODE, incident, nonstandard, refused

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

    invalid: RuleId
    duplicate: RuleId
    no_description: RuleId


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
                       identity: tuple[str, Any], seen: set[str], *, check: Check, basis: str) -> int:
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

    def judge_unknown(self, outcome: Outcome, call: Call, details: dict[str, Any], *, check: Check, basis: str,
                      accepted_rule: RuleId, accepted: str, what: str, expected: int, internal: bool) -> None:
        """A request for something the server does not list must be refused with a JSON-RPC error
        (`expected` is the code clients look for); a refusal with an invalid code (or -32603 where
        `internal`) is a warning, a crash or hang is its incident, any answer is `accepted`."""
        if (why := nonstandard(outcome, expected, internal=internal)) is not None:
            self.add(nonstandard_result(check, None, f"{what}: {why}", basis=basis, call=call,
                                        details={**details, "code": outcome.code, "expected": expected}))
        elif refused(outcome):
            self.add(smoke_result(check, None, "pass", f"rejected with JSON-RPC error {outcome.code}", basis=basis,
                                  details=details))
        elif (found := incident(outcome)) is not None:
            self.add(smoke_result(check, None, "fail", found.message, rule=found.rule, basis=basis, call=call,
                                  details=details))
        else:
            self.add(smoke_result(check, None, "fail", accepted, rule=accepted_rule, basis=basis, call=call,
                                  details=details))

    def unreachable(self, check: Check, basis: str) -> bool:
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


def smoke_result(check: Check, subject: str | None, status: Status, message: str, *, rule: RuleId | None = None,
                 confidence: Confidence = "high", basis: str, call: Call | None = None,
                 details: dict[str, Any] | None = None, made_by: Call | None = None) -> Result:
    """A smoke result about a resource, template or prompt; a failure carries its reproduction: the
    request, after the tool call that made the record it reads when the run made one (`made_by`),
    so that it replays from a fresh server."""
    failing = status in ("fail", "warn")
    reproduction = None
    if call is not None and failing:
        reproduction = Reproduction([made_by, call], fresh_server=True) if made_by else \
            Reproduction([call], fresh_server=False)
    return Result(
        kind="smoke", check=check, tool=None, status=status, rule=rule or check, message=message,
        confidence=confidence, basis=basis, fix=fix_for(rule or check) if failing else "",
        reproduction=reproduction, details={**({"subject": subject} if subject else {}), **(details or {})},
    )


def nonstandard_result(check: Check, subject: str | None, message: str, *, basis: str, call: Call,
                       details: dict[str, Any], made_by: Call | None = None) -> Result:
    """A refusal with a code clients do not look for: a warning, folded into one per server by
    `one_per_server`."""
    return smoke_result(check, subject, "warn", message, rule=NONSTANDARD_CODE, basis=basis, call=call,
                        details=details, made_by=made_by)


def one_per_server(results: list[Result]) -> list[Result]:
    """The refusals with a nonstandard code are one cause, the server's (or its SDK's) way of
    refusing: one warning about the server, the first, which lists every request that showed it."""
    folded = [r for r in results if r.rule == NONSTANDARD_CODE and r.status == "warn"]
    if not folded:
        return results
    first = folded[0]
    where = [{"check": r.check, "subject": r.subject, "message": r.message} for r in folded]
    message = first.message if len(folded) == 1 else (
        f"{len(folded)} refusals use a code clients do not look for: "
        + "; ".join(dict.fromkeys(r.message for r in folded)))
    kept = {k: v for k, v in first.details.items() if k != "subject"}  # about the server, not one prompt
    merged = replace(first, message=message, details={**kept, "where": where})
    others = {id(r) for r in folded[1:]}
    return [merged if r is first else r for r in results if id(r) not in others]


MIN_MATCH_CHARS = 3
"""A value shorter than this says nothing about which record a URI or prompt argument names."""


def maker_of_uri(transcript: list[Exchange], uri: str) -> Call | None:
    """The first tool call of the run that made the record behind a listed resource: a call that
    succeeded and either answered with the URI or was sent a string that is one of the URI's path
    segments, percent-encoded or not (`notes://Art%20Club` is made by a call sent "Art Club")."""
    segments = {part for raw in (uri.partition("://")[2] or uri).split("/") for part in (raw, unquote(raw))}
    for exchange, arguments in _successful_calls(transcript):
        answered = json.dumps(exchange.outcome, ensure_ascii=False)
        sent = {s for s in strings_in(arguments) if len(s) >= MIN_MATCH_CHARS}
        if uri in answered or unquote(uri) in answered or segments & sent:
            return Call(str(exchange.params.get("name")), arguments)
    return None


def maker_of_values(transcript: list[Exchange], values: list[str]) -> Call | None:
    """The first tool call of the run that succeeded and was sent one of `values` (a prompt's
    arguments naming a record the run made)."""
    wanted = {v for v in values if len(v) >= MIN_MATCH_CHARS}
    for exchange, arguments in _successful_calls(transcript):
        if wanted & set(strings_in(arguments)):
            return Call(str(exchange.params.get("name")), arguments)
    return None


def _successful_calls(transcript: list[Exchange]) -> Iterator[tuple[Exchange, dict[str, Any]]]:
    for exchange in transcript:
        arguments = exchange.params.get("arguments")
        if exchange.method == TOOLS_CALL and isinstance(arguments, dict) and exchange.outcome.get("kind") == "result" \
                and not exchange.outcome.get("isError"):
            yield exchange, arguments


def one_per_cause(results: list[Result], noun: str, listed: str = "subjects") -> list[Result]:
    """`results` with one finding per rule: several resources, templates or prompts failing alike
    are one cause (a server that never decodes its URIs fails them all), reported once with the
    count, what failed (under `listed`) and the first one's reproduction."""
    by_rule: dict[str, list[Result]] = {}
    for result in results:
        if result.status in ("fail", "warn"):
            by_rule.setdefault(result.rule, []).append(result)
    kept: list[Result] = []
    for result in results:
        alike = by_rule.get(result.rule, []) if result.status in ("fail", "warn") else []
        if len(alike) < 2:
            kept.append(result)
        elif result is alike[0]:
            names = [str(r.details.get("uri") if listed == "uris" else r.subject) for r in alike]
            kept.append(replace(
                result,
                message=f"{len(alike)} of {len(results)} {noun} fail alike; the first, {names[0]}: {result.message}",
                details={**result.details, "subject": f"{len(alike)} {noun.split()[-1]}", "count": len(alike),
                         listed: names[:20]}))
    return kept


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
