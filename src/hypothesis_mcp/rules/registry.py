"""Every rule the tool reports: its id, kind, default severity, fix hint, and what a replay judges.

Checks fill `Result.fix` from here; reports use it for results that arrived without one; `replay`
asks it what the last answer of a reproduction must satisfy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from hypothesis_mcp.results import PROMPTS_GET, RESOURCES_READ, Kind, Result, RuleId, Status
from hypothesis_mcp.rules.expectations import (
    ConformsTo,
    Expectation,
    FailsAsError,
    NoIncident,
    NoRecordFor,
    Refused,
    RefusedCleanly,
    Served,
    Succeeds,
    UnknownToolRefused,
    from_dict,
)
from hypothesis_mcp.rules.surfaces import PromptAnswer, ReadAnswer

GENERIC_FIX = (
    "Replay the reproduction with `hypothesis-mcp replay` and compare the answer with the tool's schema."
)
OUTPUT_RULES: frozenset[RuleId] = frozenset({"smoke_structured_content", "happy-output-schema"})
NOT_EXERCISED: RuleId = "happy-tool-not-exercised"
ERROR_AS_SUCCESS: Final = "error-as-success"
"""Both a rule id and the name of the check that reports it, so typed as its own literal."""
STDOUT_NOT_PROTOCOL: Final = "stdout-not-protocol"
"""A server-wide warning: a rule id and its check's name."""
READ_MISSING: Final = "read-missing-as-success"
"""A keyed read of an id nobody wrote answered with a record: a rule id and its check's name."""


