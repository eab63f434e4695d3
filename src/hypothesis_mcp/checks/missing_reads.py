"""Reads of records nobody wrote: what this server's "not found" looks like, learned read-only.

Before the searches, each keyed reader the run calls (a read-only tool whose required id the run
can fill) is asked for two ids made from run markers, so nothing on the server can match, and each
list the run calls is read once as a success to compare with. What the answers show
(model.refusals): a text that differs only where it names the id is the server's not-found
sentence; a member every such answer carries with one value, and the successes do not, is its
refusal flag. From then on every answer of that shape, on every connection of the run, is a
refusal (`Outcome.ok` false), so the searches, smoke checks, probes and replays read it so, and
`error-as-success` reports it. An answer that is neither refused nor empty but shows a record
under the asked id is `read-missing-as-success`: a client takes the made-up record for a stored one.
A record counts when it holds enough members to be one (answers.claimed_record): which fields a
record of this store holds is no fact this read-only check has, so a thinner blank is left to the
laws machine, which has seen the store's records. An id whose schema a marked text does not fit (a
pattern, a format) is drawn from the schema's own samples. No call here writes, so all of it runs
without --allow-writes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.connection import Connection, LearnedRefusal, Outcome
from hypothesis_mcp.connection.failure import WILDCARD
from hypothesis_mcp.model.facts import Fact, fact_shown
from hypothesis_mcp.model.profile import profile
from hypothesis_mcp.model.refusals import learned_shape, text_template
from hypothesis_mcp.results import Call, Reproduction, Result
from hypothesis_mcp.rules.answers import blank, claimed_record
from hypothesis_mcp.rules.expectations import INCIDENT_RULES
from hypothesis_mcp.rules.registry import READ_MISSING, RULES
from hypothesis_mcp.search.seeding import scope_salt
from hypothesis_mcp.strategies import Overrides, salted_marker
from hypothesis_mcp.strategies.dialect import value_validator
from hypothesis_mcp.strategies.formats import EXAMPLES
from hypothesis_mcp.strategies.formatted import pattern_samples

BASIS = ("MCP Tools §Error Handling: a call the tool cannot serve (no such record) is a tool execution error, "
         "a result with isError: true; a success result is read as the record")
MAX_READERS = 4
MAX_LISTS = 3
ASKED = 2
"""Ids asked of each reader: two, so a sentence that names the id can be told from one that does not."""
STOPPED = frozenset({"timeout", "closed"})
"""A read here that hung or ended the server: the run's incident, and nothing more is asked of that
tool (a protocol fault is left to the searches, which judge every tool's answers)."""
INTEGER_BASE = 900_000_000
"""Integer ids asked start here: far past any count a store reaches while a run watches it."""


@dataclass
class MissingReads:
    """The refusal shapes the reads showed, each with its fact, and the reads answered with a record."""

    shapes: list[tuple[LearnedRefusal, Fact]] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)


@dataclass
class _Asked:
    tool: Tool
    key: str
    answers: list[tuple[Call, str, Outcome]] = field(default_factory=list)


def keyed_readers(tools: list[Tool], overrides: Overrides | None) -> Iterator[tuple[Tool, str, dict[str, Any]]]:
    """Read-only tools that read one record by a required id of text or integer type, whose other
    required arguments the user gave: the tool, the id's name and the given values."""
    for tool in tools:
        found = profile(tool)
        if not tool.is_read or found.role != "read":
            continue
        given = overrides.for_tool(tool) if overrides else {}
        key = next((f for f in found.identity if f in found.required and f not in given
                    and (kinds := found.kinds.get(f)) is not None and kinds & {"string", "integer"}), None)
        if key is not None and all(r in given or r == key for r in found.required):
            yield tool, key, given


