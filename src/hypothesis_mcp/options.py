"""What one run is asked to do: the profile, the checks and probes it runs, their limits."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.profiles import Profile, make_profile
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.strategies import Overrides
from hypothesis_mcp.waivers import Waiver


@dataclass
class RunOptions:
    profile: Profile = field(default_factory=lambda: make_profile("grading"))
    smoke: bool = False
    call_all: bool = False
    probes: bool = False
    allow_writes: bool = False
    allow_deletes: bool = False
    """Let the deletes probe call deleting tools, on records the run itself wrote (needs allow_writes)."""
    probe_config: ProbeConfig | None = None
    overrides: Overrides | None = None
    allow_invalid_args: bool = False
    """Send `--arg` values the inputSchema forbids (else a usage error); a refusal of one is no finding."""
    read_only: bool = False
    probe_grade_cap: bool = True
    timeout: float = 30.0
    startup_timeout: float = 30.0
    max_time: float | None = None
    workers: int = 1
    """Lanes running tools' checks in parallel, each on server processes of its own."""
    waivers: list[Waiver] = field(default_factory=list)
    """`--ignore RULE[:TOOL]`; a probe config's `ignore:` list is added to these."""
    include_tools: list[str] = field(default_factory=list)
    exclude_tools: list[str] = field(default_factory=list)
    """`--include-tool` / `--exclude-tool` globs: the tools every check and probe sees."""

    def __post_init__(self) -> None:
        if self.allow_deletes and not self.allow_writes:
            raise UsageError("--allow-deletes deletes only records the run itself wrote, so it needs "
                             "--allow-writes too")
