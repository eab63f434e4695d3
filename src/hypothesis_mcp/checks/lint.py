"""Static checks of the catalog: what a client or a model would trip over before any call is made.

Every rule has a stable id, a fixed severity (`fail` for definite errors, `warn` for style) and a
fix sentence in `report.fixes`. Findings are grouped per tool and rule: a tool with five undocumented
parameters gets one finding that names all five. docs/lint.md lists the rules and the weights.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

from jsonschema.validators import Draft202012Validator, validator_for
from referencing import Registry
from referencing.exceptions import Unresolvable, Unretrievable
from referencing.jsonschema import DRAFT202012, specification_with

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.results import Confidence, Result, RuleId, Status
from hypothesis_mcp.rules.registry import RULES, fix_for
from hypothesis_mcp.strategies.dialect import metaschema_errors
from hypothesis_mcp.vocabulary import EFFECT_ROLES, name_verbs

LINT_RULES: dict[RuleId, Status] = {rule.id: rule.severity for rule in RULES.values() if rule.kind == "lint"}
FAIL_WEIGHT = 0.25
WARN_WEIGHT = 0.1
MIN_DESCRIPTION_CHARS = 20
MAX_DEFINITION_BYTES = 8192
NAME_PATTERN = re.compile(r"[A-Za-z0-9_.\-]{1,128}")
DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema"

_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
# Verb groups that name a side effect, and those that name a pure read. A search is left out of
# the second: `query` may run any SQL.
_EFFECT_GROUPS = EFFECT_ROLES | {"delete", "send"}
_PURE_READ_GROUPS = frozenset({"read", "list", "count"})
_JSON_TYPES = {"dict": "object", "list": "array", "str": "string", "int": "integer", "float": "number",
               "bool": "boolean", "NoneType": "null"}
_TYPE_KEYWORDS = ("type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf")
_DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples"})
_INVISIBLE = frozenset(
    {0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF, 0x180E, 0x00AD,
     0x200E, 0x200F, 0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}
)
_ZWJ, _BLACK_FLAG = 0x200D, 0x1F3F4
_INSTRUCTIONS = (
    ("tells the model to ignore earlier instructions",
     r"\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+|your\s+)?(previous|prior|above|"
     r"earlier|preceding|system|other)\s+(instructions|prompts?|rules|directions|messages)"),
    ("demands unconditional behaviour", r"\byou\s+must\s+(always|never)\b"),
    ("asks to hide something from the user",
     r"\b(do\s+not|don'?t|never|without)\s+(tell|inform|notify|mention|reveal|alert|show)\w*\s+"
     r"(this\s+|it\s+|anything\s+)?(to\s+)?the\s+user\b"),
    ("uses a prompt-control tag", r"<\s*/?\s*(important|system|instructions?|secret|hidden)\s*>"),
    ("claims priority over other instructions",
     r"\b(this|these)\s+instructions?\s+(take|takes|have|has)\s+(precedence|priority)"),
    ("assigns the model a new role", r"\byou\s+are\s+now\s+(a|an|in)\b"),
    ("points at credential files", r"~/\.ssh|\bid_rsa\b|\.aws/credentials"),
)
_INSTRUCTION_PATTERNS = tuple((label, re.compile(rx, re.IGNORECASE)) for label, rx in _INSTRUCTIONS)


def lint(tools: list[Tool]) -> list[Result]:
    """All findings for the catalog, in catalog order; a tool without findings gets one pass."""
    names = Counter(tool.name for tool in tools)
    by_description: dict[str, list[str]] = defaultdict(list)
    for tool in tools:
        if key := _normal(tool.description):
            by_description[key].append(tool.name)
    results: list[Result] = []
    for tool in tools:
        found = [
            *_name_findings(tool, names),
            *_schema_findings(tool),
            *_text_findings(tool),
            *_description_findings(tool, by_description),
            *_annotation_findings(tool),
            *_size_findings(tool),
        ]
        results.extend(found or [_passed(tool)])
    return results


def lint_score(tools: list[Tool], results: list[Result]) -> float:
    """The lint subscore: each tool starts at 1, loses 0.25 per fail and 0.1 per warn, floored at 0.

    A (tool, rule) pair counts once, so two tools sharing a name are not charged twice for it.
    """
    if not tools:
        return 100.0
    statuses = {(r.tool, r.rule): r.status for r in results if r.kind == "lint" and r.tool is not None}
    penalty: dict[str, float] = defaultdict(float)
    for (tool_name, _), status in statuses.items():
        penalty[tool_name] += {"fail": FAIL_WEIGHT, "warn": WARN_WEIGHT}.get(status, 0.0)
    scores = [max(0.0, 1.0 - penalty[tool.name]) for tool in tools]
    return round(100 * sum(scores) / len(scores), 1)


def _finding(
    tool: Tool, rule: RuleId, message: str, basis: str, *, fix: str | None = None,
    confidence: Confidence = "high", **details: Any,
) -> Result:
    return Result(
        kind="lint", check="lint", tool=tool.name, status=LINT_RULES[rule], rule=rule,
        message=message, confidence=confidence, basis=basis, fix=fix or fix_for(rule),
        details=details, id=f"lint:{tool.name}:{rule}",
    )


def _passed(tool: Tool) -> Result:
    return Result(
        kind="lint", check="lint", tool=tool.name, status="pass", rule="lint",
        message="no lint findings", basis=f"{len(LINT_RULES)} static rules on the tool definition",
        id=f"lint:{tool.name}",
    )


def _name_findings(tool: Tool, names: Counter[str]) -> Iterator[Result]:
    if not NAME_PATTERN.fullmatch(tool.name):
        bad = sorted({c for c in tool.name if not NAME_PATTERN.fullmatch(c)})
        why = f"{len(tool.name)} characters" if not tool.name or len(tool.name) > 128 else (
            "characters outside the allowed set: " + ", ".join(repr(c) for c in bad))
        yield _finding(
            tool, "lint-invalid-name", f"tool name {tool.name!r} breaks the MCP naming rules ({why})",
            "MCP tool names: 1-128 characters from A-Z, a-z, 0-9, '_', '-' and '.'",
        )
    if names[tool.name] > 1:
        yield _finding(
            tool, "lint-duplicate-name", f"{names[tool.name]} tools are named {tool.name!r}",
            "tool names must be unique within a server: tools/call selects a tool by name alone",
            count=names[tool.name],
        )


def _schema_findings(tool: Tool) -> Iterator[Result]:
    definition = tool.to_dict()
    schema = definition.get("inputSchema")
    if not isinstance(schema, dict):
        yield _finding(
            tool, "lint-missing-input-schema",
            "no inputSchema object" if schema is None else f"inputSchema is {_json_type(schema)}",
            "MCP requires every tool to declare an inputSchema object",
        )
    else:
        yield from _check_schema(tool, schema, "inputSchema")
    if definition.get("outputSchema") is not None:
        yield from _check_schema(tool, definition["outputSchema"], "outputSchema")


def _check_schema(tool: Tool, schema: Any, field: str) -> Iterator[Result]:
    invalid: RuleId = "lint-input-schema-invalid" if field == "inputSchema" else "lint-output-schema-invalid"
    root: RuleId = "lint-input-schema-root" if field == "inputSchema" else "lint-output-schema-root"
    dialect = schema.get("$schema", DEFAULT_DIALECT) if isinstance(schema, dict) else DEFAULT_DIALECT
    basis = f"{field} validated against the metaschema of {dialect}"
    if not isinstance(schema, dict):
        message = f"{field} is {_json_type(schema)}, not an object"
        yield _finding(tool, invalid, message, basis)
        return
    if not isinstance(dialect, str):
        yield _finding(tool, invalid, f"{field}.$schema is not a URI string", basis)
        return
    cls = validator_for(schema, default=None) if "$schema" in schema else Draft202012Validator  # type: ignore[arg-type]
    if cls is None:
        yield _finding(
            tool, "lint-unknown-dialect", f"{field} names an unknown $schema {dialect!r}; checked as 2020-12",
            "jsonschema knows drafts 3, 4, 6, 7, 2019-09 and 2020-12",
        )
        cls = Draft202012Validator
    errors = metaschema_errors(schema, cls)
    if errors:
        shown = "; ".join(_schema_error(e) for e in errors[:3])
        yield _finding(tool, invalid, f"{field} is not a valid JSON Schema: {shown}",
                       basis, errors=len(errors))
        return
    if schema.get("type") != "object":
        yield _finding(
            tool, root,
            f"{field} root has type {schema.get('type')!r}; MCP requires \"object\"",
            f"MCP: {field} describes an object, so its root declares type \"object\"",
        )
    unresolved = _unresolved_refs(schema)
    if unresolved:
        yield _finding(
            tool, "lint-unresolved-ref",
            f"{field} has $ref values that resolve to nothing: {', '.join(unresolved)}",
            f"every $ref in {field} looked up inside the schema itself (remote schemas are not fetched)",
            refs=unresolved,
        )
    if field == "inputSchema":
        yield from _property_findings(tool, schema)


def _schema_error(error: Any) -> str:
    where = "/".join(str(p) for p in error.absolute_path) or "root"
    message = str(error.message)
    return f"{where}: {message[:120]}{'…' if len(message) > 120 else ''}"


def _unresolved_refs(schema: dict[str, Any]) -> list[str]:
    """Local `$ref`s that cannot be resolved; skipped when nested `$id`s change the base URI."""
    refs = sorted({ref for key, ref in _schema_keywords(schema) if key == "$ref" and isinstance(ref, str)})
    nested = _schema_keywords(schema, nested_only=True)
    if not refs or any(k in ("$id", "id") and isinstance(v, str) for k, v in nested):
        return []
    dialect = schema.get("$schema")
    spec = specification_with(dialect, default=DRAFT202012) if isinstance(dialect, str) else DRAFT202012
    base = "https://hypothesis-mcp.invalid/schema.json"
    resource = spec.create_resource(schema)
    registry: Registry[Any] = Registry().with_resource(base, resource)
    root_id = resource.id()
    if root_id:
        registry = registry.with_resource(root_id, resource)
    resolver = registry.resolver(base_uri=root_id or base)
    missing = []
    for ref in refs:
        try:
            resolver.lookup(ref)
        except (Unresolvable, Unretrievable):
            missing.append(ref)
    return missing


def _schema_keywords(schema: Any, *, nested_only: bool = False, depth: int = 0) -> Iterator[tuple[str, Any]]:
    """(keyword, value) pairs of every subschema, skipping keywords whose values are data, not schemas."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key in _DATA_KEYWORDS:
                continue
            if not (nested_only and depth == 0):
                yield key, value
            yield from _schema_keywords(value, nested_only=nested_only, depth=depth + 1)
    elif isinstance(schema, list):
        for item in schema:
            yield from _schema_keywords(item, nested_only=nested_only, depth=depth + 1)


