"""A JSON-RPC error refuses an unknown tool only when its code is a valid error code; an unknown
resource or prompt (or a missing prompt argument) refused with code 0 is still refused, and the
code is one warning per server (`refusal-nonstandard-code`), never "accepted":
tests/servers/raw_server.py answers them with code 0 under `zero-code`, and with the protocol's
codes in its correct twin; tests/servers/refusal_codes.py (the SDK's own server) does the same
under `--code-zero`."""

from __future__ import annotations

import pytest

from helpers import ROOT, SERVE, engine
from hypothesis_mcp.checks.resources import ResourceChecks
from hypothesis_mcp.connection import Connection, parse_target
from hypothesis_mcp.connection.outcome import valid_error_code
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import RESOURCES_READ, Call, Report, Reproduction, Result

CHECKS = {
    "smoke_unknown_tool": "smoke_unknown_tool",
    "smoke_unknown_resource": "resource-unknown-accepted",
    "smoke_unknown_prompt": "prompt-unknown-accepted",
    "smoke_prompt_missing_argument": "prompt-missing-argument-accepted",
}
REFUSALS = {"smoke_unknown_resource", "smoke_unknown_prompt", "smoke_prompt_missing_argument"}
NONSTANDARD = "refusal-nonstandard-code"


def raw(*modes: str) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/raw_server.py"), "surfaces", *modes]


def glossary(*flags: str) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/refusal_codes.py"), *flags]


@pytest.fixture(scope="module")
def zero_code() -> Report:
    return engine(raw("zero-code"), smoke=True)


@pytest.fixture(scope="module")
def twin() -> Report:
    return engine(raw(), smoke=True)


def verdicts(report: Report) -> dict[str, tuple[str, str | None]]:
    return {r.check: (r.status, r.rule) for r in report.results if r.check in CHECKS}


@pytest.fixture(scope="module")
def glossary_zero() -> Report:
    return engine(glossary("--code-zero"), smoke=True)


@pytest.fixture(scope="module")
def glossary_twin() -> Report:
    return engine(glossary(), smoke=True)


def problems(report: Report) -> list[Result]:
    return [r for r in report.results if r.status in ("fail", "warn")]


def test_code_zero_on_an_unknown_tool_is_no_refusal(zero_code: Report) -> None:
    [tool] = [r for r in zero_code.results if r.check == "smoke_unknown_tool"]
    assert (tool.status, tool.rule) == ("fail", "smoke_unknown_tool")
    assert "error code 0, which is not a valid error code" in tool.message


def test_code_zero_refusals_of_resources_and_prompts_are_one_warning(zero_code: Report) -> None:
    [warning] = [r for r in problems(zero_code) if r.check in REFUSALS]
    assert (warning.status, warning.rule, warning.confidence) == ("warn", NONSTANDARD, "high")
    assert {w["check"] for w in warning.details["where"]} == REFUSALS
    assert "refused with code 0; clients expect -32002" in warning.message
    assert "refused with code 0; clients expect -32602" in warning.message
    assert not zero_code.smoke.surfaces or all(c.get("verdict") != "fail" for c in zero_code.smoke.surfaces)


def test_the_twin_refusing_with_the_protocol_codes_passes(twin: Report) -> None:
    assert {check: status for check, (status, _) in verdicts(twin).items()} == dict.fromkeys(CHECKS, "pass")


def test_an_sdk_server_refusing_with_code_zero_draws_one_warning_and_passes_smoke(glossary_zero: Report) -> None:
    """The server's every refusal is code 0, as FastMCP 1.x answers: one warning, no acceptance,
    and `--smoke` passes (a warning is no smoke failure)."""
    [warning] = problems(glossary_zero)
    assert (warning.rule, warning.status, warning.subject) == (NONSTANDARD, "warn", "server"), warning
    assert [w["subject"] for w in warning.details["where"]] == ["server", "prompt explain", "server"]
    assert not glossary_zero.smoke.any_failed
    assert warning.reproduction is not None
    assert replay(warning, parse_target(glossary("--code-zero"))).still_fails
    assert not replay(warning, parse_target(glossary())).still_fails


def test_the_sdk_servers_twin_with_the_protocol_codes_draws_nothing(glossary_twin: Report) -> None:
    assert problems(glossary_twin) == []
    passed = {r.check for r in glossary_twin.results if r.status == "pass"}
    assert passed >= REFUSALS


@pytest.mark.parametrize(("code", "valid"), [
    (0, False), (None, False), (-32002, True), (-32602, True), (-32700, True), (-32000, True), (-32099, True),
    (-32100, False), (-32768, False), (-32650, False), (1, True), (-1, True), (404, True),
])
def test_which_codes_refuse(code: int | None, valid: bool) -> None:
    assert valid_error_code(code) is valid


def test_listed_resources_failing_alike_are_one_finding_with_the_count() -> None:
    """raw_server's `undecoded` never percent-decodes a shelf URI: the three shelves whose names
    need escaping fail alike, one cause, reported once; the twin reads every shelf."""
    with Connection(raw("undecoded")) as conn:
        found = ResourceChecks(conn, make_profile("grading")).run()
    failed = [r for r in found if r.status == "fail" and r.check == "smoke_resource_read"]
    assert [(r.rule, r.details["count"]) for r in failed] == [("resource-read-failed", 3)], failed
    assert sorted(failed[0].details["uris"]) == sorted(
        ["raw://shelf/Science%20Fiction", "raw://shelf/Art%20%26%20Design", "raw://shelf/Cookery%2FBaking"])
    assert failed[0].message.startswith("3 of 5 listed resources fail alike")
    assert failed[0].reproduction is not None and len(failed[0].reproduction.calls) == 1
    with Connection(raw()) as conn:
        twin = ResourceChecks(conn, make_profile("grading")).run()
    assert [r for r in twin if r.status in ("fail", "warn")] == []
    assert sum(r.check == "smoke_resource_read" and r.status == "pass" for r in twin) == 5


def _read_failed(uri: str) -> Result:
    return Result(kind="smoke", check="smoke_resource_read", tool=None, status="fail", rule="resource-read-failed",
                  message="a listed resource could not be read", confidence="medium",
                  reproduction=Reproduction([Call(uri, {}, RESOURCES_READ)], fresh_server=False),
                  details={"uri": uri})


def test_a_failing_read_replays_on_a_fresh_server_or_says_it_cannot() -> None:
    """A listed resource that fails on a fresh server too is confirmed; one a fresh server does not
    list (a record the run made) cannot be confirmed by a read alone, and the replay says so."""
    listed = replay(_read_failed("raw://shelf/Science%20Fiction"), parse_target(raw("undecoded")))
    assert listed.still_fails and not listed.unconfirmed, listed.verdict
    fixed = replay(_read_failed("raw://shelf/Science%20Fiction"), parse_target(raw()))
    assert not fixed.still_fails and not fixed.unconfirmed, fixed.verdict
    gone = replay(_read_failed("raw://shelf/Made%20During%20The%20Run"), parse_target(raw("undecoded")))
    assert not gone.still_fails and gone.unconfirmed
    assert gone.verdict.startswith("cannot confirm on a fresh server: it does not list raw://shelf/Made%20During")
