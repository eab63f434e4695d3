"""The gates a run is held to: which failures block, which cap the grade, and the exit code.

One place for the policy the CLI's exit code, the scorecard's grade cap and the reports share.
3 (score below --fail-under) wins over 4 (a smoke check failed), which wins over 1 (a blocking
failure, with or without --ci; under --ci a partial run too). Waived results never gate; a partial
run never passes --ci. `--exit-zero` keeps a report-only run at 0 whatever it found, the gate line
still naming what would have failed. A fleet exits with its worst server's code: an interrupted run
first, then a server that could not be graded at all (2, then 5: it has no grade to hold to a
gate), then the gates in the order above.
"""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.results import Report, Result

EXIT_OK, EXIT_BLOCKING, EXIT_USAGE, EXIT_SCORE, EXIT_SMOKE, EXIT_START = 0, 1, 2, 3, 4, 5
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143
"""128 + the signal: SIGINT (Ctrl-C), SIGTERM."""
INCOMPLETE = "incomplete run"
Gate = tuple[str, float | str]
SEVERITY = (EXIT_OK, EXIT_BLOCKING, EXIT_SMOKE, EXIT_SCORE, EXIT_START, EXIT_USAGE, EXIT_INTERRUPTED,
            EXIT_TERMINATED)
"""Exit codes from the mildest to the worst, for a run of several servers."""


def parse_fail_under(value: str | None) -> Gate | None:
    if value is None:
        return None
    text = value.strip().rstrip("%").upper()
    if text in ("A", "B", "C", "D", "F"):
        return ("grade", text)
    try:
        number = float(text)
    except ValueError:
        raise UsageError(f"--fail-under takes a grade letter (A-F) or a percentage, not {value!r}") from None
    if not 0 <= number <= 100:
        raise UsageError(f"--fail-under percentage must be between 0 and 100, not {value!r}")
    return ("score", number)


def below(report: Report, gate: Gate | None) -> bool:
    if gate is None:
        return False
    kind, threshold = gate
    if kind == "grade":
        order = "ABCDF"
        return order.index(report.grade) > order.index(str(threshold))
    return report.score < float(threshold)


def exit_code(report: Report, gate: Gate | None, *, ci: bool, exit_zero: bool = False) -> int:
    """The run's exit code; with `exit_zero` (a report-only run) 0 unless it was interrupted."""
    if report.interrupted:
        return EXIT_INTERRUPTED
    if exit_zero:
        return EXIT_OK
    return gated(report, gate, ci=ci)


def gated(report: Report, gate: Gate | None, *, ci: bool) -> int:
    """The gate that fails the run (0: none does), `--exit-zero` or not."""
    if below(report, gate):
        return EXIT_SCORE
    if report.smoke.executed and report.smoke.any_failed:
        return EXIT_SMOKE
    if blocking(report) or (ci and report.partial):
        return EXIT_BLOCKING
    return EXIT_OK


def worst(codes: Iterable[int]) -> int:
    """The exit code of several servers' runs: the worst of theirs (0 for none)."""
    return max(codes, key=SEVERITY.index, default=EXIT_OK)


def gate_line(report: Report, gate: Gate | None, fail_under: str | None, *, ci: bool, exit_zero: bool = False) -> str:
    """The gate that decided the exit code, for the CI log (only the winning gate is named, as the
    exit code names only one), or that every gate passed; either way it names what failed (rule
    and tool), so a log's last line says what to look at. Under `exit_zero` a gate that fails is
    still named, as not enforced."""
    if report.interrupted:
        return f"Interrupted — {INCOMPLETE}: {report.partial_reason or 'stopped before the end'}"
    code = gated(report, gate, ci=ci)
    failed_lead = "Gate failed, not enforced (--exit-zero)" if exit_zero else "Gate failed"
    failed = report.failures()
    if code == EXIT_SCORE:
        return (f"{failed_lead} — --fail-under {fail_under}: grade {report.grade}, score {report.score:g}% "
                f"is below it{_naming('; failed', failed)}")
    if code == EXIT_SMOKE:
        smoke = [r for r in report.results
                 if r.kind == "smoke" and r.status == "fail" and not r.details.get("incident")]
        count = report.smoke.failed + report.smoke.surface_summary()["failed"]
        return f"{failed_lead} — --smoke: {_plural(count, 'smoke check')} failed{_naming('', smoke)}"
    if code == EXIT_BLOCKING:
        parts = []
        if ci and report.partial:
            parts.append(f"{INCOMPLETE} ({report.partial_reason})")
        if found := blocking(report):
            parts.append(f"{_plural(len(found), 'blocking failure')}{_naming('', found)}")
        return f"{failed_lead} — {'--ci: ' if ci else ''}{'; '.join(parts)}"
    waived = len(report.waived())
    extra = f", {waived} waived result(s)" if waived else ""
    partial = f"; {INCOMPLETE}: {report.partial_reason}" if report.partial else ""
    return (f"Gates passed — grade {report.grade}, score {report.score:g}%{extra}{partial}"
            f"{_naming('; failed, not gating', failed)}")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _naming(lead: str, results: list[Result], shown: int = 4) -> str:
    """': rule on tool, rule on tool and 3 more', or nothing for no results."""
    if not results:
        return ""
    names = [f"{r.rule} on {r.tool or r.details.get('subject') or 'server'}" for r in results[:shown]]
    more = f" and {len(results) - shown} more" if len(results) > shown else ""
    return f"{lead}: {', '.join(names)}{more}"


def blocking(report: Report) -> list[Result]:
    """Failures that fail a run (with or without `--ci`): high-confidence probe failures, incidents, and tools that
    fail valid input, each cause once (a failure an incident covers is that incident; a waived
    result is no failure)."""
    return [r for r in report.failures() if (
        (r.kind == "probe" and r.confidence == "high") or r.kind == "incident"
        or (r.kind == "scenario" and r.check == "happy"))]


def capping(results: Iterable[Result]) -> list[Result]:
    """Failures that cap the grade: high-confidence probe failures."""
    return [r for r in results if r.kind == "probe" and r.status == "fail" and r.confidence == "high"]
