"""Resources and prompts under --smoke: each bug of tests/servers/surface_bugs.py is found with its
rule, status and confidence and shrunk to one replayable request; the correct twin, the sample
server and server-everything's right parts pass."""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, engine, http_server, sample, sample_probes, sample_smoked
from hypothesis_mcp.checks.prompts import PromptChecks
from hypothesis_mcp.checks.resources import ResourceChecks
from hypothesis_mcp.checks.uritemplate import parse
from hypothesis_mcp.connection import Connection, parse_target
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Reproduction, Result
from public_servers import npm_server


def library(bug: str | None = None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/surface_bugs.py"), *(["--bug", bug] if bug else [])]


def surface_results(argv: list[str] | str) -> list[Result]:
    with Connection(argv) as conn:
        profile = make_profile("grading")
        return [*ResourceChecks(conn, profile).run(), *PromptChecks(conn, profile).run()]


def not_passed(found: list[Result]) -> set[tuple[str, str, str, str, str]]:
    return {(r.check, r.rule, r.status, r.confidence, r.subject) for r in found if r.status in ("fail", "warn")}


BUGS = {
    "decoded-uri": ("smoke_resource_template", "resource-uri-mismatch", "fail", "high",
                    "template library://books/{isbn}"),
    "bad-blob": ("smoke_resource_read", "resource-contents-invalid", "fail", "high", "resource library://catalog"),
    "mime-lies": ("smoke_resource_read", "resource-mime-mismatch", "warn", "high", "resource library://catalog"),
    "unknown-resource-ok": ("smoke_unknown_resource", "resource-unknown-accepted", "fail", "high", "server"),
    "system-role": ("smoke_prompt_get", "prompt-messages-invalid", "fail", "high", "prompt recommend"),
    "unknown-prompt-ok": ("smoke_unknown_prompt", "prompt-unknown-accepted", "fail", "high", "server"),
}


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_each_bug_is_found_and_its_reproduction_replays(bug: str) -> None:
    found = surface_results(library(bug))
    assert not_passed(found) == {BUGS[bug]}
    [failure] = [r for r in found if r.status in ("fail", "warn")]
    assert failure.reproduction is not None and len(failure.reproduction.calls) == 1
    again = Result.from_dict(failure.to_dict())
    assert again.reproduction == failure.reproduction
    assert replay(again, parse_target(library(bug))).still_fails
    assert not replay(again, parse_target(library())).still_fails


def test_the_correct_twin_passes_every_check() -> None:
    found = surface_results(library())
    assert not not_passed(found)
    assert {r.check for r in found if r.status == "pass"} == {
        "smoke_resource_metadata", "smoke_resource_read", "smoke_resource_template", "smoke_unknown_resource",
        "smoke_prompt_metadata", "smoke_prompt_get", "smoke_prompt_missing_argument", "smoke_unknown_prompt"}


def test_shrinking_finds_the_smallest_value_that_needs_escaping() -> None:
    [failure] = [r for r in surface_results(library("decoded-uri")) if r.status == "fail"]
    assert failure.reproduction is not None
    uri = failure.reproduction.calls[0].tool
    assert uri.startswith("library://books/%") and len(uri) == len("library://books/%XX"), uri


def test_sample_server_resources_and_prompts_pass_over_http() -> None:
    with http_server(sample()) as url:
        report = engine(url, smoke=True, max_time=None)
    surfaces = report.smoke.surfaces
    assert report.smoke.surface_summary() == {"passed": 8, "failed": 0, "warned": 0, "skipped": 0}, surfaces


def test_sample_prompt_flaw_is_a_medium_confidence_failure_that_fails_smoke() -> None:
    report = sample_smoked("prompt-default-arg")  # with probes: the runs test_draws_stable.py compares
    assert not_passed([r for r in report.results if r.kind == "smoke" and r.tool is None]) == {
        ("smoke_prompt_missing_argument", "prompt-missing-argument-accepted", "fail", "medium",
         "prompt summarize_note")}
    assert report.smoke.any_failed and report.smoke.failed == 0
    clean = sample_probes()  # the correct server's kept run: --smoke moves no score either
    assert (report.score, report.subscores) == (clean.score, clean.subscores)


def test_a_reproduction_without_method_is_a_tool_call() -> None:
    old = Reproduction.from_dict({"calls": [{"tool": "echo", "arguments": {"text": "x"}}]})
    assert old.calls[0].method == "tools/call" and old.to_dict()["calls"] == [{"tool": "echo",
                                                                               "arguments": {"text": "x"}}]


@pytest.mark.parametrize(("template", "chosen", "expanded"), [
    ("demo://text/{id}", {"id": "a b/c"}, "demo://text/a%20b%2Fc"),
    ("file:///{+path}", {"path": "a/b c"}, "file:///a/b%20c"),
    ("x://y{#frag}", {"frag": "p q"}, "x://y#p%20q"),
    ("x://y/{a}/{+b}", {"a": "é"}, "x://y/%C3%A9/"),
])
def test_level_1_and_2_expansion(template: str, chosen: dict[str, str], expanded: str) -> None:
    parsed = parse(template)
    assert parsed.level <= 2 and parsed.expand(chosen) == expanded and parsed.matches(expanded)


def test_everything_server_resources_and_prompts() -> None:
    """docs/real-servers.md explains each verdict."""
    found = surface_results(npm_server("server-everything", "2026.8.31"))
    assert not_passed(found) == {
        ("smoke_resource_template", "resource-mime-mismatch", "warn", "high",
         "template demo://resource/dynamic/blob/{resourceId}"),
        ("smoke_prompt_metadata", "prompt-undocumented-argument", "warn", "high", "prompt args-prompt"),
    }
    skipped = {r.subject for r in found if r.status == "skip"}
    assert skipped == {"prompt resource-prompt"}
    assert sum(r.check == "smoke_resource_read" and r.status == "pass" for r in found) == 7
