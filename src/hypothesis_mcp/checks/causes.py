"""One cause, one finding: the same fault on many tools is the server's, reported once.

A server that takes `true` for an integer on six tools shows one cause (how it validates its
input, often its SDK's lax mode), not six faults. The first result of such a group lists every
tool it shows on under `details.where`; the others stay, so the score, waivers, rule filters and
`replay` still see each tool, and point at it (`details.same_cause`), so the report prints and
counts the cause once. A lint rule that fires on many tools is one habit of how the catalog is
written, one finding too. A group holds one result per tool: two different broken values on one
tool are never merged.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from jsonschema.protocols import Validator

from hypothesis_mcp.results import SAME_CAUSE, Result, RuleId
from hypothesis_mcp.strategies import Invalid

ACCEPTED_INVALID: RuleId = "edge-accepted-invalid-input"
NAMED = 5
"""Tools a merged finding's message names; details.where lists them all."""
JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"),
              (dict, "object"), (type(None), "null"))


def json_type(value: Any) -> str:
    return next((name for kind, name in JSON_TYPES if isinstance(value, kind)), type(value).__name__)


def broken(check: Validator, invalid: Invalid) -> dict[str, Any]:
    """What an invalid value broke, as a cause: the JSON type sent where the keyword failed and,
    for a type break, the type the schema wants (`boolean` for `integer`)."""
    value: Any = invalid.value
    for step in invalid.path:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            value = None
            break
    wanted = next((error.validator_value for error in check.iter_errors(invalid.value)
                   if error.validator == invalid.keyword == "type" and tuple(error.absolute_path) == invalid.path),
                  None)
    return {"given": json_type(value), **({"wanted": wanted} if wanted is not None else {})}


def _cause(result: Result) -> tuple[str, str] | None:
    """The server's cause behind a failure or warning, when one rule's finding on many tools shares
    one, with the words that name it: a schema break of one kind accepted, or a lint rule (how the
    catalog is written, the same habit on every tool it shows on)."""
    if result.status not in ("fail", "warn") or result.tool is None or result.covered_by is not None:
        return None
    if result.kind == "lint":
        return json.dumps([result.kind, result.rule, result.status]), result.rule
    if result.rule != ACCEPTED_INVALID or "given" not in result.details:
        return None
    given, wanted, keyword = result.details["given"], result.details.get("wanted"), result.details.get("keyword")
    sent = f"{'an' if given[:1] in 'aeiou' else 'a'} {given}"
    if wanted is None:
        what = f"{sent} that breaks '{keyword}' accepted"
    else:
        what = f"{sent} taken where the schema wants {' or '.join(wanted) if isinstance(wanted, list) else wanted}"
    return json.dumps([result.rule, keyword, given, wanted]), what


def one_per_cause(results: list[Result]) -> list[Result]:
    """The results with each cause shown on several tools folded into its first result."""
    groups: dict[str, list[int]] = {}
    words: dict[str, str] = {}
    for place, result in enumerate(results):
        cause = _cause(result)
        if cause is not None and all(results[p].tool != result.tool for p in groups.get(cause[0], [])):
            groups.setdefault(cause[0], []).append(place)
            words[cause[0]] = cause[1]
    folded = list(results)
    for key, places in groups.items():
        if len(places) < 2:
            continue
        shown = [results[p] for p in places]
        head = next((r for r in shown if r.kind == "scenario"), shown[0])
        where = [{"tool": r.tool, "id": r.id, "message": r.message} for r in shown]
        others = [str(r.tool) for r in shown if r is not head]
        named = ", ".join(others[:NAMED]) + (f" and {len(others) - NAMED} more" if len(others) > NAMED else "")
        message = f"{head.message}; the same cause ({words[key]}) on {len(others)} other tool(s): {named}"
        for place, result in zip(places, shown, strict=True):
            folded[place] = replace(head, message=message, details={**head.details, "where": where}) \
                if result is head else replace(result, details={**result.details, SAME_CAUSE: head.id})
    return folded
