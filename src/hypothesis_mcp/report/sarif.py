"""SARIF 2.1.0 for code scanning: one rule per rule id, one result per failure or warning.

A result's level comes from its confidence; its message carries the reproduction, which is also a
property. Code scanning needs a file to pin a result to: the client config the target came from
(at the server's line), else a script the server command runs, else the project defaults file.
"""

from __future__ import annotations

import hashlib
import shlex
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from hypothesis_mcp.report.issues import fix_of, format_call, reproduction_origin
from hypothesis_mcp.results import Report, Result

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/hypothesis-mcp/"
LEVELS = {"high": "error", "medium": "warning", "low": "note"}


@dataclass(frozen=True)
class Location:
    """A file, relative to the folder the run started in when it is inside it, and a line."""

    uri: str
    line: int = 1


def locate(target: str, *, config: Path | None = None, server: str | None = None,
           defaults_file: Path | None = None, root: Path | None = None) -> Location | None:
    """Where the tested server is declared: the config file's line naming it, a script or `-m`
    module of the command (under the folder or its src/), or the project defaults file; None when
    there is no such file."""
    base = (root or Path.cwd()).resolve()
    if config is not None:
        line = 1
        if server is not None:
            lines = config.read_text(encoding="utf-8", errors="replace").splitlines()
            line = next((i for i, text in enumerate(lines, 1) if f'"{server}"' in text), 1)
        return Location(_relative(config, base), line)
    try:
        words = shlex.split(target)
    except ValueError:
        words = []
    for before, word in pairwise(words):
        if before == "-m":
            module = Path(*word.split("."))
            for candidate in (module.with_suffix(".py"), module / "__init__.py"):
                for folder in (base, base / "src"):
                    if (folder / candidate).is_file():
                        return Location(_relative(folder / candidate, base))
        path = Path(word)
        if path.suffix and (base / path).is_file():
            return Location(_relative(base / path, base))
    if defaults_file is not None and defaults_file.is_file():
        return Location(_relative(defaults_file, base))
    return None


def _relative(path: Path, base: Path) -> str:
    full = path.resolve()
    try:
        return full.relative_to(base).as_posix()
    except ValueError:
        return full.as_uri()


def _level(result: Result) -> str:
    level = LEVELS.get(result.confidence, "warning")
    return "warning" if result.status == "warn" and level == "error" else level


def _rule(result: Result) -> dict[str, Any]:
    fix = fix_of(result)
    help_text = f"{fix} Basis: {result.basis}" if result.basis else fix
    return {
        "id": result.rule,
        "name": "".join(part.title() for part in result.rule.replace("_", "-").split("-")),
        "shortDescription": {"text": f"{result.kind} check {result.check}: {result.rule}"},
        "fullDescription": {"text": result.basis or f"hypothesis-mcp {result.kind} check {result.check}"},
        "help": {"text": help_text, "markdown": f"**Fix:** {fix}" + (f"\n\n**Basis:** {result.basis}"
                                                                    if result.basis else "")},
        "defaultConfiguration": {"level": _level(result)},
        "properties": {"tags": ["mcp", result.kind]},
    }


def _message(result: Result) -> str:
    text = f"{result.subject}: {result.message} ({result.rule}, {result.confidence} confidence)"
    if result.reproduction and result.reproduction.calls:
        steps = "\n".join(format_call(i, call) for i, call in enumerate(result.reproduction.calls, 1))
        text += f"\nReproduction, {reproduction_origin(result.reproduction.fresh_server)}:\n{steps}"
    return text


def render_sarif(report: Report, location: Location | None = None) -> dict[str, Any]:
    """The report as a SARIF log with one run."""
    reported = [r for r in report.results if r.status in ("fail", "warn")]
    rules: dict[str, dict[str, Any]] = {}
    for result in reported:
        rules.setdefault(result.rule, _rule(result))
    index = {rule: i for i, rule in enumerate(rules)}
    results = []
    for result in reported:
        entry: dict[str, Any] = {
            "ruleId": result.rule,
            "ruleIndex": index[result.rule],
            "level": _level(result),
            "message": {"text": _message(result)},
            "partialFingerprints": {"hypothesisMcp/v1": hashlib.sha256(
                f"{result.kind}\0{result.check}\0{result.subject}\0{result.rule}".encode()).hexdigest()[:32]},
            "properties": {
                "resultId": result.id, "kind": result.kind, "check": result.check, "subject": result.subject,
                "confidence": result.confidence,
                "reproduction": result.reproduction.to_dict() if result.reproduction else None,
            },
        }
        logical = {"name": result.subject, "fullyQualifiedName": f"{report.target} :: {result.subject}",
                   "kind": "module"}
        place: dict[str, Any] = {"logicalLocations": [logical]}
        if location is not None:
            place["physicalLocation"] = {"artifactLocation": {"uri": location.uri},
                                         "region": {"startLine": location.line}}
        entry["locations"] = [place]
        results.append(entry)
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "hypothesis-mcp", "version": report.tool.get("version", ""),
                                "informationUri": INFORMATION_URI, "rules": list(rules.values())}},
            "automationDetails": {"id": f"hypothesis-mcp/{report.server.get('name') or 'server'}/"},
            "results": results,
            "properties": {"target": report.target, "grade": report.grade, "score": report.score,
                           "profile": report.profile},
        }],
    }
