"""What checks produce: results with their confidence and the calls that reproduce them."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Final, Literal

Status = Literal["pass", "fail", "warn", "skip", "inconclusive", "waived"]
Kind = Literal["scenario", "smoke", "probe", "lint", "incident"]
Confidence = Literal["high", "medium", "low"]
CONFIDENCE_ORDER = {"high": 0, "medium": 1, "low": 2}
IncidentRule = Literal["server-crashed", "call-timeout", "protocol-violation"]
"""A crash, hang or protocol violation: reported once as an incident whose check is its rule."""
RuleId = Literal[
    # Effect probes
    "probe-silent-noop", "probe-data-lost", "probe-value-changed", "probe-pages-skip", "probe-pages-repeat",
    "probe-write-not-observable", "probe-bound-exceeded", "probe-bound-short", "probe-slice-mismatch",
    "probe-paths-disagree", "probe-read-changed-state", "probe-delete-kept", "probe-delete-took-other",
    "probe-delete-again-succeeded", "probe-rename-lost-fields", "probe-rename-left-old",
    "probe-identity-folded", "probe-identity-prefix", "probe-readers-disagree",
    "probe-count-wrong", "probe-overwrite-kept-old", "probe-not-idempotent", "probe-refusal-changed-state",
    "probe-reference-dangling",
    # Smoke checks
    "smoke_structured_content", "smoke_invalid_arguments", "smoke_unknown_tool",
    # Scenarios
    "happy-rejected-valid-input", "happy-output-schema", "edge-accepted-invalid-input", "edge-internal-error",
    "happy-tool-not-exercised", "error-as-success", "read-missing-as-success", "scenario-failed",
    # Incidents
    IncidentRule, "stdout-not-protocol", "state-persists",
    # Lint
    "lint-missing-input-schema", "lint-input-schema-invalid", "lint-input-schema-root", "lint-output-schema-invalid",
    "lint-output-schema-root", "lint-unresolved-ref", "lint-unknown-dialect", "lint-invalid-name",
    "lint-duplicate-name", "lint-hidden-unicode", "lint-instruction-text", "lint-annotation-invalid",
    "lint-annotation-contradicts-name", "lint-annotation-conflict", "lint-missing-annotations",
    "lint-missing-description", "lint-short-description", "lint-duplicate-description", "lint-untyped-property",
    "lint-undocumented-property", "lint-required-undeclared", "lint-oversized-definition",
    # Resources and prompts
    "resource-invalid-entry", "resource-duplicate-uri", "resource-missing-description", "resource-read-failed",
    "resource-contents-invalid", "resource-uri-mismatch", "resource-mime-mismatch", "resource-unknown-accepted",
    "prompt-invalid-entry", "prompt-duplicate-name", "prompt-missing-description", "prompt-undocumented-argument",
    "prompt-messages-invalid", "prompt-missing-argument-accepted", "prompt-unknown-accepted",
    "refusal-nonstandard-code",
]
"""Every rule id of rules/registry.py's RULES (tests/test_scorecard.py keeps the two equal), so
the type checker refuses a misspelt or unregistered id; the JSON report carries the same strings."""
Check = Literal[
    "lint", "happy", "edge", "error-as-success", "read-missing-as-success",
    "smoke_structured_content", "smoke_invalid_arguments", "smoke_unknown_tool",
    "smoke_resource_metadata", "smoke_resource_read", "smoke_resource_template", "smoke_unknown_resource",
    "smoke_prompt_metadata", "smoke_prompt_get", "smoke_prompt_missing_argument", "smoke_unknown_prompt",
    "round-trip", "isolation", "bound", "agreement", "idempotent", "pages", "reads", "agree", "fields",
    "variants", "deletes", "renames", "laws", IncidentRule, "stdout-not-protocol",
]
"""Every check's name. A pass or a skip names its check where a failure names its rule."""