@dataclass(frozen=True)
class Rule:
    """A rule: `severity` is the status a failure gets by default, `expects` what the last answer of a
    one-call reproduction must satisfy (probes carry their own expectation in the result)."""

    id: RuleId
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
    Rule("probe-pages-skip", "probe", (
        "Page from a stable order and advance by exactly what each page returned (an offset by the items "
        "served, a cursor that points just after the last item): every record must appear on some page."
    )),
    Rule("probe-pages-repeat", "probe", (
        "Start each page just after the last item of the page before it (no overlap of offsets, no cursor "
        "that points at an item already served), so no record is listed on two pages of one walk."
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
    Rule("probe-read-changed-state", "probe", (
        "Keep reads free of side effects: a get, search or listing must not archive, consume, move or "
        "reorder what it finds; give such a change its own write tool, or drop the read-only claim."
    )),
    Rule("probe-refusal-changed-state", "probe", (
        "Check every rule before changing anything: a write or update that answers with a refusal must "
        "leave the store as it was, with no record, field or count stored from the refused call."
    )),
    Rule("probe-delete-kept", "probe", (
        "Make a delete that reports success remove the record from every store and index a reader uses "
        "(no soft-delete flag a listing ignores, no cache left holding it); if it cannot delete, refuse."
    )),
    Rule("probe-delete-took-other", "probe", (
        "Delete exactly the record whose key was given: compare the whole key (not a prefix or a "
        "truncated copy) and remove one item at the index found, not a slice or the index next to it."
    )),
    Rule("probe-delete-again-succeeded", "probe", (
        "Answer a delete of a record already deleted as you answer a key never written (an isError "
        "refusal), or as a plain no-op; never as a success result whose text says it failed."
    )),
    Rule("probe-rename-lost-fields", "probe", (
        "Carry every field of a record to its new identity when renaming or moving it: copy the whole "
        "record (or change its key in place), not only the fields the rename names."
    )),
    Rule("probe-rename-left-old", "probe", (
        "Remove the record from its old identity when a rename or move succeeds (every index, listing and "
        "cache included); if the tool is meant to copy, say so in its description."
    )),
    Rule("probe-identity-folded", "probe", (
        "Keep identities that differ only in case, surrounding spaces or Unicode form as distinct records, "
        "or, if the store means to fold them, say so in the tool's description and answer a write that "
        "folds with the identity it was stored under."
    )),
    Rule("probe-identity-prefix", "probe", (
        "Match identities exactly: a write, get or update of one identity must never touch a record whose "
        "identity only starts with it (or that it starts with); compare whole keys, not prefixes."
    )),
    Rule("probe-readers-disagree", "probe", (
        "Serve every reader of a kind of record from the same state: refresh or drop a listing's cache and a "
        "search index on every write, so a get, a listing and a search show the same values."
    )),
    Rule("probe-count-wrong", "probe", (
        "Compute a count or total from the records themselves (or keep its counter in step with every write "
        "that adds a record and with none that replaces one), so it equals the number of records held."
    )),
    Rule("probe-overwrite-kept-old", "probe", (
        "A write that replaces a record must replace it in every view: remove the old entry from listings "
        "and the old values from search indexes, so the identity is listed once and old values find nothing."
    )),
    Rule("probe-reference-dangling", "probe", (
        "Resolve a reference when it is read (show the record it names only while that record exists), or "
        "refuse or cascade the removal of a record others name; never serve a removed record through a copy."
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
    Rule(NOT_EXERCISED, "scenario", (
        "Pass values the tool can serve (an id or path that exists) with --arg TOOL:NAME=VALUE or "
        "--args-file, so a valid call succeeds and the tool is tested; until then it is not exercised."
    ), severity="inconclusive"),
    Rule(ERROR_AS_SUCCESS, "scenario", (
        "Report a failed call as a tool error: set isError: true on the result (raise in the handler, or "
        "return CallToolResult(isError=True)), and keep success results for calls that succeeded."
    ), severity="warn", expects=FailsAsError()),
    Rule(READ_MISSING, "scenario", (
        "Answer a read of a record that does not exist as a failure (isError: true, \"not found\"), or with "
        "nothing (null, an empty list); never with a blank or default record under the asked id."
    ), severity="warn"),
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
    Rule(STDOUT_NOT_PROTOCOL, "incident", (
        "Write only JSON-RPC messages to stdout: send logs, banners and prints to stderr (print(..., "
        "file=sys.stderr), console.error, a logging handler on stderr); clients read stdout as the protocol."
    ), severity="warn"),
    Rule("state-persists", "probe", (
        "Give every server process a throw-away data location: point its data file or database at a new "
        "temporary folder (--env NAME={tmpdir}/data, or a strategy's env), so a new process starts empty."
    ), severity="warn"),
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
    # Resources and prompts (under --smoke)
    Rule("resource-invalid-entry", "smoke", (
        "Give every listed resource an absolute uri and a name, every template an RFC 6570 uriTemplate, and "
        "a mimeType only when it is a real media type (type/subtype)."
    )),
    Rule("resource-duplicate-uri", "smoke", "List each resource URI (and each template) once."),
    Rule("resource-missing-description", "smoke", (
        "Describe what each resource or template holds, so a client or a model can choose it without reading it."
    ), severity="warn"),
    Rule("resource-read-failed", "smoke", (
        "Serve every resource that resources/list names, or stop listing the ones that cannot be read."
    )),
    Rule("resource-contents-invalid", "smoke", (
        "Answer resources/read with a non-empty contents list whose entries carry a uri and exactly one of "
        "text or base64 blob."
    )),
    Rule("resource-uri-mismatch", "smoke", "Answer a read with a contents entry whose uri is the URI that was read."),
    Rule("resource-mime-mismatch", "smoke", (
        "Make the listing's mimeType and the read's mimeType agree: correct one of them, or leave mimeType "
        "out of a template whose resources differ in type."
    ), severity="warn"),
    Rule("resource-unknown-accepted", "smoke", (
        "Answer a read of a URI the server does not have with a JSON-RPC error (-32002, resource not found)."
    )),
    Rule("prompt-invalid-entry", "smoke", (
        "Give every prompt a name, and every argument a name and a boolean required flag."
    )),
    Rule("prompt-duplicate-name", "smoke", "List each prompt name once."),
    Rule("prompt-missing-description", "smoke", (
        "Describe what each prompt is for in a sentence a client can show."
    ), severity="warn"),
    Rule("prompt-undocumented-argument", "smoke", (
        "Describe every prompt argument: what value it takes and what it changes."
    ), severity="warn"),
    Rule("prompt-messages-invalid", "smoke", (
        "Answer prompts/get with messages that each have a role (user or assistant) and one content block."
    )),
    Rule("prompt-missing-argument-accepted", "smoke", (
        "Check a prompt's required arguments before building it and answer a missing one with JSON-RPC error "
        "-32602 (invalid params)."
    )),
    Rule("prompt-unknown-accepted", "smoke", (
        "Answer prompts/get for a name the server does not have with JSON-RPC error -32602."
    )),
    Rule("refusal-nonstandard-code", "smoke", (
        "Refuse with the code clients look for: -32002 for an unknown resource, -32602 for an unknown prompt or a "
        "missing argument (raise the SDK's protocol error with that code, not a plain exception)."
    ), severity="warn"),
)}
FIXES: dict[str, str] = {rule.id: rule.fix for rule in RULES.values()}


def fix_for(rule: str) -> str:
    """The fix sentence for a rule id; a generic replay hint for rules we do not know."""
    return FIXES.get(rule, GENERIC_FIX)


def expectation_for(result: Result, output_schema: dict[str, Any] | None) -> Expectation:
    """What the last answer of `result`'s reproduction must satisfy: the check's own judgement."""
    last = result.reproduction.calls[-1] if result.reproduction and result.reproduction.calls else None
    if last is not None and last.method == RESOURCES_READ:
        return ReadAnswer(result.rule, last.tool, result.details.get("mime_type"))
    if last is not None and last.method == PROMPTS_GET:
        return PromptAnswer(result.rule)
    if result.kind == "probe":
        return from_dict(result.details.get("expect") or {})
    if result.rule == READ_MISSING and last is not None:
        return NoRecordFor(tuple(str(v) for v in last.arguments.values()
                                 if isinstance(v, str | int) and not isinstance(v, bool)),
                           tuple(result.details.get("members", ())))
    if result.rule in OUTPUT_RULES:
        return ConformsTo(output_schema) if output_schema is not None else Succeeds()
    rule = RULES.get(result.rule)
    return rule.expects if rule is not None and rule.expects is not None else Succeeds()
