"""What a probe of one write needs from the probe run it belongs to.

The update probe (`updates.py`) is started by the probe run (`probes.py`) and asks it for servers,
settings and verdicts; naming that need here lets it depend on this small face, not on the run,
so the two modules do not import each other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import LearnedRefusal
from hypothesis_mcp.model.facts import Fact
from hypothesis_mcp.profiles import Profile
from hypothesis_mcp.results import Check, Result, RuleId, Status
from hypothesis_mcp.search.pool import ServerPool
from hypothesis_mcp.stateful.config import Pair, ProbeConfig
from hypothesis_mcp.stateful.judge import ProbeFinding, Replay, Rest
from hypothesis_mcp.stateful.readers import Reader
from hypothesis_mcp.stateful.roles import GuessedUpdate
from hypothesis_mcp.stateful.watch import Seen

ProbeOutput = Result | ProbeFinding
"""What a probe yields: a finished result, or a finding the run verifies before it reports it."""


class ProbeHost(Protocol):
    pool: ServerPool
    tools: list[Tool]
    profile: Profile
    config: ProbeConfig
    examples: int
    fresh_missed: int
    notes: list[str]

    @property
    def stop(self) -> Callable[[], bool]: ...

    def base(self, tool: Tool) -> dict[str, Any]: ...

    def write_tools(self) -> list[Tool]: ...

    def watched(self) -> dict[str, Seen]: ...

    def guesses(self) -> dict[str, GuessedUpdate]: ...

    def role_fact(self, tool: Tool) -> Fact: ...

    def key_of(self, tool: Tool, readers: list[Reader], given: dict[str, Any], pair: Pair | None) -> str | None: ...

    def refusal_facts(self) -> list[tuple[LearnedRefusal, Fact]]: ...

    def write_args(self, tool: Tool, pair: Pair | None) -> dict[str, Any]: ...

    def reproduces(self, finding: ProbeFinding, rest: Rest | None = None) -> bool: ...

    def replayed(self, finding: ProbeFinding) -> Replay: ...

    def other_causes(self, candidates: list[ProbeFinding], reported: ProbeFinding,
                     write: str) -> Iterator[ProbeFinding]: ...

    def result(self, tool: str, check: Check, status: Status, rule: RuleId | Check, message: str, *,
               confidence: str = "high",
               basis: str = "", finding: ProbeFinding | None = None) -> Result: ...
