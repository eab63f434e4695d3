"""What checks produce: results with their confidence and the calls that reproduce them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Status = Literal["pass", "fail", "warn", "skip", "inconclusive", "waived"]
Kind = Literal["scenario", "smoke", "probe", "lint", "incident"]
Confidence = Literal["high", "medium", "low"]
CONFIDENCE_ORDER = {"high": 0, "medium": 1, "low": 2}


@dataclass(frozen=True)
class Call:
    tool: str
    arguments: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool, "arguments": self.arguments}


@dataclass
class Reproduction:
    """The calls, in order, that show a failure; `fresh_server` says they start from a new process."""

    calls: list[Call]
    fresh_server: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"calls": [c.to_dict() for c in self.calls], "fresh_server": self.fresh_server}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reproduction:
        return cls(
            calls=[Call(c["tool"], dict(c.get("arguments") or {})) for c in data.get("calls", [])],
            fresh_server=bool(data.get("fresh_server", True)),
        )


@dataclass
class Result:
    """One check's outcome on one tool (or on the server, when `tool` is None)."""

    kind: Kind
    check: str
    tool: str | None
    status: Status
    rule: str
    message: str
    confidence: Confidence = "high"
    basis: str = ""
    fix: str = ""
    reproduction: Reproduction | None = None
    details: dict[str, Any] = field(default_factory=dict)
    id: str = ""
    waiver: dict[str, Any] | None = None
    """For a waived result: the waiver (rule, tool, where it was given) and the status it had."""

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


def assign_ids(results: list[Result]) -> None:
    """Stable ids; results that share a key get `#2`, `#3`… in the order their check made them."""
    seen: dict[str, int] = {}
    for result in results:
        key = result_key(result)
        seen[key] = seen.get(key, 0) + 1
        result.id = key if seen[key] == 1 else f"{key}#{seen[key]}"


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

    def to_dict(self) -> dict[str, Any]:
        return {
            "executed": self.executed,
            "reason": self.reason,
            "call_all": self.call_all,
            "summary": {"passed": self.passed, "failed": self.failed, "skipped": self.skipped},
            "coverage": {"tools_called": self.tools_called, "tools_total": self.tools_total},
            "checks": self.checks,
        }


@dataclass
class RunStats:
    calls: int = 0
    examples: int = 0
    server_starts: int = 0
    duration_s: float = 0.0


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
        }

    def waived(self) -> list[Result]:
        return [r for r in self.results if r.status == "waived"]

    def failures(self) -> list[Result]:
        return [r for r in self.results if r.status == "fail"]
