"""SARIF 2.1.0 for code scanning: one rule per rule id, one result per failure or warning.

A result's level comes from its confidence; its message carries the reproduction, which is also a
property. Code scanning needs a file to pin a result to: the client config the target came from
(at the server's line), else a script the server command runs, else the project defaults file.
"""

from __future__ import annotations

import hashlib
import os
import re
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
    """A file, relative to its git work tree's root (else to the folder the run started in), and a line."""

    uri: str
    line: int = 1


def locate(target: str, *, config: Path | None = None, server: str | None = None,
           defaults_file: Path | None = None, target_in_defaults: bool = False, root: Path | None = None
           ) -> Location | None:
    """Where the tested server is declared: the config file's line naming it, the project defaults
    file's `target` line when the target came from there, a script or `-m` module of the command
    (under the folder or its src/), or the project defaults file; None when there is no such file."""
    base = (root or Path.cwd()).resolve()
    if config is not None:
        line = 1
        if server is not None:
            lines = config.read_text(encoding="utf-8", errors="replace").splitlines()
            line = next((i for i, text in enumerate(lines, 1) if f'"{server}"' in text), 1)
        return Location(_relative(config, base), line)
    if target_in_defaults and defaults_file is not None and defaults_file.is_file():
        return Location(_relative(defaults_file, base), _target_line(defaults_file))
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
        return Location(_relative(defaults_file, base), _target_line(defaults_file))
    return None


def _target_line(defaults_file: Path) -> int:
    """The line of the `target` key: in pyproject.toml, inside the [tool.hypothesis-mcp] table."""
    lines = defaults_file.read_text(encoding="utf-8", errors="replace").splitlines()
    inside = defaults_file.name != "pyproject.toml"
    for number, text in enumerate(lines, 1):
        stripped = text.strip()
        if stripped.startswith("["):
            inside = defaults_file.name != "pyproject.toml" or stripped.replace(" ", "") == "[tool.hypothesis-mcp]"
        elif inside and re.match(r"target\s*=", stripped):
            return number
    return 1


def _relative(path: Path, base: Path) -> str:
    """A relative URI, never an absolute one: from the root of the git work tree that holds the file
    (what code scanning and annotations resolve against), else from the folder the run started in."""
    full = path.resolve()
    root = next((folder for folder in full.parents if (folder / ".git").exists()), base)
    return Path(os.path.relpath(full, root)).as_posix()


def level(result: Result) -> str:
    """error, warning or note by confidence; a warning-status result is at most a warning."""
    found = LEVELS.get(result.confidence, "warning")
    return "warning" if result.status == "warn" and found == "error" else found


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
        "defaultConfiguration": {"level": level(result)},
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
            "level": level(result),
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
