"""One cause, one finding: the same fault on many tools is the server's, reported once.

A server that takes `true` for an integer on six tools shows one cause (how it validates its
input, often its SDK's lax mode), not six faults. The most severe result of such a group lists
every tool it shows on under `details.where`; the others stay, so the score, waivers, rule filters
and `replay` still see each tool, and point at it (`details.same_cause`), so the report prints and
counts the cause once. A lint rule that fires on many tools is one habit of how the catalog is
written, one finding too. So is the same answer on many tools: one error message (an SDK's
`Invalid params`, a missing API key's `-32603`), one crash's last stderr line, one protocol
violation, one way a store normalises what it keeps, one bound answered alike. The answers decide,
never the tools' names: two answers are alike when they read the same once the words of each
tool's own name and arguments and every word holding a digit are masked. A group holds one result
per tool: two different broken values on one tool are never merged.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import replace
from typing import Any

from jsonschema.protocols import Validator

from hypothesis_mcp.connection.hung import mask_words, own_words
from hypothesis_mcp.results import SAME_CAUSE, Result, RuleId
from hypothesis_mcp.strategies import Invalid

ACCEPTED_INVALID: RuleId = "edge-accepted-invalid-input"
ANSWERED: frozenset[RuleId] = frozenset({"happy-rejected-valid-input", "edge-internal-error", "server-crashed",
                                         "call-timeout", "protocol-violation"})
"""Rules whose finding quotes the server's answer (`details.returned`): alike answers, one cause."""
STDERR: frozenset[RuleId] = frozenset({"server-crashed", "call-timeout"})
"""Rules whose answer is what the server wrote on stderr: a crash's last line, what a hang said."""
BOUNDS: frozenset[RuleId] = frozenset({"probe-bound-exceeded", "probe-bound-short"})
"""Rules whose message is the call's bound and what it answered: the same on several tools, one cause
(an alias of one reader, one paging helper)."""
PERSISTS: RuleId = "state-persists"
"""Records a fresh server process already holds: where the server keeps its data, one cause however
many tools showed it."""
NORMALISED: RuleId = "probe-value-changed"
"""Warned when a store keeps a value in another form: alike on several writes, one way the store keeps text."""
ANSWER_SHOWN = 100
"""How much of the masked answer a merged finding's message quotes."""
ESCAPED = re.compile(r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})")
"""A character a message quotes escaped (`'\\xaa'`): a value, whatever the character."""
SHOWN_WIDTH = 80
"""How much of the server's words `details.returned` keeps (Outcome.summary's width)."""
LEAST_ALIKE = 30
"""The fewest masked characters of the server's words two answers, one cut, must share to be alike."""
SAID = "\n"
"""Parts a cause's key from the server's words in it."""
MASKS = re.compile(r"…(?:\W*…)+")
"""Masked words with nothing but punctuation between them (`…-…`, a quoted value's escapes, the
arguments a message lists) are one masked value."""
EMPTY = re.compile(r"''|\"\"")
NAMED = 5
"""Tools a merged finding's message names; details.where lists them all."""
SURE = ("high", "medium", "low")
"""The result that reports a cause is its most severe: a failure before a warning, the surest first."""
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


def masked(text: str, result: Result) -> str:
    """`text` with the words that belong to the call rather than the server masked: the tool's name,
    the names and values of every argument its reproduction sends, and any word holding a digit
    (an id, a count, a line number); a value of several masked words is one mask."""
    own: set[str] = set()
    own_words(result.subject, own)
    for call in result.reproduction.calls if result.reproduction else []:
        own_words([call.tool, call.arguments], own)
    words = mask_words(EMPTY.sub("'…'", ESCAPED.sub("…", text)), own)
    return MASKS.sub("…", words)


def kept_as(written: Any, read: Any) -> str | None:
    """How a store turned a written text into the one read back, when one plain transformation
    explains it; None when none does."""
    if not isinstance(written, str) or not isinstance(read, str) or written == read:
        return None
    forms = {"trailing whitespace stripped": written.rstrip(), "leading whitespace stripped": written.lstrip(),
             "surrounding whitespace stripped": written.strip(), "NFC": unicodedata.normalize("NFC", written),
             "NFKC": unicodedata.normalize("NFKC", written), "lower case": written.lower(),
             "whitespace runs folded": " ".join(written.split()),
             "line breaks as spaces": re.sub(r"\s*\n\s*", " ", written),
             "NFKC, stripped": unicodedata.normalize("NFKC", written).strip()}
    return next((name for name, form in forms.items() if form == read), None)


