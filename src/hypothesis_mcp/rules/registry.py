"""Every rule the tool reports: its id, kind, default severity, fix hint, and what a replay judges.

Checks fill `Result.fix` from here; reports use it for results that arrived without one; `replay`
asks it what the last answer of a reproduction must satisfy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.results import Kind, Result, Status
from hypothesis_mcp.rules.expectations import (
    ConformsTo,
    Expectation,
    NoIncident,
    Refused,
    RefusedCleanly,
    Served,
    Succeeds,
    UnknownToolRefused,
    from_dict,
)

GENERIC_FIX = (
    "Replay the reproduction with `hypothesis-mcp replay` and compare the answer with the tool's schema."
)
OUTPUT_RULES = frozenset({"smoke_structured_content", "happy-output-schema"})


@dataclass(frozen=True)
class Rule:
    """A rule: `severity` is the status a failure gets by default, `expects` what the last answer of a
    one-call reproduction must satisfy (probes carry their own expectation in the result)."""

    id: str
    kind: Kind
    fix: str
    severity: Status = "fail"
    expects: Expectation | None = None


RULES: dict[str, Rule] = {rule.id: rule for rule in (
    # Effect probes
    Rule("probe-silent-noop", "probe", (
        "When a write stores nothing (the key already exists, the value is unchanged), say so: return an "
        "error or list the skipped items instead of a bare success."
    )),
    Rule("probe-data-lost", "probe", (
        "Make every write keep the records it does not target: merge into or append to the stored data "
        "instead of rewriting it from the new input alone."
    )),
    Rule("probe-value-changed", "probe", (
        "Store and return each written value as given: no silent cut to a length, clamp to a range, or "
        "dropped list items; refuse a value the tool cannot keep with an error instead."
    )),
    Rule("probe-write-not-observable", "probe", (
        "Make what a write stores visible through a read tool, or declare the reader and its arguments in"
        " a probe config so the round trip can be checked."
    )),
    Rule("probe-bound-exceeded", "probe", (
        "Apply the bound parameter before answering: cut the result to at most N items or lines, and "
        "treat 0 as zero rather than as 'no limit'."
    )),
    Rule("probe-bound-short", "probe", (
        "Return min(N, available) items for a bound of N; look for an off-by-one slice or a filter that "
        "runs after the limit."
    )),
    Rule("probe-slice-mismatch", "probe", (
        "Take head/tail from the start/end of the same content the tool returns without the parameter, in"
        " the same order and encoding."
    )),
    Rule("probe-paths-disagree", "probe", (
        "Serve both tools from the same data with the same filtering and freshness, so they list the same"
        " items."
    )),
    Rule("probe-not-idempotent", "probe", (
        "Make a repeated identical read answer the same: order the output deterministically and keep side"
        " effects out of read tools."
    )),
    # Smoke checks
    Rule("smoke_structured_content", "smoke", (
        "Return structuredContent that validates against the declared outputSchema, or change the schema "
        "to describe what the tool really returns."
    )),
    Rule("smoke_invalid_arguments", "smoke", (
        "Validate arguments against the inputSchema before running the handler and reject bad ones with "
        "an isError result or a JSON-RPC -32602 error."
    ), expects=Refused()),
    Rule("smoke_unknown_tool", "smoke", (
        "Answer tools/call for a name that is not in tools/list with a JSON-RPC error (-32602), not with "
        "a tool result."
    ), expects=UnknownToolRefused()),
    # Scenarios
    Rule("happy-rejected-valid-input", "scenario", (
        "Accept every argument set the inputSchema allows, or tighten the schema (enum, pattern, minimum,"
        " required...) so it only allows what the tool accepts."
    ), expects=Served()),
    Rule("happy-output-schema", "scenario", (
        "Make every successful result carry structuredContent that validates against the outputSchema, or"
        " correct the schema."
    )),
    Rule("edge-accepted-invalid-input", "scenario", (
        "Validate arguments against the inputSchema and answer schema-invalid input with an error instead"
        " of running the tool on it."
    ), expects=Refused()),
    Rule("edge-internal-error", "scenario", (
        "Refuse schema-invalid arguments as invalid input (an isError result or JSON-RPC -32602) before "
        "the handler runs, instead of failing inside it with -32603."
    ), expects=RefusedCleanly()),
    Rule("scenario-failed", "scenario", GENERIC_FIX),
    # Incidents
    Rule("server-crashed", "incident", (
        "Catch exceptions inside tool handlers and return them as isError results; no input should take "
        "the server process down."
    ), expects=NoIncident()),
    Rule("call-timeout", "incident", (
        "Answer within the timeout: bound slow work and put timeouts on upstream calls; raise --timeout "
        "only when the tool is slow by design."
    ), expects=NoIncident()),
    Rule("protocol-violation", "incident", (
        "Write only JSON-RPC messages to the transport (logs go to stderr), answer each request id "
        "exactly once, and follow the negotiated protocol version."
    ), expects=NoIncident()),
    # Lint
    Rule("lint-missing-input-schema", "lint", (
        'Declare an inputSchema for the tool; a tool without parameters uses {"type": "object"}.'
    )),
    Rule("lint-input-schema-invalid", "lint", (
        "Fix the inputSchema so it validates against its dialect's metaschema (draft 2020-12 unless "
        "$schema says otherwise)."
    )),
    Rule("lint-input-schema-root", "lint", (
        'Give the inputSchema root "type": "object" and describe the parameters under properties.'
    )),
    Rule("lint-output-schema-invalid", "lint", (
        "Fix the outputSchema so it validates against its dialect's metaschema."
    )),
    Rule("lint-output-schema-root", "lint", (
        'Give the outputSchema root "type": "object"; wrap a list or a scalar in an object field.'
    )),
    Rule("lint-unresolved-ref", "lint", (
        "Point every $ref at a definition inside the schema ($defs or definitions), or inline the "
        "referenced schema."
    )),
    Rule("lint-unknown-dialect", "lint", (
        "Set $schema to a published dialect (2020-12 is the MCP default) or leave it out."
    ), severity="warn"),
    Rule("lint-invalid-name", "lint", "Rename the tool to 1-128 characters of letters, digits, '_', '-' and '.'."),
    Rule("lint-duplicate-name", "lint", "Give every tool a unique name; merge the duplicates or rename one of them."),
    Rule("lint-hidden-unicode", "lint", (
        "Remove zero-width, bidirectional-control and tag characters from the definition; a reviewer "
        "cannot see them but the model reads them."
    )),
    Rule("lint-instruction-text", "lint", (
        "Describe what the tool does and leave out instructions aimed at the model (ignore, always, do "
        "not tell the user, <IMPORTANT> tags)."
    )),
    Rule("lint-annotation-invalid", "lint", "Give each *Hint annotation a JSON boolean value."),
    Rule("lint-annotation-contradicts-name", "lint", (
        "Make the annotations and the name agree: fix readOnlyHint / destructiveHint, or rename the tool "
        "after what it does."
    )),
    Rule("lint-annotation-conflict", "lint", (
        "Drop destructiveHint from a read-only tool, or set readOnlyHint: false if it changes anything."
    ), severity="warn"),
    Rule("lint-missing-annotations", "lint", (
        "Declare readOnlyHint (and destructiveHint for tools that change state) so clients know which "
        "tools are safe to call."
    ), severity="warn"),
    Rule("lint-missing-description", "lint", (
        "Add a description that says what the tool does, what it returns and when to use it."
    ), severity="warn"),
    Rule("lint-short-description", "lint", (
        "Expand the description to a full sentence: what the tool does, what it returns, and any limits."
    ), severity="warn"),
    Rule("lint-duplicate-description", "lint", (
        "Give each tool a description that tells it apart from the others."
    ), severity="warn"),
    Rule("lint-untyped-property", "lint", "Declare a type (or enum/const) for every parameter.", severity="warn"),
    Rule("lint-undocumented-property", "lint", (
        "Add a description to every parameter: what it means, its format, an example."
    ), severity="warn"),
    Rule("lint-required-undeclared", "lint", (
        "Declare every required name under properties, or remove it from required."
    ), severity="warn"),
    Rule("lint-oversized-definition", "lint", (
        "Shorten the description and schema (move long guidance to docs or a resource); the definition is"
        " sent to the model on every turn."
    ), severity="warn"),
)}
FIXES: dict[str, str] = {rule.id: rule.fix for rule in RULES.values()}


def fix_for(rule: str) -> str:
    """The fix sentence for a rule id; a generic replay hint for rules we do not know."""
    return FIXES.get(rule, GENERIC_FIX)


def expectation_for(result: Result, output_schema: dict[str, Any] | None) -> Expectation:
    """What the last answer of `result`'s reproduction must satisfy: the check's own judgement."""
    if result.kind == "probe":
        return from_dict(result.details.get("expect") or {})
    if result.rule in OUTPUT_RULES:
        return ConformsTo(output_schema) if output_schema is not None else Succeeds()
    rule = RULES.get(result.rule)
    return rule.expects if rule is not None and rule.expects is not None else Succeeds()
