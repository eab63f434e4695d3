"""Prompts under `--smoke`: their metadata, prompts/get with generated arguments, a required
argument left out, and an unknown prompt name; the last two must be refused with a JSON-RPC error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from hypothesis_mcp.checks.surfaces import (
    MetadataRules,
    SurfaceChecks,
    list_entries,
    maker_of_values,
    nonstandard_result,
    one_per_cause,
    smoke_result,
    text_problem,
    unknown_name,
)
from hypothesis_mcp.checks.uritemplate import UNRESERVED
from hypothesis_mcp.connection import Outcome
from hypothesis_mcp.results import PROMPTS_GET, Call, Check, Result, RuleId
from hypothesis_mcp.rules.expectations import Finding
from hypothesis_mcp.rules.surfaces import (
    INVALID_PARAMS,
    MISSING_ACCEPTED,
    incident,
    messages_problem,
    nonstandard,
    refused,
)
from hypothesis_mcp.rules.surfaces import PROMPT_UNKNOWN_ACCEPTED as UNKNOWN_ACCEPTED
from hypothesis_mcp.search.driver import hunt
from hypothesis_mcp.search.saved import digest

METADATA: Check = "smoke_prompt_metadata"
GET: Check = "smoke_prompt_get"
MISSING: Check = "smoke_prompt_missing_argument"
UNKNOWN: Check = "smoke_unknown_prompt"
INVALID_ENTRY: RuleId = "prompt-invalid-entry"
DUPLICATE: RuleId = "prompt-duplicate-name"
NO_DESCRIPTION: RuleId = "prompt-missing-description"
RULES = MetadataRules(INVALID_ENTRY, DUPLICATE, NO_DESCRIPTION)
UNDOCUMENTED: RuleId = "prompt-undocumented-argument"
BASIS: dict[Check, str] = {
    METADATA: "MCP Prompts §Data Types: a prompt has a name; its arguments have names and a required flag",
    GET: "MCP Prompts §Getting a Prompt: the result is a list of messages, each a role and a content block",
    MISSING: "MCP Prompts §Error Handling: missing required arguments SHOULD be a JSON-RPC error (-32602)",
    UNKNOWN: "MCP Prompts §Error Handling: an invalid prompt name SHOULD be a JSON-RPC error (-32602)",
}


def _arguments(prompt: dict[str, Any]) -> list[dict[str, Any]]:
    listed = prompt.get("arguments")
    return [a for a in listed if isinstance(a, dict) and isinstance(a.get("name"), str)] \
        if isinstance(listed, list) else []


def argument_values(prompt: dict[str, Any]) -> st.SearchStrategy[dict[str, str]]:
    """Every required argument, and any of the optional ones, as strings (prompt arguments are text)."""
    value = st.one_of(st.text(alphabet=UNRESERVED, min_size=1, max_size=12),
                      st.integers(min_value=0, max_value=10 ** 4).map(str),
                      st.text(min_size=1, max_size=12))
    required = {a["name"]: value for a in _arguments(prompt) if a.get("required") is True}
    optional = {a["name"]: value for a in _arguments(prompt) if a.get("required") is not True}
    return st.fixed_dictionaries(required, optional=optional)


@dataclass
class PromptChecks(SurfaceChecks):
    """Prompts: their metadata, answers to generated arguments, and refusals of what is missing or unknown."""

    def run(self) -> list[Result]:
        if self.unreachable(METADATA, BASIS[METADATA]):
            return self.results
        listing = list_entries(self.conn, "prompts/list")
        if listing.absent:
            self.add(smoke_result(METADATA, None, "skip", "the server offers no prompts",
                                             basis=BASIS[METADATA]))
            return self.results
        if listing.broken is not None:
            broke = incident(listing.broken)
            self.add(smoke_result(METADATA, None, "fail", f"prompts/list failed: {listing.broken.summary()}",
                                             rule=broke.rule if broke else INVALID_ENTRY, basis=BASIS[METADATA]))
            return self.results
        self.metadata(listing.entries)
        answers: list[Result] = []
        refusals: list[Result] = []
        for prompt in listing.entries:
            if self.stop():
                break
            if isinstance(prompt.get("name"), str):
                answer, accepted = self.get(prompt)
                answers.append(answer)
                if (refusal := self.missing(prompt, accepted)) is not None:
                    refusals.append(refusal)
        for result in [*one_per_cause(answers, "prompts"), *one_per_cause(refusals, "prompts")]:
            self.add(result)
        if not self.stop():
            self.unknown({str(p.get("name")) for p in listing.entries})
        return self.results

    def metadata(self, prompts: list[dict[str, Any]]) -> None:
        found = 0
        seen: set[str] = set()
        for prompt in prompts:
            subject = f"prompt {prompt.get('name', '?')}"
            problems = [p for p in (text_problem(prompt, "name", required=True),) if p]
            listed = prompt.get("arguments")
            if listed is not None and not isinstance(listed, list):
                problems.append("arguments is not a list")
            names: list[str] = []
            undocumented: list[str] = []
            for index, argument in enumerate(listed if isinstance(listed, list) else []):
                if not isinstance(argument, dict) or text_problem(argument, "name", required=True):
                    problems.append(f"arguments[{index}] has no name")
                    continue
                if "required" in argument and not isinstance(argument["required"], bool):
                    problems.append(f"argument {argument['name']}: required is not a boolean")
                if argument["name"] in names:
                    problems.append(f"argument {argument['name']} is listed twice")
                names.append(argument["name"])
                described = argument.get("description")
                if not isinstance(described, str) or not described.strip():
                    undocumented.append(argument["name"])
            found += self.entry_metadata(RULES, subject, prompt, problems, ("name", prompt.get("name")), seen,
                                         check=METADATA, basis=BASIS[METADATA])
            if undocumented:
                found += 1
                self.add(smoke_result(METADATA, subject, "warn", "argument(s) without a description: "
                                                 + ", ".join(undocumented), rule=UNDOCUMENTED, basis=BASIS[METADATA]))
        if not found:
            self.add(smoke_result(METADATA, None, "pass", f"{len(prompts)} prompt(s) have a name, a "
                                             "description and named, documented arguments", basis=BASIS[METADATA]))

    def get(self, prompt: dict[str, Any]) -> tuple[Result, dict[str, str] | None]:
        """The prompt's answers to generated arguments, judged, with the first set it accepted; the
        caller groups prompts failing alike."""
        name = prompt["name"]
        subject = f"prompt {name}"
        answered: list[dict[str, str]] = []
        refusals: list[Outcome] = []

        def prop(arguments: dict[str, str]) -> Finding | None:
            outcome = self.conn.get_prompt(name, arguments)
            if (found := incident(outcome)) is not None:
                return found
            if not outcome.ok:
                refusals.append(outcome.slim())
                return None
            answered.append(arguments)
            return messages_problem(outcome)

        done = hunt(argument_values(prompt), prop, self.profile, examples=self.profile.examples,
                    cost=lambda: self.conn.stats.calls, stop=self.stop,
                    scope=("prompt", name, digest(prompt.get("arguments") or [])))
        accepted = answered[0] if answered else None
        if done.finding is not None and done.value is not None:
            return smoke_result(
                GET, subject, "fail", done.finding.message, rule=done.finding.rule, basis=BASIS[GET],
                call=Call(name, done.value, PROMPTS_GET), details={**done.finding.details, "arguments": done.value},
                made_by=maker_of_values(self.conn.transcript, list(done.value.values()))), accepted
        if not answered:
            return smoke_result(
                GET, subject, "skip", f"every one of {len(refusals)} generated argument set(s) was refused: the "
                "prompt may need real values", basis=BASIS[GET],
                details={"returned": refusals[-1].summary()} if refusals else {}), accepted
        return smoke_result(
            GET, subject, "pass", f"{len(answered)} generated argument set(s) answered with valid messages "
            f"({len(refusals)} refused)", basis=BASIS[GET]), accepted

    def missing(self, prompt: dict[str, Any], accepted: dict[str, str] | None) -> Result | None:
        """Leave out the first required argument of a set the prompt accepted (or of plain values)."""
        required = [a["name"] for a in _arguments(prompt) if a.get("required") is True]
        if not required:
            return None
        name = prompt["name"]
        base = accepted or {a: "hypothesis" for a in required}
        arguments = {k: v for k, v in base.items() if k != required[0]}
        outcome = self.conn.get_prompt(name, arguments)
        details = {"left_out": required[0], "arguments": arguments, "returned": outcome.summary()}
        call = Call(name, arguments, PROMPTS_GET)
        made = maker_of_values(self.conn.transcript, list(arguments.values()))
        if (why := nonstandard(outcome, INVALID_PARAMS, internal=False)) is not None:
            return nonstandard_result(MISSING, f"prompt {name}", f"a missing argument: {why}", basis=BASIS[MISSING],
                                      call=call, details={**details, "code": outcome.code, "expected": INVALID_PARAMS},
                                      made_by=made)
        if refused(outcome):
            return smoke_result(MISSING, f"prompt {name}", "pass", f"leaving out {required[0]} was rejected with "
                                f"JSON-RPC error {outcome.code}", basis=BASIS[MISSING], details=details)
        if (found := incident(outcome)) is not None:
            return smoke_result(MISSING, f"prompt {name}", "fail", found.message, rule=found.rule,
                                basis=BASIS[MISSING], call=call, details=details, made_by=made)
        return smoke_result(
            MISSING, f"prompt {name}", "fail", f"answered without its required argument "
            f"{required[0]} instead of a JSON-RPC error", rule=MISSING_ACCEPTED, confidence="medium",
            basis=BASIS[MISSING], call=call, details=details, made_by=made)

    def unknown(self, names: set[str]) -> None:
        name = unknown_name(names, "hm_no_such_prompt_")
        outcome = self.conn.get_prompt(name, {})
        details = {"prompt_name_called": name, "returned": outcome.summary()}
        call = Call(name, {}, PROMPTS_GET)
        self.judge_unknown(outcome, call, details, check=UNKNOWN, basis=BASIS[UNKNOWN], accepted_rule=UNKNOWN_ACCEPTED,
                           accepted="answered a request for a nonexistent prompt instead of a JSON-RPC error",
                           what="an unknown prompt", expected=INVALID_PARAMS, internal=False)
