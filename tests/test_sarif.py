"""--sarif: the file validates against the official SARIF 2.1.0 schema (installed from a registry
package by scripts/install-npm-servers) and carries one rule per rule id and one result per
failure or warning, with the reproduction in the message and as a property."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft4Validator

from helpers import PYTHON, ROOT, cli, command_line, sample

SCHEMA = ROOT / ".cache" / "sarif-schema" / "sarif-2.1.0.json"


def validate(log: dict[str, Any]) -> None:
    if not SCHEMA.is_file():
        pytest.skip("the SARIF 2.1.0 schema is not installed: run scripts/install-npm-servers")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert "2.1.0" in schema["title"]
    errors = sorted(Draft4Validator(schema).iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


@pytest.fixture(scope="module")
def sarif_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    """One grading run of the sample server with a prompt flaw, from the repository root so the
    `-m` module is found as the location. Started as a user would (`python -m ...`), not through
    the suite's zygote launcher, whose file would be the first source on the command line."""
    folder = tmp_path_factory.mktemp("sarif")
    out, report = folder / "report.sarif", folder / "report.json"
    server = [PYTHON, "-m", "hypothesis_mcp.sample_server", "--bug", "prompt-default-arg"]
    done = cli(["test", command_line(server), "--profile", "grading", "--max-examples", "5",
                "--smoke", "--sarif", str(out), "--json", str(report)], ROOT)
    assert done.code == 4 and report.is_file(), done
    return json.loads(out.read_text(encoding="utf-8")), json.loads(report.read_text(encoding="utf-8"))


def test_sarif_validates_against_the_official_schema(sarif_run: tuple[dict[str, Any], dict[str, Any]]) -> None:
    log, _ = sarif_run
    validate(log)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1


def test_one_rule_per_rule_id_and_one_result_per_failure_or_warning(
        sarif_run: tuple[dict[str, Any], dict[str, Any]]) -> None:
    log, report = sarif_run
    run = log["runs"][0]
    reported = [r for r in report["results"] if r["status"] in ("fail", "warn")]
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert sorted(rules) == sorted({r["rule"] for r in reported}) and len(rules) == len(set(rules))
    assert all(rule["help"]["text"] for rule in run["tool"]["driver"]["rules"])
    assert [r["ruleId"] for r in run["results"]] == [r["rule"] for r in reported]
    for entry, result in zip(run["results"], reported, strict=True):
        assert rules[entry["ruleIndex"]] == result["rule"]
        assert entry["properties"]["resultId"] == result["id"]
        assert entry["properties"]["reproduction"] == result["reproduction"]
        expected = {"high": "error", "medium": "warning", "low": "note"}[result["confidence"]]
        assert entry["level"] == ("warning" if result["status"] == "warn" and expected == "error" else expected)
        assert entry["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == \
            "src/hypothesis_mcp/sample_server.py"


def test_the_prompt_flaw_is_a_result_with_its_reproduction(sarif_run: tuple[dict[str, Any], dict[str, Any]]) -> None:
    log, _ = sarif_run
    [entry] = [r for r in log["runs"][0]["results"] if r["ruleId"] == "prompt-missing-argument-accepted"]
    assert entry["level"] == "warning"  # medium confidence: the protocol says SHOULD
    assert "call 1: prompts/get summarize_note({})" in entry["message"]["text"]
    assert entry["properties"]["reproduction"]["calls"] == [
        {"method": "prompts/get", "prompt": "summarize_note", "arguments": {}}]


def test_a_config_target_points_at_the_servers_line(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"other": {"command": "x"}, "notes": {
        "command": sample()[0], "args": sample("silent-skip")[1:]}}}, indent=2), encoding="utf-8")
    out = tmp_path / "out.sarif"
    done = cli(["test", "--config", str(config), "--server", "notes", "--max-examples", "3", "--sarif", str(out)],
               tmp_path)
    assert done.code == 1, done  # the html export's broken output blocks; the SARIF is written all the same
    log = json.loads(out.read_text(encoding="utf-8"))
    validate(log)
    line = next(i for i, text in enumerate(config.read_text().splitlines(), 1) if '"notes"' in text)
    for entry in log["runs"][0]["results"]:
        location = entry["locations"][0]["physicalLocation"]
        assert location == {"artifactLocation": {"uri": "mcp.json"}, "region": {"startLine": line}}