def _property_findings(tool: Tool, schema: dict[str, Any]) -> Iterator[Result]:
    untyped = [path for path, sub in _properties(schema, "") if not _is_typed(sub)]
    if untyped:
        yield _finding(
            tool, "lint-untyped-property", f"parameter(s) without a type: {', '.join(untyped)}",
            f"each property schema checked for one of {', '.join(_TYPE_KEYWORDS)}",
            fix=f"Declare a type (or enum/const) for {', '.join(untyped)}.", properties=untyped,
        )
    properties = schema.get("properties")
    props = properties if isinstance(properties, dict) else {}
    undocumented = [name for name, sub in props.items() if not _described(sub, schema)]
    if undocumented:
        yield _finding(
            tool, "lint-undocumented-property",
            f"parameter(s) without a description: {', '.join(undocumented)}",
            "each top-level inputSchema property (or the definition it references) checked for a description",
            fix=f"Add a description to {', '.join(undocumented)}: what it means, its format, an example.",
            properties=undocumented,
        )
    required = schema.get("required")
    names = required if isinstance(required, list) else []
    missing = [r for r in names if isinstance(r, str) and r not in props]
    if missing:
        yield _finding(
            tool, "lint-required-undeclared", f"required names no declared property: {', '.join(missing)}",
            "inputSchema.required compared with inputSchema.properties",
            fix=f"Declare {', '.join(missing)} under properties, or drop it from required.",
            properties=missing,
        )