def _answered(result: Result) -> tuple[str, str, bool] | None:
    """The cause an answer shows, when the finding quotes one with the server's own words, and
    whether the quote was cut (its last word may be cut too, so it is dropped and the rest is a
    prefix): a crash with no line on stderr, and a hang during which the server wrote nothing but
    what it writes for every call, say nothing of their cause."""
    returned = result.details.get("returned")
    if not isinstance(returned, str):
        return None
    lead, before, said = returned.partition("stderr: " if result.rule in STDERR else ": ")
    if not said.strip():
        return None
    if result.rule == "call-timeout":
        lead = masked(lead, result)  # how long the run waited is not the server's
    cut = len(said) >= SHOWN_WIDTH
    answer = masked(said, result)
    answer = answer.rsplit(None, 1)[0] if cut and " " in answer else answer
    return f"{result.kind} {result.rule} {lead}{before}{SAID}{answer}", \
        f"the same answer: {lead}{before}{answer[:ANSWER_SHOWN]}", cut


def _cause(result: Result) -> tuple[str, str, bool] | None:
    """The server's cause behind a failure or warning, when one rule's finding on many tools shares
    one, with the words that name it: a schema break of one kind accepted, a lint rule (how the
    catalog is written, the same habit on every tool it shows on), the same answer, a text kept in
    the same other form, the same bound answered alike, or state a fresh process already held. The
    key of a cut answer is a prefix of the whole answer's."""
    if result.status not in ("fail", "warn") or result.tool is None or result.covered_by is not None:
        return None
    if result.kind == "lint":
        return json.dumps([result.kind, result.rule, result.status]), result.rule, False
    if result.rule in ANSWERED:
        return _answered(result)
    if result.rule == PERSISTS:
        return json.dumps([result.rule]), "records kept outside the server process", False
    if result.rule in BOUNDS:
        return json.dumps([result.rule, result.message]), "the same answer", False
    if result.rule == NORMALISED and result.status == "warn":
        how = kept_as(result.details.get("written"), result.details.get("read"))
        if how is None:
            return None
        key = [result.rule, result.confidence, how, masked(result.message, result)]
        return json.dumps(key), f"text kept with {how}", False
    if result.rule != ACCEPTED_INVALID or "given" not in result.details:
        return None
    given, wanted, keyword = result.details["given"], result.details.get("wanted"), result.details.get("keyword")
    sent = f"{'an' if given[:1] in 'aeiou' else 'a'} {given}"
    if wanted is None:
        what = f"{sent} that breaks '{keyword}' accepted"
    else:
        what = f"{sent} taken where the schema wants {' or '.join(wanted) if isinstance(wanted, list) else wanted}"
    return json.dumps([result.rule, keyword, given, wanted]), what, False


def _joined(key: str, cut: bool, groups: dict[str, bool]) -> str:
    """The group a cause joins: its own key, or a known one its cut answer begins (or that begins it)
    with enough of the server's words."""
    for known, known_cut in groups.items():
        short, whole, short_cut = (key, known, cut) if len(key) <= len(known) else (known, key, known_cut)
        if short_cut and len(short.partition(SAID)[2]) >= LEAST_ALIKE and whole.startswith(short):
            return known
    return key


def one_per_cause(results: list[Result]) -> list[Result]:
    """The results with each cause shown on several tools folded into its most severe result."""
    groups: dict[str, list[int]] = {}
    words: dict[str, str] = {}
    cuts: dict[str, bool] = {}
    for place, result in enumerate(results):
        cause = _cause(result)
        if cause is None:
            continue
        key = _joined(cause[0], cause[2], cuts)
        if all(results[p].tool != result.tool for p in groups.get(key, [])):
            groups.setdefault(key, []).append(place)
            words.setdefault(key, cause[1])
            cuts.setdefault(key, cause[2])
    folded = list(results)
    for key, places in groups.items():
        if len(places) < 2:
            continue
        shown = [results[p] for p in places]
        head = min(shown, key=lambda r: (r.status != "fail", SURE.index(r.confidence), r.kind != "scenario"))
        where = [{"tool": r.tool, "id": r.id, "message": r.message} for r in shown]
        others = [str(r.tool) for r in shown if r is not head]
        named = ", ".join(others[:NAMED]) + (f" and {len(others) - NAMED} more" if len(others) > NAMED else "")
        message = f"{head.message}; the same cause ({words[key]}) on {len(others)} other tool(s): {named}"
        for place, result in zip(places, shown, strict=True):
            folded[place] = replace(head, message=message, details={**head.details, "where": where}) \
                if result is head else replace(result, details={**result.details, SAME_CAUSE: head.id})
    return folded
