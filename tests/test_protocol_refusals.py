"""A JSON-RPC error refuses an unknown tool, resource or prompt (or a missing prompt argument) only
when its code is a valid error code: tests/servers/raw_server.py answers them with code 0 under
`zero-code`, and with the protocol's codes in its correct twin."""

from __future__ import annotations

import pytest

from helpers import PYTHON, ROOT, engine
from hypothesis_mcp.connection.outcome import valid_error_code
from hypothesis_mcp.results import Report

CHECKS = {
    "smoke_unknown_tool": "smoke_unknown_tool",
    "smoke_unknown_resource": "resource-unknown-accepted",
    "smoke_unknown_prompt": "prompt-unknown-accepted",
    "smoke_prompt_missing_argument": "prompt-missing-argument-accepted",
}


def raw(*modes: str) -> list[str]:
    return [PYTHON, str(ROOT / "tests/servers/raw_server.py"), "surfaces", *modes]


@pytest.fixture(scope="module")
def zero_code() -> Report:
    return engine(raw("zero-code"), smoke=True)


@pytest.fixture(scope="module")
def twin() -> Report:
    return engine(raw(), smoke=True)


def verdicts(report: Report) -> dict[str, tuple[str, str | None]]:
    return {r.check: (r.status, r.rule) for r in report.results if r.check in CHECKS}


def test_code_zero_is_no_refusal(zero_code: Report) -> None:
    found = verdicts(zero_code)
    assert found == {check: ("fail", rule) for check, rule in CHECKS.items()}
    for result in zero_code.results:
        if result.check in CHECKS:
            assert "error code 0, which is not a valid error code" in result.message


def test_the_twin_refusing_with_the_protocol_codes_passes(twin: Report) -> None:
    assert {check: status for check, (status, _) in verdicts(twin).items()} == dict.fromkeys(CHECKS, "pass")


@pytest.mark.parametrize(("code", "valid"), [
    (0, False), (None, False), (-32002, True), (-32602, True), (-32700, True), (-32000, True), (-32099, True),
    (-32100, False), (-32768, False), (-32650, False), (1, True), (-1, True), (404, True),
])
def test_which_codes_refuse(code: int | None, valid: bool) -> None:
    assert valid_error_code(code) is valid