TOOLS_CALL: Final = "tools/call"
RESOURCES_READ: Final = "resources/read"
PROMPTS_GET: Final = "prompts/get"
Method = Literal["tools/call", "resources/read", "prompts/get"]


@dataclass(frozen=True)
class Binding:
    """A value the server made up (a new record's id) that later calls of a reproduction use.

    The answer of the call that carries it holds the value under one of `names`, at its top level or
    one level down, or, with `holding`, in the record that holds that marker token. A replay on a
    fresh server finds the value anew there and gives it to the later calls in place of `value`."""

    value: Any
    names: tuple[str, ...]
    holding: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "names": list(self.names), **({"holding": self.holding} if self.holding else {})}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Binding:
        holding = data.get("holding")
        return cls(data.get("value"), tuple(str(n) for n in data.get("names") or ()),
                   str(holding) if holding else None)


@dataclass(frozen=True)
class Call:
    """One request of a reproduction. `tool` names what the request addresses: the tool for
    tools/call, the prompt for prompts/get, the resource URI for resources/read. `binds` are values
    its answer holds that later calls use."""

    tool: str
    arguments: dict[str, Any]
    method: Method = "tools/call"
    binds: tuple[Binding, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        if self.method == RESOURCES_READ:
            return {"method": self.method, "uri": self.tool}
        if self.method == PROMPTS_GET:
            return {"method": self.method, "prompt": self.tool, "arguments": self.arguments}
        binds = {"binds": [b.to_dict() for b in self.binds]} if self.binds else {}
        return {"tool": self.tool, "arguments": self.arguments, **binds}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Call:
        """Reads every form `to_dict` writes; a call without `method` is a tools/call."""
        method = data.get("method", TOOLS_CALL)
        if method == RESOURCES_READ:
            return cls(str(data["uri"]), {}, RESOURCES_READ)
        if method == PROMPTS_GET:
            return cls(str(data["prompt"]), dict(data.get("arguments") or {}), PROMPTS_GET)
        binds = tuple(Binding.from_dict(b) for b in data.get("binds") or () if isinstance(b, dict))
        return cls(data["tool"], dict(data.get("arguments") or {}), binds=binds)

    def describe(self) -> str:
        """The call as one line: `tool({...})`, `resources/read <uri>` or `prompts/get name({...})`."""
        args = json.dumps(self.arguments, ensure_ascii=False)
        if self.method == RESOURCES_READ:
            return f"resources/read {self.tool}"
        if self.method == PROMPTS_GET:
            return f"prompts/get {self.tool}({args})"
        return f"{self.tool}({args})"


@dataclass(frozen=True)
class Reproduction:
    """The calls, in order, that show a failure; `fresh_server` says they start from a new process."""

    calls: list[Call]
    fresh_server: bool = True
    refusals: list[tuple[str, str | int | bool]] = field(default_factory=list)
    """The server's own refusal shapes (member, value) the run learned and read answers by, so a
    replay reads the answers as the run did."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"calls": [c.to_dict() for c in self.calls], "fresh_server": self.fresh_server}
        if self.refusals:
            data["refusals"] = [{"member": member, "value": value} for member, value in self.refusals]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reproduction:
        listed = data.get("refusals")
        return cls(
            calls=[Call.from_dict(c) for c in data.get("calls", [])],
            fresh_server=bool(data.get("fresh_server", True)),
            refusals=[(str(r["member"]), r["value"]) for r in listed if isinstance(r, dict) and "member" in r
                      and isinstance(r.get("value"), str | int | bool)] if isinstance(listed, list) else [],
        )
CAUSE = "field"
"""The detail that names a finding's cause: the field whose value a write broke."""
SAME_CAUSE = "same_cause"
"""A failure's link to the result that reports its cause (a smoke check's to its tool's scenario)."""
EXERCISED = "valid_calls_succeeded"
ANSWERED = "calls_answered"
GIVEN_OUTSIDE = "given_outside_schema"
"""A happy result not judged: the user's values for the tool break its inputSchema (--allow-invalid-args)."""
"""How many generated calls of a scenario the tool answered (the share error-as-success weighs by)."""
"""A happy result's count of generated valid calls the tool served with success: 0 is not exercised."""


@dataclass(frozen=True)
class Result:
    """One check's outcome on one tool (or on the server, when `tool` is None). Immutable: the
    checks make it, and the run's finishing step (finishing.py) makes the finished copy with its
    id, incident link, fix hint and waiver."""

    kind: Kind
    check: Check
    tool: str | None
    status: Status
    rule: RuleId | Check
    message: str
    confidence: Confidence = "high"
    basis: str = ""
    fix: str = ""
    reproduction: Reproduction | None = None
    details: dict[str, Any] = field(default_factory=dict)
    id: str = ""
    waiver: dict[str, Any] | None = None
    """For a waived result: the waiver (rule, tool, where it was given) and the status it had."""

    @property
    def covered_by(self) -> str | None:
        """The id of the result that reports this failure's (or warning's) cause, when another does:
        the incident of a crash or hang, the scenario that failed by the same rule on the same tool,
        or the first tool of a cause shown on many (checks/causes.py; for an incident, only that)."""
        if self.status not in ("fail", "warn"):
            return None
        found = self.details.get(SAME_CAUSE) if self.kind == "incident" else \
            self.details.get("incident") or self.details.get(SAME_CAUSE)
        return found if isinstance(found, str) else None

    @property
    def subject(self) -> str:
        """What the result is about, for people: the tool, a resource or prompt, or the server."""
        return self.tool or str(self.details.get("subject") or "server")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["reproduction"] = self.reproduction.to_dict() if self.reproduction else None
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        repro = data.get("reproduction")
        return cls(
            kind=data["kind"], check=data["check"], tool=data.get("tool"), status=data["status"],
            rule=data.get("rule", ""), message=data.get("message", ""),
            confidence=data.get("confidence", "high"), basis=data.get("basis", ""),
            fix=data.get("fix", ""), reproduction=Reproduction.from_dict(repro) if repro else None,
            details=dict(data.get("details") or {}), id=data.get("id", ""),
            waiver=data.get("waiver"),
        )


def result_key(result: Result) -> str:
    """A readable id from what a result is about (kind, check, rule, tool), never from the order
    or the options of a run, so a waiver or a link to it can be written down."""
    return "/".join((result.kind, result.check, result.rule, result.tool or "server"))


def cause_of(details: dict[str, Any]) -> str | None:
    """What tells two findings of one rule on one tool apart: the field whose value broke."""
    cause = details.get(CAUSE)
    return cause if isinstance(cause, str) and cause else None


def with_ids(results: list[Result]) -> list[Result]:
    """The results with stable ids. A result that shares its key with an earlier one is named by
    its cause when it has one (`…/add_todo[due]`: another field of the same write), else `#2`,
    `#3`… in the order their check made them; the first keeps the bare key, so a finding's id
    does not change when a second cause is found beside it."""
    seen: dict[str, int] = {}
    used: set[str] = set()
    named = []
    for result in results:
        key = result_key(result)
        seen[key] = seen.get(key, 0) + 1
        cause = cause_of(result.details)
        name = key if seen[key] == 1 else f"{key}[{cause}]" if cause else f"{key}#{seen[key]}"
        name = f"{key}#{seen[key]}" if name in used else name
        used.add(name)
        named.append(replace(result, id=name))
    return named


@dataclass
class GradeCap:
    enabled: bool = True
    capped: bool = False
    cap: str | None = None
    uncapped_grade: str | None = None
    reasons: list[str] = field(default_factory=list)
    note: str | None = None


@dataclass
class Smoke:
    """The smoke section: always present, `executed` false with a reason when it did not run."""

    executed: bool = False
    reason: str | None = "not requested (add --smoke)"
    call_all: bool = False
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    tools_called: int = 0
    tools_total: int = 0
    checks: list[dict[str, Any]] = field(default_factory=list)
    surfaces: list[dict[str, Any]] = field(default_factory=list)
    """The resource and prompt checks, kept apart so the tool counts above keep their meaning."""

    @property
    def any_failed(self) -> bool:
        return self.failed > 0 or any(c.get("verdict") == "fail" for c in self.surfaces)

    def surface_summary(self) -> dict[str, int]:
        verdicts = [c.get("verdict") for c in self.surfaces]
        return {"passed": verdicts.count("pass"), "failed": verdicts.count("fail"),
                "warned": verdicts.count("warn"), "skipped": verdicts.count("skip")}

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "executed": self.executed,
            "reason": self.reason,
            "call_all": self.call_all,
            "summary": {"passed": self.passed, "failed": self.failed, "skipped": self.skipped},
            "coverage": {"tools_called": self.tools_called, "tools_total": self.tools_total},
            "checks": self.checks,
        }
        if self.executed:
            data["resources_prompts"] = {"summary": self.surface_summary(), "checks": self.surfaces}
        return data


