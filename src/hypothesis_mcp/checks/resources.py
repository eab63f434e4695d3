"""Resources under `--smoke`: their metadata, every listed resource read back, generated URIs for
every resource template, and an unknown URI that must be refused.

What a read must answer: a `contents` list whose entries each carry a `uri` and exactly one of
`text` or `blob` (base64), one entry for the URI asked for, and the MIME type the listing declared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis_mcp.checks.surfaces import (
    MEDIA_TYPE,
    URI,
    Listing,
    MetadataRules,
    SurfaceChecks,
    list_entries,
    maker_of_uri,
    one_per_cause,
    smoke_result,
    text_problem,
    unknown_name,
)
from hypothesis_mcp.checks.uritemplate import TemplateError, UriTemplate, parse, values
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.results import RESOURCES_READ, Call, Check, Result, RuleId, Status
from hypothesis_mcp.rules.expectations import Finding
from hypothesis_mcp.rules.surfaces import (
    MIME_MISMATCH,
    READ_FAILED,
    RESOURCE_NOT_FOUND,
    contents_problem,
    incident,
)
from hypothesis_mcp.rules.surfaces import RESOURCE_UNKNOWN_ACCEPTED as UNKNOWN_ACCEPTED
from hypothesis_mcp.search.driver import hunt

METADATA: Check = "smoke_resource_metadata"
READ: Check = "smoke_resource_read"
TEMPLATE: Check = "smoke_resource_template"
UNKNOWN: Check = "smoke_unknown_resource"
INVALID_ENTRY: RuleId = "resource-invalid-entry"
DUPLICATE: RuleId = "resource-duplicate-uri"
NO_DESCRIPTION: RuleId = "resource-missing-description"
RULES = MetadataRules(INVALID_ENTRY, DUPLICATE, NO_DESCRIPTION)
WARNINGS = frozenset({NO_DESCRIPTION, MIME_MISMATCH})
BASIS: dict[Check, str] = {
    METADATA: "MCP Resources §Data Types: a resource has a uri and a name, a template a uriTemplate "
              "(RFC 6570); mimeType, when given, is a media type",
    READ: "MCP Resources §Reading Resources: contents carry the uri and exactly one of text or blob",
    TEMPLATE: "MCP Resources §Resource Templates: URIs expanded from a template are read like resources",
    UNKNOWN: "MCP Resources §Error Handling: an unknown resource is a JSON-RPC error (-32002)",
}


@dataclass
class ResourceChecks(SurfaceChecks):
    """Resources and templates: their metadata, every read against its listing, unknown URIs refused."""

    def run(self) -> list[Result]:
        if self.unreachable(METADATA, BASIS[METADATA]):
            return self.results
        resources = list_entries(self.conn, "resources/list")
        templates = list_entries(self.conn, "resources/templates/list")
        if resources.absent and templates.absent:
            self.add(smoke_result(METADATA, None, "skip", "the server offers no resources",
                                             basis=BASIS[METADATA]))
            return self.results
        for method, listing in (("resources/list", resources), ("resources/templates/list", templates)):
            if listing.broken is not None:
                broke = incident(listing.broken)
                self.add(smoke_result(METADATA, None, "fail", f"{method} failed: {listing.broken.summary()}",
                                                 rule=broke.rule if broke else INVALID_ENTRY, basis=BASIS[METADATA]))
        self.metadata(resources, templates)
        reads: list[Result] = []
        for entry in resources.entries:
            if self.stop():
                break
            if isinstance(entry.get("uri"), str):
                reads.append(self.read(entry))
        for result in one_per_cause(reads, "listed resources", "uris"):
            self.add(result)
        expanded: list[Result] = []
        for entry in templates.entries:
            if self.stop():
                break
            if isinstance(entry.get("uriTemplate"), str) and (judged := self.template(entry)) is not None:
                expanded.append(judged)
        for result in one_per_cause(expanded, "templates"):
            self.add(result)
        if not self.stop():
            self.unknown(resources.entries, templates.entries)
        return self.results

    # metadata -------------------------------------------------------------------------------
    def metadata(self, resources: Listing, templates: Listing) -> None:
        found = 0
        seen: set[str] = set()
        for entry, key in [*((e, "uri") for e in resources.entries), *((e, "uriTemplate") for e in templates.entries)]:
            subject = f"{'resource' if key == 'uri' else 'template'} {entry.get(key, entry.get('name', '?'))}"
            problems = [p for p in (text_problem(entry, key, required=True), text_problem(entry, "name", required=True),
                                    text_problem(entry, "mimeType", required=False)) if p]
            value = entry.get(key)
            if isinstance(value, str) and key == "uri" and not URI.fullmatch(value):
                problems.append(f"uri {value!r} is not an absolute URI")
            if isinstance(value, str) and key == "uriTemplate":
                try:
                    parse(value)
                except TemplateError as exc:
                    problems.append(f"uriTemplate is not an RFC 6570 template: {exc}")
            mime = entry.get("mimeType")
            if isinstance(mime, str) and mime.strip() and not MEDIA_TYPE.fullmatch(mime.strip()):
                problems.append(f"mimeType {mime!r} is not a media type")
            found += self.entry_metadata(RULES, subject, entry, problems, (key, value), seen,
                                         check=METADATA, basis=BASIS[METADATA])
        if not found:
            self.add(smoke_result(
                METADATA, None, "pass", f"{len(resources.entries)} resource(s) and {len(templates.entries)} "
                "template(s) have a uri, a name, a media type where given and a description", basis=BASIS[METADATA]))

    # reads ----------------------------------------------------------------------------------
    def read(self, entry: dict[str, Any]) -> Result:
        uri = entry["uri"]
        call = Call(uri, {}, RESOURCES_READ)
        outcome = self.conn.read_resource(uri)
        subject = f"resource {uri}"
        details = {"uri": uri, "returned": outcome.summary()}
        made = maker_of_uri(self.conn.transcript, uri)
        if (found := incident(outcome)) is not None:
            return smoke_result(READ, subject, "fail", found.message, rule=found.rule, basis=BASIS[READ], call=call,
                                details=details, made_by=made)
        if not outcome.ok:
            return smoke_result(READ, subject, "fail", f"a listed resource could not be read: {outcome.summary()}",
                                rule=READ_FAILED, confidence="medium", basis=BASIS[READ], call=call, details=details,
                                made_by=made)
        if (finding := contents_problem(outcome, uri, entry.get("mimeType"))) is not None:
            return smoke_result(READ, subject, "warn" if finding.rule in WARNINGS else "fail", finding.message,
                                rule=finding.rule, basis=BASIS[READ], call=call,
                                details={**details, **finding.details, "mime_type": entry.get("mimeType")},
                                made_by=made)
        return smoke_result(READ, subject, "pass", "read back with matching uri, media type and text or blob",
                            basis=BASIS[READ], details=details)

    def template(self, entry: dict[str, Any]) -> Result | None:
        """The template's result (left to the caller, which groups templates failing alike), or None
        for a template the metadata check reports as unparseable."""
        text = entry["uriTemplate"]
        subject = f"template {text}"
        try:
            template = parse(text)
        except TemplateError:
            return None  # reported by the metadata check
        if template.level > 2:
            return smoke_result(TEMPLATE, subject, "skip", f"uses level {template.level} expressions; "
                                "URIs are generated for level 1-2 templates", basis=BASIS[TEMPLATE])
        answered: list[Outcome] = []
        refusals: list[Outcome] = []

        def prop(chosen: dict[str, str]) -> Finding | None:
            outcome = self.conn.read_resource(template.expand(chosen))
            if (found := incident(outcome)) is not None:
                return found
            if not outcome.ok:
                refusals.append(outcome.slim())
                return None
            answered.append(outcome.slim())
            return contents_problem(outcome, template.expand(chosen), entry.get("mimeType"))

        done = hunt(values(template), prop, self.profile, examples=self.profile.examples,
                    cost=lambda: self.conn.stats.calls, stop=self.stop, scope=("template", text))
        if done.finding is not None and done.value is not None:
            uri = template.expand(done.value)
            status: Status = "warn" if done.finding.rule in WARNINGS else "fail"
            return smoke_result(
                TEMPLATE, subject, status, f"{uri}: {done.finding.message}", rule=done.finding.rule,
                basis=BASIS[TEMPLATE], call=Call(uri, {}, RESOURCES_READ),
                details={**done.finding.details, "uri": uri, "values": done.value, "mime_type": entry.get("mimeType")})
        if not answered:
            return smoke_result(
                TEMPLATE, subject, "skip", f"every one of {len(refusals)} generated URI(s) was refused: the template "
                "may need real values", basis=BASIS[TEMPLATE],
                details={"returned": refusals[-1].summary()} if refusals else {})
        return smoke_result(
            TEMPLATE, subject, "pass", f"{len(answered)} generated URI(s) read back with matching uri and media "
            f"type ({len(refusals)} refused)", basis=BASIS[TEMPLATE], details={"returned": answered[0].summary()})

    def unknown(self, resources: list[dict[str, Any]], templates: list[dict[str, Any]]) -> None:
        listed = {e["uri"] for e in resources if isinstance(e.get("uri"), str)}
        parsed: list[UriTemplate] = []
        for entry in templates:
            try:
                parsed.append(parse(str(entry.get("uriTemplate"))))
            except TemplateError:
                continue
        schemes = sorted({u.split(":", 1)[0] for u in listed | {t.text for t in parsed} if ":" in u})
        uri = ""
        for scheme in [*schemes, "hypothesis-mcp"]:
            uri = f"{scheme}://{unknown_name(listed, 'hm-no-such-resource-')}"
            if uri not in listed and not any(t.matches(uri) for t in parsed):
                break
        else:
            self.add(smoke_result(UNKNOWN, None, "skip", "every URI matches a resource template",
                                             basis=BASIS[UNKNOWN]))
            return
        outcome = self.conn.read_resource(uri)
        details = {"uri": uri, "returned": outcome.summary()}
        call = Call(uri, {}, RESOURCES_READ)
        self.judge_unknown(outcome, call, details, check=UNKNOWN, basis=BASIS[UNKNOWN], accepted_rule=UNKNOWN_ACCEPTED,
                           accepted=f"answered a read of an unknown URI ({uri}) instead of a JSON-RPC error",
                           what="an unknown resource", expected=RESOURCE_NOT_FOUND, internal=True)
