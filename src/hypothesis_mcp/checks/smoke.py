"""Smoke mode: output schemas honoured, invalid arguments rejected, unknown tools refused.

Each check runs many generated argument sets per tool instead of one fixed call, and a failure
is shrunk to the smallest arguments that still break it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Any, Final

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.checks.scenarios import EXCLUDED, NEVER_CALLED
from hypothesis_mcp.checks.searches import REJECTED_VALID, Search, Searches, rejection_kind
from hypothesis_mcp.connection import Connection
from hypothesis_mcp.results import Call, Check, Reproduction, Result, Smoke, Status
from hypothesis_mcp.rules.expectations import Finding, UnknownToolRefused
from hypothesis_mcp.rules.surfaces import bad_code
from hypothesis_mcp.strategies.dialect import schema_problem

STRUCTURED: Final = "smoke_structured_content"
INVALID: Final = "smoke_invalid_arguments"
UNKNOWN: Final = "smoke_unknown_tool"
"""Each smoke check reports failures under the rule of its own name."""
BASIS: dict[Check, str] = {
    STRUCTURED: "MCP Tools §Output Schema: structured results MUST conform to the declared outputSchema",
    INVALID: "MCP Tools §Error Handling: arguments that break the inputSchema must be rejected",
    UNKNOWN: "MCP Tools §Error Handling: an unknown tool is a JSON-RPC protocol error",
}
NOT_READ_ONLY = "not called under the safety default (readOnlyHint is not true); pass --call-all to include it"



@dataclass
class SmokeRun:
    conn: Connection
    tools: list[Tool]
    searches: Searches
    call_all: bool = False
    excluded: frozenset[str] = frozenset()
    called: set[str] = field(default_factory=set)

    def callable_reason(self, tool: Tool) -> str | None:
        if tool.is_destructive:
            return NEVER_CALLED
        if tool.name in self.excluded:
            return EXCLUDED
        if not self.call_all and tool.read_only_hint is not True:
            return NOT_READ_ONLY
        return None

    def result(self, check: Check, tool: str | None, status: Status, message: str, *,
               finding: Finding | None = None, args: dict[str, Any] | None = None,
               details: dict[str, Any] | None = None) -> Result:
        extra = dict(details or {})
        extra.setdefault("called", tool in self.called if tool else True)
        repro = None
        if args is not None and tool is not None and status == "fail":
            repro = Reproduction([Call(tool, args)], fresh_server=False)
        return Result(
            kind="smoke", check=check, tool=tool, status=status,
            rule=finding.rule if finding and finding.rule != check else check, message=message,
            confidence="high", basis=BASIS[check], reproduction=repro,
            details={**extra, **(finding.details if finding else {})},
        )

    # smoke_structured_content -----------------------------------------------------------
    def structured(self, tool: Tool) -> Result:
        if (reason := self.callable_reason(tool)) is not None:
            return self.result(STRUCTURED, tool.name, "skip", reason, details={"called": False})
        if tool.output_schema is None:
            return self.result(STRUCTURED, tool.name, "skip", "no outputSchema declared: not called for this check; "
                               "declare an outputSchema to have its results verified", details={"called": False})
        if (problem := schema_problem(tool.output_schema)) is not None:
            return self.result(STRUCTURED, tool.name, "skip", f"outputSchema is not a valid JSON Schema ({problem})")
        search = self.searches.valid(tool)
        self._note_called(tool, search)
        finding = search.finding
        if finding is not None and finding.rule == REJECTED_VALID:
            # Refused valid arguments are the happy check's to judge; here the search goes on past
            # them, so an output schema break on other arguments is still found.
            rejected = finding
            search = self.searches.valid(tool, outputs_only=True)
            finding = search.finding
            if finding is None and not search.successes:
                return self.result(STRUCTURED, tool.name, "skip", f"{rejected.message}; only behaviour the server owns "
                                   "fails this check", details={"returned": rejected.details.get("returned")})
        if finding is not None:
            return self.result(STRUCTURED, tool.name, "fail", finding.message, finding=finding, args=search.arguments,
                               details={"arguments": search.arguments})
        if search.skipped is not None:
            return self.result(STRUCTURED, tool.name, "skip", search.skipped)
        if not search.successes:
            return self.result(STRUCTURED, tool.name, "skip",
                               f"returned an error result for all {len(search.answered)} valid argument set(s): it "
                               "may need real values (--arg) or a service behind it is down; only behaviour the server "
                               "owns fails this check",
                               details={"returned": search.refused[-1].summary()} if search.refused else {})
        return self.result(STRUCTURED, tool.name, "pass", "structuredContent conforms to the declared outputSchema "
                           f"({len(search.successes)} successful call(s))",
                           details={"returned": search.successes[0].summary()})

    # smoke_invalid_arguments ------------------------------------------------------------
    def invalid(self, tool: Tool) -> Result:
        if (reason := self.callable_reason(tool)) is not None:
            return self.result(INVALID, tool.name, "skip", reason, details={"called": False})
        search = self.searches.invalid(tool)
        self._note_called(tool, search)
        if search.finding is not None:
            return self.result(INVALID, tool.name, "fail", search.finding.message, finding=search.finding,
                               args=search.arguments, details={"arguments": search.arguments})
        if search.skipped is not None:
            return self.result(INVALID, tool.name, "skip", search.skipped, details={"called": False})
        how = sorted({rejection_kind(o) for o in search.refused})
        return self.result(INVALID, tool.name, "pass",
                           f"rejected all {len(search.refused)} invalid argument set(s) with {' or '.join(how)}",
                           details={"returned": search.refused[-1].summary()} if search.refused else {})

    def _note_called(self, tool: Tool, search: Search) -> None:
        if search.answered:
            self.called.add(tool.name)

    # smoke_unknown_tool -----------------------------------------------------------------
    def unknown(self) -> Result:
        names = {t.name for t in self.tools}
        if not names:
            return self.result(UNKNOWN, None, "skip", "the catalog is empty: no name to derive an unknown tool from")
        name = unknown_name(names)
        outcome = self.conn.call(name, {})
        details = {"tool_name_called": name, "returned": outcome.summary()}
        if outcome.kind == "unavailable":
            return self.result(UNKNOWN, None, "skip", outcome.summary(), details=details)
        if UnknownToolRefused().holds(outcome):
            return self.result(UNKNOWN, None, "pass", f"rejected with JSON-RPC error {outcome.code}", details=details)
        if outcome.kind == "result" and outcome.is_error:
            result = self.result(UNKNOWN, None, "fail",
                                 "reported a tool execution error (isError) for a nonexistent tool; an unknown tool is "
                                 "a JSON-RPC protocol error, and an isError result claims the tool exists and ran",
                                 args={}, details=details)
        elif outcome.error_shaped:
            result = self.result(UNKNOWN, None, "fail",
                                 "answered a nonexistent tool with a success result whose content says it failed "
                                 f"({outcome.failure}); an unknown tool is a JSON-RPC protocol error",
                                 details=details)
        elif outcome.kind == "result":
            result = self.result(UNKNOWN, None, "fail", "returned a success result for a nonexistent tool",
                                 details=details)
        elif (why := bad_code(outcome)) is not None:
            result = self.result(UNKNOWN, None, "fail", why, details=details)
        else:
            result = self.result(UNKNOWN, None, "fail", f"did not reject the unknown tool cleanly: {outcome.summary()}",
                                 details=details)
        return replace(result, reproduction=Reproduction([Call(name, {})], fresh_server=False))

    def run(self) -> tuple[Smoke, list[Result]]:
        """The smoke section of the report, and every check's result in order."""
        checks = [self.structured(tool) for tool in self.tools]
        checks += [self.invalid(tool) for tool in self.tools]
        checks.append(self.unknown())
        return Smoke(
            executed=True, reason=None, call_all=self.call_all,
            passed=sum(r.status == "pass" for r in checks),
            failed=sum(r.status == "fail" for r in checks),
            skipped=sum(r.status == "skip" for r in checks),
            tools_called=len(self.called & {t.name for t in self.tools}),
            tools_total=len(self.tools),
            checks=[smoke_entry(r) for r in checks],
        ), checks


def smoke_entry(result: Result) -> dict[str, Any]:
    """A result as an entry of the JSON report's smoke section."""
    return {"check_id": result.check, "tool_name": result.tool, "verdict": result.status, "message": result.message,
            "details": {"basis": result.basis, **result.details}}


def unknown_name(names: set[str]) -> str:
    """A name built from the catalog itself, so it cannot collide with a real tool."""
    digest = hashlib.sha256("\0".join(sorted(names)).encode()).hexdigest()[:10]
    name = f"hm_no_such_tool_{digest}"
    while name in names:
        name += "_x"
    return name