@dataclass
class RunStats:
    calls: int = 0
    examples: int = 0
    server_starts: int = 0
    duration_s: float = 0.0
    fresh_missed: int = 0
    """Broken laws a warm server showed that no fresh server showed again: not reported."""


@dataclass
class Report:
    """Everything one run produced; every output format renders this."""

    tool: dict[str, str]
    target: str
    profile: str
    seed: int | None
    server: dict[str, str]
    grade: str = "F"
    score: float = 0.0
    subscores: dict[str, float | None] = field(default_factory=dict)
    grade_cap: GradeCap = field(default_factory=GradeCap)
    results: list[Result] = field(default_factory=list)
    smoke: Smoke = field(default_factory=Smoke)
    stats: RunStats = field(default_factory=RunStats)
    isolation: str = "fresh-process"
    notes: list[str] = field(default_factory=list)
    tools_total: int = 0
    interrupted: bool = False
    partial_reasons: list[str] = field(default_factory=list)
    """Why the run is incomplete (time ran out, interrupted, checks that could not run); empty
    for a complete run. A partial run never passes `--ci`."""
    waivers: list[dict[str, Any]] = field(default_factory=list)
    server_env: list[str] = field(default_factory=list)
    """The names of the environment variables the run set for the server (--env, a config's `env`,
    a strategy's env), never their values: a replay must set them too."""

    @property
    def partial(self) -> bool:
        return bool(self.partial_reasons)

    @property
    def partial_reason(self) -> str | None:
        return "; ".join(self.partial_reasons) or None

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": 1,
            "tool": self.tool,
            "target": self.target,
            "profile": self.profile,
            "seed": self.seed,
            "server": self.server,
            "grade": self.grade,
            "score": self.score,
            "subscores": self.subscores,
            "grade_cap": asdict(self.grade_cap),
            "results": [r.to_dict() for r in self.results],
            "smoke": self.smoke.to_dict(),
            "stats": asdict(self.stats),
            "isolation": self.isolation,
            "notes": self.notes,
            "partial": self.partial,
            "partial_reason": self.partial_reason,
            "interrupted": self.interrupted,
            "waivers": self.waivers,
            "server_env": self.server_env,
        }

    def waived(self) -> list[Result]:
        return [r for r in self.results if r.status == "waived"]

    def failures(self) -> list[Result]:
        """Failed results, each cause once: a crash or hang several checks hit is its incident."""
        return [r for r in self.results if r.status == "fail" and r.covered_by is None]


@dataclass
class ServerGrade:
    """One server of a fleet: its report, or why it has none (it did not start, its entry is wrong),
    and the exit code a run of that server alone would give."""

    name: str
    target: str
    exit: int
    report: Report | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "target": self.target,
            "grade": self.report.grade if self.report else None,
            "score": self.report.score if self.report else None,
            "exit": self.exit,
            "error": self.error,
            "report": self.report.to_dict() if self.report else None,
        }
