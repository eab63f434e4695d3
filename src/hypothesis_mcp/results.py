"""What checks produce: results with their confidence and the calls that reproduce them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Status = Literal["pass", "fail", "warn", "skip", "inconclusive"]
Kind = Literal["scenario", "smoke", "probe", "lint", "incident"]
Confidence = Literal["high", "medium", "low"]


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
        )