def read_missing(conn: Connection, tools: list[Tool], overrides: Overrides | None, seed: int,
                 stop: Callable[[], bool]) -> MissingReads:
    """Ask each keyed reader for ids nobody wrote; learn the refusal shapes the answers show and add
    them to the connection's (shared with the run's every connection); report made-up records."""
    found = MissingReads()
    asked = [_ask(conn, tool, key, given, seed, stop) for tool, key, given in
             list(keyed_readers(tools, overrides))[:MAX_READERS]]
    found.results = [_incident(call, outcome) for a in asked for call, _, outcome in a.answers
                     if outcome.kind in STOPPED]
    asked = [a for a in asked if len(a.answers) == ASKED and all(o.kind not in STOPPED for _, _, o in a.answers)]
    if not asked or stop() or conn.unavailable is not None:
        return found
    lists = [t for t in tools if t.is_read and not profile(t).required][:MAX_LISTS]
    listed = [(call, conn.call(call.tool, call.arguments))
              for call in (Call(t.name, overrides.for_tool(t) if overrides else {}) for t in lists)]
    found.results += [_incident(call, outcome) for call, outcome in listed if outcome.kind in STOPPED]
    succeeded = [(call, outcome) for call, outcome in listed if outcome.ok]
    for shape, calls in _shapes(conn, asked, [o for _, o in succeeded]):
        if shape in conn.refusals:
            continue
        conn.refusals.append(shape)
        seen = "the reads answered so" if shape.member else "the reads answered this sentence, but for the id"
        fact = fact_shown(f"an answer that {_what(shape)} is a refusal (reads of ids nobody wrote: {seen}"
                          f"{'; the successes did not' if succeeded else ''})",
                          calls=[*calls, *(c for c, _ in succeeded)], source="calibration")
        found.shapes.append((shape, fact))
    found.results += [r for a in asked if (r := _made_up(a, conn.refusals)) is not None]
    return found


def _incident(call: Call, outcome: Outcome) -> Result:
    """A read here that crashed, hung or broke the protocol: the run's incident like any other check's
    (finishing.py makes it one per tool and rule)."""
    return Result(kind="scenario", check=READ_MISSING, tool=call.tool, status="fail",
                  rule=INCIDENT_RULES[outcome.kind], confidence="high", basis=BASIS, message=outcome.summary(),
                  reproduction=Reproduction([call]), details={"returned": outcome.summary()})


def _ask(conn: Connection, tool: Tool, key: str, given: dict[str, Any], seed: int,
         stop: Callable[[], bool]) -> _Asked:
    asked = _Asked(tool, key)
    check = value_validator(tool.input_schema or {"type": "object"})
    kinds = profile(tool).kinds.get(key) or frozenset()
    salt = scope_salt(seed, "missing", tool)
    fitting = _fitting(tool.properties.get(key), salt)
    for count in range(ASKED):
        marker = salted_marker(salt, count)
        value: str | int = f"{marker}-missing" if "string" in kinds else INTEGER_BASE + int(marker[2:], 16) % 10**8
        if not check.is_valid({**given, key: value}) and count < len(fitting):
            value = fitting[count]
        args = {**given, key: value}
        if not check.is_valid(args) or stop() or conn.unavailable is not None:
            return asked
        outcome = conn.call(tool.name, args)
        asked.answers.append((Call(tool.name, args), str(value), outcome))
        if outcome.kind in STOPPED:
            break
    return asked


def _fitting(schema: Any, salt: int) -> list[str]:
    """Texts the id's own schema allows, where a marked text does not fit it: samples of its pattern,
    else examples of its format, from a place the salt picks, so two runs ask different ones."""
    if not isinstance(schema, dict):
        return []
    pattern, form = schema.get("pattern"), schema.get("format")
    found = pattern_samples(pattern) if isinstance(pattern, str) else list(EXAMPLES.get(str(form), ()))
    found = list(dict.fromkeys(found))
    start = salt % len(found) if found else 0
    return (found[start:] + found[:start])[:ASKED]


