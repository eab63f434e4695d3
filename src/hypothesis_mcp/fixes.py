"""What to fix first and how: a fix sentence per rule id, the order of issues, reproduction lines.

Every output format tells the server author the same thing in the same order. Checks import
`fix_for` to fill `Result.fix`; reports use it for results that arrived without one.
"""

from __future__ import annotations

GENERIC_FIX = (
    "Replay the reproduction with `hypothesis-mcp replay` and compare the answer with the tool's schema."
)

FIXES: dict[str, str] = {
    # Effect probes
    "probe-silent-noop": (
        "When a write stores nothing (the key already exists, the value is unchanged), say so: return an "
        "error or list the skipped items instead of a bare success."
    ),
    "probe-data-lost": (
        "Make every write keep the records it does not target: merge into or append to the stored data "
        "instead of rewriting it from the new input alone."
    ),
    "probe-write-not-observable": (
        "Make what a write stores visible through a read tool, or declare the reader and its arguments in"
        " a probe config so the round trip can be checked."
    ),
    "probe-bound-exceeded": (
        "Apply the bound parameter before answering: cut the result to at most N items or lines, and "
        "treat 0 as zero rather than as 'no limit'."
    ),
    "probe-bound-short": (
        "Return min(N, available) items for a bound of N; look for an off-by-one slice or a filter that "
        "runs after the limit."
    ),
    "probe-slice-mismatch": (
        "Take head/tail from the start/end of the same content the tool returns without the parameter, in"
        " the same order and encoding."
    ),
    "probe-paths-disagree": (
        "Serve both tools from the same data with the same filtering and freshness, so they list the same"
        " items."
    ),
    "probe-not-idempotent": (
        "Make a repeated identical read answer the same: order the output deterministically and keep side"
        " effects out of read tools."
    ),
    # Smoke checks
    "smoke_structured_content": (
        "Return structuredContent that validates against the declared outputSchema, or change the schema "
        "to describe what the tool really returns."
    ),
    "smoke_invalid_arguments": (
        "Validate arguments against the inputSchema before running the handler and reject bad ones with "
        "an isError result or a JSON-RPC -32602 error."
    ),
    "smoke_unknown_tool": (
        "Answer tools/call for a name that is not in tools/list with a JSON-RPC error (-32602), not with "
        "a tool result."
    ),
    # Scenarios
    "happy-rejected-valid-input": (
        "Accept every argument set the inputSchema allows, or tighten the schema (enum, pattern, minimum,"
        " required...) so it only allows what the tool accepts."
    ),
    "happy-output-schema": (
        "Make every successful result carry structuredContent that validates against the outputSchema, or"
        " correct the schema."
    ),
    "edge-accepted-invalid-input": (
        "Validate arguments against the inputSchema and answer schema-invalid input with an error instead"
        " of running the tool on it."
    ),
    "edge-internal-error": (
        "Refuse schema-invalid arguments as invalid input (an isError result or JSON-RPC -32602) before "
        "the handler runs, instead of failing inside it with -32603."
    ),
    "scenario-failed": GENERIC_FIX,
    # Incidents
    "server-crashed": (
        "Catch exceptions inside tool handlers and return them as isError results; no input should take "
        "the server process down."
    ),
    "call-timeout": (
        "Answer within the timeout: bound slow work and put timeouts on upstream calls; raise --timeout "
        "only when the tool is slow by design."
    ),
    "protocol-violation": (
        "Write only JSON-RPC messages to the transport (logs go to stderr), answer each request id "
        "exactly once, and follow the negotiated protocol version."
    ),
    # Lint
    "lint-missing-input-schema": (
        'Declare an inputSchema for the tool; a tool without parameters uses {"type": "object"}.'
    ),
    "lint-input-schema-invalid": (
        "Fix the inputSchema so it validates against its dialect's metaschema (draft 2020-12 unless "
        "$schema says otherwise)."
    ),
    "lint-input-schema-root": (
        'Give the inputSchema root "type": "object" and describe the parameters under properties.'
    ),
    "lint-output-schema-invalid": "Fix the outputSchema so it validates against its dialect's metaschema.",
    "lint-output-schema-root": (
        'Give the outputSchema root "type": "object"; wrap a list or a scalar in an object field.'
    ),
    "lint-unresolved-ref": (
        "Point every $ref at a definition inside the schema ($defs or definitions), or inline the "
        "referenced schema."
    ),
    "lint-unknown-dialect": (
        "Set $schema to a published dialect (2020-12 is the MCP default) or leave it out."
    ),
    "lint-invalid-name": "Rename the tool to 1-128 characters of letters, digits, '_', '-' and '.'.",
    "lint-duplicate-name": "Give every tool a unique name; merge the duplicates or rename one of them.",
    "lint-hidden-unicode": (
        "Remove zero-width, bidirectional-control and tag characters from the definition; a reviewer "
        "cannot see them but the model reads them."
    ),
    "lint-instruction-text": (
        "Describe what the tool does and leave out instructions aimed at the model (ignore, always, do "
        "not tell the user, <IMPORTANT> tags)."
    ),
    "lint-annotation-invalid": "Give each *Hint annotation a JSON boolean value.",
    "lint-annotation-contradicts-name": (
        "Make the annotations and the name agree: fix readOnlyHint / destructiveHint, or rename the tool "
        "after what it does."
    ),
    "lint-annotation-conflict": (
        "Drop destructiveHint from a read-only tool, or set readOnlyHint: false if it changes anything."
    ),
    "lint-missing-annotations": (
        "Declare readOnlyHint (and destructiveHint for tools that change state) so clients know which "
        "tools are safe to call."
    ),
    "lint-missing-description": (
        "Add a description that says what the tool does, what it returns and when to use it."
    ),
    "lint-short-description": (
        "Expand the description to a full sentence: what the tool does, what it returns, and any limits."
    ),
    "lint-duplicate-description": "Give each tool a description that tells it apart from the others.",
    "lint-untyped-property": "Declare a type (or enum/const) for every parameter.",
    "lint-undocumented-property": (
        "Add a description to every parameter: what it means, its format, an example."
    ),
    "lint-required-undeclared": "Declare every required name under properties, or remove it from required.",
    "lint-oversized-definition": (
        "Shorten the description and schema (move long guidance to docs or a resource); the definition is"
        " sent to the model on every turn."
    ),
    # Resources and prompts (under --smoke)
    "resource-invalid-entry": (
        "Give every listed resource an absolute uri and a name, every template an RFC 6570 uriTemplate, and "
        "a mimeType only when it is a real media type (type/subtype)."
    ),
    "resource-duplicate-uri": "List each resource URI (and each template) once.",
    "resource-missing-description": (
        "Describe what each resource or template holds, so a client or a model can choose it without reading it."
    ),
    "resource-read-failed": (
        "Serve every resource that resources/list names, or stop listing the ones that cannot be read."
    ),
    "resource-contents-invalid": (
        "Answer resources/read with a non-empty contents list whose entries carry a uri and exactly one of "
        "text or base64 blob."
    ),
    "resource-uri-mismatch": "Answer a read with a contents entry whose uri is the URI that was read.",
    "resource-mime-mismatch": (
        "Make the listing's mimeType and the read's mimeType agree: correct one of them, or leave mimeType "
        "out of a template whose resources differ in type."
    ),
    "resource-unknown-accepted": (
        "Answer a read of a URI the server does not have with a JSON-RPC error (-32002, resource not found)."
    ),
    "prompt-invalid-entry": "Give every prompt a name, and every argument a name and a boolean required flag.",
    "prompt-duplicate-name": "List each prompt name once.",
    "prompt-missing-description": "Describe what each prompt is for in a sentence a client can show.",
    "prompt-undocumented-argument": "Describe every prompt argument: what value it takes and what it changes.",
    "prompt-messages-invalid": (
        "Answer prompts/get with messages that each have a role (user or assistant) and one content block."
    ),
    "prompt-missing-argument-accepted": (
        "Check a prompt's required arguments before building it and answer a missing one with JSON-RPC error "
        "-32602 (invalid params)."
    ),
    "prompt-unknown-accepted": "Answer prompts/get for a name the server does not have with JSON-RPC error -32602.",
}


def fix_for(rule: str) -> str:
    """The fix sentence for a rule id; a generic replay hint for rules we do not know."""
    return FIXES.get(rule, GENERIC_FIX)
