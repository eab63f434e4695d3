"""A replay judges exactly what the check judged: for every rule, the verdict of a replayed
reproduction equals the verdict of the check that found it.

Each case runs the engine on a real server with one bug, replays every failure it reports on a new
process of that server (it still fails), and replays the failures the bug causes on the correct
twin (they pass there), so the judgement is not true of any answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from helpers import ROOT, SERVE, error_shapes, grading, probe_bugs, problems, sample, shared_run, smoke_bugs, summary
from hypothesis_mcp.connection import Outcome, parse_target
from hypothesis_mcp.profiles import Profile
from hypothesis_mcp.replay import judge_last, replay
from hypothesis_mcp.results import Call, Reproduction, Result
from hypothesis_mcp.rules.registry import RULES


def verdict_bugs(bug: str | None = None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/verdict_bugs.py"), *(["--bug", bug] if bug else [])]


def raw_server(*modes: str) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/raw_server.py"), *modes]


@dataclass
class Case:
    name: str
    buggy: list[str]
    twin: list[str] | None
    rules: set[str]
    options: dict[str, Any] = field(default_factory=dict)
    profile: Profile | None = None


SMOKE = {"smoke": True, "call_all": True}
PROBES = {"probes": True, "allow_writes": True}
"""The sample cases are the runs of test_scorecard.py (helpers.sample_probes), kept once per session;
smoke findings are replayed by the smoke and verdict cases."""
CASES = [
    Case("sample-silent-skip", sample("silent-skip"), sample(), {"probe-silent-noop"}, PROBES),
    Case("sample-lose-on-write", sample("lose-on-write"), sample(), {"probe-data-lost"}, PROBES),
    Case("sample-limit-ignored", sample("limit-ignored"), sample(), {"probe-bound-exceeded"}, PROBES),
    # A tail read judged against the full read before it (the machine's Slice expectation).
    Case("probe-tail-off-by-one", probe_bugs("tail-off-by-one"), probe_bugs(), {"probe-bound-exceeded"}, PROBES,
         grading(max_examples=10)),
    Case("smoke-long-list", smoke_bugs("long-list"), smoke_bugs(), {"smoke_structured_content"}, SMOKE),
    Case("smoke-range-unchecked", smoke_bugs("range-unchecked"), smoke_bugs(),
         {"smoke_invalid_arguments", "edge-accepted-invalid-input"}, SMOKE),
    Case("verdict-params-on-valid", verdict_bugs("params-on-valid"), verdict_bugs(),
         {"happy-rejected-valid-input"}, SMOKE),
    Case("verdict-internal-on-invalid", verdict_bugs("internal-on-invalid"), verdict_bugs(),
         {"edge-internal-error"}, SMOKE),
    Case("verdict-unknown-as-result", verdict_bugs("unknown-as-result"), verdict_bugs(),
         {"smoke_unknown_tool"}, SMOKE),
    Case("error-shapes-json-error", error_shapes("json-error"), error_shapes(), {"error-as-success"}, SMOKE),
    Case("error-shapes-db-error", error_shapes("db-error"), error_shapes(), {"error-as-success"}, SMOKE),
    # Each crash, hang or stray answer costs a server start and waits; a shrink budget of about one
    # start keeps the run from waiting out many more (what is replayed need not be minimal). A hang
    # waits out the whole timeout: 1 s finds and replays the same incidents on the same calls as 2 s.
    Case("raw-incidents", raw_server("crashy", "hangy", "rpc-faults"), None,
         {"server-crashed", "call-timeout", "protocol-violation"}, {**SMOKE, "timeout": 1.0},
         replace(grading(), shrink_calls=60)),
]
NOT_COVERED = {
    "probe-write-not-observable": "replayed on its buggy server and its twin in test_probes.py (ghost-writes)",
    "probe-bound-short": "judged by the same expectations as probe-bound-exceeded; no test server has it",
    "probe-slice-mismatch": "judged by the same expectations as probe-bound-exceeded; no test server has it",
    "probe-value-changed": "replayed on tests/servers/effect_variety.py and its twin in test_probe_variety.py, and "
    "on typed_fields.py and gear_catalog.py and their twins in test_probe_fields.py",
    "probe-paths-disagree": "needs a declared agreement; replayed on two servers in test_probes.py",
    "probe-not-idempotent": "needs a declared idempotent call; its expectation is judged in test_probe_heuristics.py",
    "happy-output-schema": "the sample server's html export, replayed by every sample case here",
    "scenario-failed": "not reported by any check: a fix hint for older reports",
    "happy-tool-not-exercised": "an inconclusive result without a reproduction (no generated valid call "
    "succeeded); covered in test_crashes.py",
    "state-persists": "a warning about isolation with no reproduction: nothing to replay",
    "stdout-not-protocol": "a warning about the transport with no reproduction; test_stdout_hygiene.py",
    "read-missing-as-success": "replayed on tests/servers/missing_records.py (profiles) and its twin in "
    "test_missing_records.py",
    "resource-invalid-entry": "a listing's metadata: no request to replay",
    "resource-duplicate-uri": "a listing's metadata: no request to replay",
    "resource-missing-description": "a listing's metadata: no request to replay",
    "prompt-invalid-entry": "a listing's metadata: no request to replay",
    "prompt-duplicate-name": "a listing's metadata: no request to replay",
    "prompt-missing-description": "a listing's metadata: no request to replay",
    "prompt-undocumented-argument": "a listing's metadata: no request to replay",
    "resource-read-failed": "resources/read replays in test_resources_prompts.py (surface_bugs.py and its twin)",
    "resource-contents-invalid": "resources/read replays in test_resources_prompts.py (surface_bugs.py and its twin)",
    "resource-uri-mismatch": "resources/read replays in test_resources_prompts.py (surface_bugs.py and its twin)",
    "resource-mime-mismatch": "resources/read replays in test_resources_prompts.py (surface_bugs.py and its twin)",
    "resource-unknown-accepted": "resources/read replays in test_resources_prompts.py (surface_bugs.py and its twin)",
    "prompt-messages-invalid": "prompts/get replays in test_resources_prompts.py (surface_bugs.py and its twin)",
    "prompt-missing-argument-accepted": "prompts/get replays in test_resources_prompts.py (the sample server's bug)",
    "prompt-unknown-accepted": "prompts/get replays in test_resources_prompts.py (surface_bugs.py and its twin)",
    "refusal-nonstandard-code": "resources/read replays in test_protocol_refusals.py (refusal_codes.py and its twin)",
    "probe-pages-skip": "page walks replay in test_probe_pages.py (ledger_pages.py, bookmark_cursor.py and twins)",
    "probe-pages-repeat": "page walks replay in test_probe_pages.py (ledger_pages.py, bookmark_cursor.py and twins)",
    "probe-read-changed-state": "reads replay in test_probe_reads.py (read_effects.py stores and their twins)",
    "probe-refusal-changed-state": "refused writes replay in test_probe_laws.py (laws_store.py and its twin)",
    "probe-delete-kept": "deletes replay in test_probe_deletes.py (record_deletes.py stores and their twins)",
    "probe-delete-took-other": "deletes replay in test_probe_deletes.py (record_deletes.py stores and their twins)",
    "probe-delete-again-succeeded": "deletes replay in test_probe_deletes.py (record_deletes.py notes store)",
    "probe-rename-lost-fields": "moves replay in test_probe_renames.py (rename_stores.py and its twin)",
    "probe-rename-left-old": "moves replay in test_probe_renames.py (rename_stores.py and its twin)",
    "probe-identity-folded": "folds replay in test_probe_variants.py (identity_variants.py stores and their twins)",
    "probe-identity-prefix": "prefix matches replay in test_probe_variants.py (identity_variants.py stores and twins)",
    "probe-readers-disagree": "agreement replays in test_probe_agreeing.py (agreeing_stores.py and twins)",
    "probe-count-wrong": "agreement replays in test_probe_agreeing.py (agreeing_stores.py and twins)",
    "probe-overwrite-kept-old": "agreement replays in test_probe_agreeing.py (agreeing_stores.py and twins)",
    "probe-reference-dangling": "references replay in test_probe_laws_vault.py (seed_vault.py dangle, twin)",
}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_replayed_failure_fails_and_passes_on_the_twin(case: Case) -> None:
    timeout = case.options.get("timeout", 30.0)
    report = shared_run(case.buggy, case.profile, **case.options)  # the error-shapes runs: test_error_as_success.py
    replayed = [r for r in problems(report) if r.reproduction is not None and r.reproduction.calls]
    # A smoke check's failure carries the rule its search broke; the check's id names it too.
    found = {r.rule for r in replayed} | {r.check for r in replayed if r.kind == "smoke"}
    assert case.rules <= found, summary(report)
    for result in replayed:
        done = replay(result, parse_target(case.buggy), timeout=timeout)
        assert done.still_fails, f"{result.rule} on {result.tool}: {done.verdict}"
        if case.twin is not None and {result.rule, result.check} & case.rules:
            fixed = replay(result, parse_target(case.twin), timeout=timeout)
            assert not fixed.still_fails, f"{result.rule} on {result.tool} fails the twin too: {fixed.verdict}"


def test_every_rule_with_a_reproduction_is_replayed_here_or_named() -> None:
    covered = set().union(*(c.rules for c in CASES))
    rules = {rule.id for rule in RULES.values() if rule.kind != "lint"}
    assert rules - covered == set(NOT_COVERED)


def _outcome(**data: Any) -> Outcome:
    return Outcome(**{"kind": "result", "elapsed": 0.01, **data})


VALID_SEARCH = Result(kind="scenario", check="happy", tool="fetch_page", status="fail",
                      rule="happy-rejected-valid-input", message="",
                      reproduction=Reproduction([Call("fetch_page", {"number": 21})]))


def test_an_error_result_for_valid_arguments_is_no_failure_in_a_replay_either() -> None:
    """The valid-arguments search fails only an internal error or 'invalid params': an isError
    result may refuse a made-up value, and another JSON-RPC error is not called a failure there."""
    refused = _outcome(content=[{"type": "text", "text": "no page 21"}], is_error=True)
    assert judge_last(VALID_SEARCH, refused, None)[0] is False
    other = _outcome(kind="error", code=-32001, message="busy")
    assert judge_last(VALID_SEARCH, other, None)[0] is False
    assert judge_last(VALID_SEARCH, _outcome(kind="error", code=-32602, message="out of range"), None)[0]
    assert judge_last(VALID_SEARCH, _outcome(kind="error", code=-32603, message="boom"), None)[0]
