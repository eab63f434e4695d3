"""GitHub workflow commands: one `::error`, `::warning` or `::notice` line per failure or warning.

GitHub reads them from a step's output and shows each on the run's summary, and beside the file
and line where the tested server is declared (`sarif.locate`) when there is one. Levels follow
SARIF's: high confidence is an error, medium a warning, low a notice; a warning is never an error.
"""

from __future__ import annotations

from hypothesis_mcp.report.issues import fix_of, reproduction_origin
from hypothesis_mcp.report.sarif import Location, level
from hypothesis_mcp.results import Report, Result
from hypothesis_mcp.snippet import python_lines

COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}


def render_github(report: Report, location: Location | None = None) -> str:
    """The workflow commands, one a line, in the console's order (report order)."""
    lines = []
    for result in report.results:
        if result.status not in ("fail", "warn") or result.covered_by is not None:
            continue
        properties = {"file": location.uri, "line": str(location.line)} if location is not None else {}
        properties["title"] = f"hypothesis-mcp: {result.rule} on {result.subject}"
        fields = ",".join(f"{key}={_property(value)}" for key, value in properties.items())
        lines.append(f"::{COMMANDS[level(result)]} {fields}::{_data(_message(result, report.target))}")
    return "".join(line + "\n" for line in lines)


def _message(result: Result, target: str) -> str:
    text = f"{result.message} ({result.confidence} confidence)\nFix: {fix_of(result)}"
    if result.reproduction and result.reproduction.calls:
        origin = reproduction_origin(result.reproduction.fresh_server)
        text += "\n" + "\n".join(python_lines(result.reproduction.calls, target, note=f"reproduction {origin}"))
    return text


def _data(text: str) -> str:
    """A command's message: GitHub reads %, CR and LF as escapes."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A property value: also `:` and `,`, which end it."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")