def _properties(schema: Any, prefix: str, depth: int = 0) -> Iterator[tuple[str, Any]]:
    """Every property schema with its dotted path, through nested objects and array items."""
    if not isinstance(schema, dict) or depth > 5:
        return
    props = schema.get("properties")
    if isinstance(props, dict):
        for name, sub in props.items():
            yield f"{prefix}{name}", sub
            yield from _properties(sub, f"{prefix}{name}.", depth + 1)
    items = schema.get("items")
    if isinstance(items, dict):
        yield from _properties(items, prefix[:-1] + "[]." if prefix else "[].", depth + 1)


def _is_typed(schema: Any) -> bool:
    return isinstance(schema, dict) and any(key in schema for key in _TYPE_KEYWORDS)


def _described(schema: Any, root: dict[str, Any]) -> bool:
    if not isinstance(schema, dict):
        return False
    if isinstance(schema.get("description"), str) and schema["description"].strip():
        return True
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for part in ref[2:].split("/"):
            key = part.replace("~1", "/").replace("~0", "~")
            target = target.get(key) if isinstance(target, dict) else None
        return isinstance(target, dict) and _described({k: v for k, v in target.items() if k != "$ref"}, root)
    return False


def _text_findings(tool: Tool) -> Iterator[Result]:
    hidden = [(where, f"U+{ord(c):04X} {unicodedata.name(c, 'unnamed')}")
              for where, text in _strings(tool.to_dict(), "") for c in _hidden_chars(text)]
    if hidden:
        places = sorted({where for where, _ in hidden})
        chars = sorted({char for _, char in hidden})
        yield _finding(
            tool, "lint-hidden-unicode",
            f"invisible characters ({', '.join(chars[:4])}) in {', '.join(places[:4])}",
            "every string of the tool definition scanned for zero-width, bidi-control and tag characters",
            places=places, characters=chars,
        )
    matches = [(where, label, m.group(0)) for where, text in _descriptions(tool)
               for label, pattern in _INSTRUCTION_PATTERNS if (m := pattern.search(text))]
    if matches:
        where, label, quote = matches[0]
        more = f" (and {len(matches) - 1} more)" if len(matches) > 1 else ""
        yield _finding(
            tool, "lint-instruction-text", f"{where} {label}: {quote!r}{more}",
            "descriptions and titles matched against phrases used to inject instructions into a model",
            confidence="medium", matches=[{"where": w, "why": lb, "text": q} for w, lb, q in matches],
        )


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """(path, text) for every key and string in a JSON value."""
    if isinstance(value, str):
        yield path or "root", value
    elif isinstance(value, dict):
        for key, sub in value.items():
            here = f"{path}.{key}" if path else str(key)
            yield here, str(key)
            yield from _strings(sub, here)
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from _strings(sub, f"{path}[{i}]")