def _shapes(conn: Connection, asked: list[_Asked], succeeded: list[Outcome]
            ) -> Iterator[tuple[LearnedRefusal, list[Call]]]:
    """Each shape the reads show: a not-found sentence per reader, a member per reader, and a member
    all the readers share."""
    for one in asked:
        calls = [call for call, _, _ in one.answers]
        template = text_template([(value, outcome) for _, value, outcome in one.answers])
        if template is not None and (known := _known_read(conn, one, template, succeeded)) is not None:
            yield template, [*calls, known]
        shape = learned_shape([(one.tool.name, o) for _, _, o in one.answers], succeeded)
        if shape is not None:
            yield shape, calls
    if len(asked) > 1:
        every = [(a.tool.name, o) for a in asked for _, _, o in a.answers]
        shape = learned_shape(every, succeeded)
        if shape is not None:
            yield shape, [call for a in asked for call, _, _ in a.answers]


def _known_read(conn: Connection, one: _Asked, template: LearnedRefusal, succeeded: list[Outcome]) -> Call | None:
    """The read of an id a listing shows, whose answer does not fit the sentence the made-up ids drew:
    the experiment that tells a not-found sentence from a tool that answers every id alike (a
    greeting that names whoever it greets). None when no listing shows such an id, or it fits too:
    the sentence is then not learned."""
    for value in dict.fromkeys(v for o in succeeded for v in _values_under(o.value(), one.key)):
        call = Call(one.tool.name, {**one.answers[0][0].arguments, one.key: value})
        outcome = conn.call(call.tool, call.arguments)
        if outcome.ok and not template.claim(outcome.content, outcome.structured,
                                                                       outcome.has_structured):
            return call
        return None
    return None


def _values_under(value: Any, key: str) -> Iterator[str | int]:
    """Every text or integer a parsed answer holds under `key`, at any depth."""
    if isinstance(value, dict):
        for member, inner in value.items():
            if member == key and isinstance(inner, str | int) and not isinstance(inner, bool):
                yield inner
            else:
                yield from _values_under(inner, key)
    elif isinstance(value, list):
        for inner in value:
            yield from _values_under(inner, key)


def _what(shape: LearnedRefusal) -> str:
    if shape.member:
        return f"carries {shape.member!r}: {json.dumps(shape.value)}"
    return "reads " + json.dumps(str(shape.value).replace(WILDCARD, "\u2026"), ensure_ascii=False)


def _refused(outcome: Outcome, shapes: list[LearnedRefusal]) -> bool:
    return not outcome.ok or any(s.claim(outcome.content, outcome.structured, outcome.has_structured)
                                 for s in shapes)


def _made_up(asked: _Asked, shapes: list[LearnedRefusal]) -> Result | None:
    """A result when every read answered a success that shows a record under the id asked: medium
    confidence when the record holds nothing but defaults beside the id (a blank made on the spot),
    low otherwise. Never high: that the tool reads stored records by this argument is read from its
    name and schema, not shown (a reader that makes an empty cart for any session is correct)."""
    records = []
    for call, value, outcome in asked.answers:
        record = None if _refused(outcome, shapes) else claimed_record(outcome.value(), [value])
        if record is None:
            return None
        records.append((call, value, outcome, record))
    call, value, outcome, record = records[0]
    defaults = all(blank(v) for _, asked_id, _, r in records for v in r.values() if str(v) != asked_id)
    what = "a blank record (every field a default)" if defaults else "a record"
    return Result(
        kind="scenario", check=READ_MISSING, tool=asked.tool.name, status=RULES[READ_MISSING].severity,
        rule=READ_MISSING, confidence="medium" if defaults else "low", basis=BASIS,
        message=(f"answered a read of {asked.key}={json.dumps(value)}, an id nobody wrote (made from a run "
                 f"marker, or drawn from the id's schema where no marker fits; asked with {len(records)} such "
                 f"ids), with a success showing {what} under that id; a client takes it for a stored record"),
        reproduction=Reproduction([call]),
        details={"returned": outcome.summary(), "asked": [v for _, v, _, _ in records]},
    )