def _hidden_chars(text: str) -> Iterator[str]:
    """Invisible characters, except a zero-width joiner inside an emoji and the tags of a flag emoji."""
    in_flag = False
    for i, char in enumerate(text):
        code = ord(char)
        if 0xE0000 <= code <= 0xE007F:
            in_flag = in_flag or (i > 0 and ord(text[i - 1]) == _BLACK_FLAG)
            if not in_flag:
                yield char
            continue
        in_flag = False
        if code == _ZWJ and 0 < i < len(text) - 1 and _emoji_side(text[i - 1]) and _emoji_side(text[i + 1]):
            continue
        if code in _INVISIBLE:
            yield char


def _emoji_side(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sk") or char == "\ufe0f"


def _descriptions(tool: Tool) -> Iterator[tuple[str, str]]:
    """Text a model reads as guidance: the tool's description and titles, and those in its schemas."""
    for where, text in (("description", tool.description), ("title", tool.title),
                        ("annotations.title", tool.annotations.get("title"))):
        if isinstance(text, str):
            yield where, text
    definition = tool.to_dict()
    for field in ("inputSchema", "outputSchema"):
        for where, text in _strings(definition.get(field), field):
            if where.endswith((".description", ".title")) and text not in ("description", "title"):
                yield where, text


def _description_findings(tool: Tool, by_description: dict[str, list[str]]) -> Iterator[Result]:
    text = (tool.description or "").strip()
    if not text:
        yield _finding(
            tool, "lint-missing-description", "the tool has no description",
            "a model picks tools by their description; MCP lists it as the tool's human-readable explanation",
        )
        return
    if len(text) < MIN_DESCRIPTION_CHARS:
        yield _finding(
            tool, "lint-short-description", f"description is {len(text)} characters: {text!r}",
            f"description length compared with {MIN_DESCRIPTION_CHARS} characters",
        )
    others = [name for name in by_description[_normal(text)] if name != tool.name]
    if others:
        yield _finding(
            tool, "lint-duplicate-description", f"same description as {', '.join(others)}",
            "descriptions compared across the catalog (case and whitespace ignored)", tools=others,
        )


def _annotation_findings(tool: Tool) -> Iterator[Result]:
    annotations = tool.annotations
    wrong = [key for key in _HINTS if key in annotations and not isinstance(annotations[key], bool)]
    if wrong:
        yield _finding(
            tool, "lint-annotation-invalid", f"annotation(s) that are not booleans: {', '.join(wrong)}",
            "MCP ToolAnnotations: every *Hint is a boolean; a client ignores any other value",
            fix=f"Set {', '.join(wrong)} to true or false (JSON booleans, not strings).",
        )
    read_only, destructive = tool.read_only_hint, tool.destructive_hint
    verbs = name_verbs(tool.name)
    verb, group = (verbs[0].word, verbs[0].group) if verbs else (None, None)
    basis = "the verb of the tool name (read by its position) compared with its annotations"
    if read_only is True and group in _EFFECT_GROUPS:
        yield _finding(
            tool, "lint-annotation-contradicts-name",
            f"named with {verb!r} but annotated readOnlyHint: true", basis, confidence="medium",
            fix=f"Set readOnlyHint: false if {tool.name} changes anything; otherwise rename it.",
        )
    elif destructive is True and read_only is not True and group in _PURE_READ_GROUPS:
        yield _finding(
            tool, "lint-annotation-contradicts-name",
            f"named with {verb!r} but annotated destructiveHint: true", basis, confidence="medium",
            fix=f"Set readOnlyHint: true if {tool.name} only reads; otherwise rename it after its effect.",
        )
    if read_only is True and destructive is True:
        yield _finding(
            tool, "lint-annotation-conflict", "annotated both readOnlyHint: true and destructiveHint: true",
            "MCP ToolAnnotations: destructiveHint only means something when readOnlyHint is false",
        )
    if read_only is None:
        yield _finding(
            tool, "lint-missing-annotations",
            "no readOnlyHint annotation" if annotations else "no annotations",
            "MCP ToolAnnotations: a missing readOnlyHint means false and a missing destructiveHint "
            "means true, so clients must treat the tool as destructive",
        )
    elif read_only is False and destructive is None:
        yield _finding(
            tool, "lint-missing-annotations",
            "readOnlyHint: false without destructiveHint (which then defaults to true)",
            "MCP ToolAnnotations: a missing destructiveHint means true",
            fix="Declare destructiveHint: false if the tool only adds or updates data, true if it deletes or "
                "overwrites.",
        )


def _size_findings(tool: Tool) -> Iterator[Result]:
    size = len(json.dumps(tool.to_dict(), separators=(",", ":"), ensure_ascii=False).encode())
    if size > MAX_DEFINITION_BYTES:
        yield _finding(
            tool, "lint-oversized-definition",
            f"the definition is {size} bytes (limit {MAX_DEFINITION_BYTES})",
            "compact JSON of the tool definition, UTF-8 bytes; it is sent to the model on every turn",
            size=size,
        )


def _json_type(value: Any) -> str:
    name = _JSON_TYPES.get(type(value).__name__, type(value).__name__)
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"


def _normal(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()
