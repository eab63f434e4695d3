"""--config: a client config file names the server, and the run is the run of the equivalent
command or URL (the reports agree apart from the duration and the target text)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import SERVE, Cli, cli, command_line, http_server, sample
from hypothesis_mcp.clientconfig import target_from_config
from hypothesis_mcp.errors import UsageError

GRADING = ["--profile", "grading", "--max-examples", "5", "--smoke"]
LAUNCHER = SERVE[1]
"""The config's python starts the sample server through the suite's zygote (tests/zygote.py), as
`sample()` does, rather than importing the SDK again: `python LAUNCHER -m MODULE` is `python -m MODULE`."""


def comparable(report: dict[str, Any]) -> dict[str, Any]:
    copy = json.loads(json.dumps(report))
    copy["stats"].pop("duration_s", None)
    copy.pop("target")
    copy.pop("server_env", None)  # the names of what the config's `env` sets; the command sets none
    return copy


def desktop_form(url: str) -> dict[str, Any]:
    return {"mcpServers": {
        "notes": {"command": sys.executable,
                  "args": [LAUNCHER, "-m", "hypothesis_mcp.sample_server", "--bug", "${env:NOTES_BUG}"],
                  "env": {"NOTES_TOKEN": "${NOTES_SECRET}"}},
        "notes-http": {"url": url.replace("127.0.0.1", "${env:NOTES_HOST}"), "headers": {"X-Notes": "${NOTES_SECRET}"}},
    }}


def vscode_form(url: str) -> str:
    """The editor's form, with the comments and trailing commas its files may hold."""
    return f"""{{
  // servers for this workspace
  "servers": {{
    "notes": {{"type": "stdio", "command": {json.dumps(sys.executable)},
               "args": [{json.dumps(LAUNCHER)}, "-m", "hypothesis_mcp.sample_server", "--bug", "${{env:NOTES_BUG}}"],}},
    /* the same server over HTTP */
    "notes-http": {{"type": "http", "url": {json.dumps(url.replace("127.0.0.1", "${NOTES_HOST}"))}}},
  }},
}}"""


ENV = {"NOTES_BUG": "silent-skip", "NOTES_HOST": "127.0.0.1", "NOTES_SECRET": "s3cr3t-value"}


@pytest.mark.parametrize("form", ["desktop", "vscode"])
def test_config_runs_exactly_as_the_command_and_the_url(form: str, tmp_path: Path) -> None:
    # Two HTTP servers of their own, so neither run sees what the other wrote.
    with http_server(sample("silent-skip")) as url, http_server(sample("silent-skip")) as config_url:
        folder = tmp_path / (".vscode" if form == "vscode" else "desktop")
        folder.mkdir()
        config = folder / ("mcp.json" if form == "vscode" else "claude_desktop_config.json")
        config.write_text(vscode_form(config_url) if form == "vscode" else json.dumps(desktop_form(config_url)),
                          encoding="utf-8")
        runs = [Cli(["test", command_line(sample("silent-skip")), *GRADING], tmp_path, json_report=True, env=ENV),
                Cli(["test", "--config", str(config), "--server", "notes", *GRADING], tmp_path, json_report=True,
                    env=ENV),
                Cli(["test", url, *GRADING], tmp_path, json_report=True, env=ENV),
                Cli(["test", "--config", str(config), "--server", "notes-http", *GRADING], tmp_path,
                    json_report=True, env=ENV)]
        by_command, by_config, by_url, by_config_url = (run.wait() for run in runs)
    assert by_command.code == by_config.code == 1, f"{by_command}\n{by_config}"  # the html export blocks
    assert by_command.report and by_config.report and by_url.report and by_config_url.report
    assert comparable(by_config.report) == comparable(by_command.report)
    if form == "desktop":
        assert by_config.report["server_env"] == ["NOTES_TOKEN"] and by_command.report["server_env"] == []
    assert by_url.code == by_config_url.code == 1, f"{by_url}\n{by_config_url}"
    assert comparable(by_config_url.report) == comparable(by_url.report)
    for run in (by_config, by_config_url):
        assert "s3cr3t-value" not in run.stdout + run.stderr + json.dumps(run.report)
    assert "${env:NOTES_BUG}" in by_config.report["target"]


def test_several_servers_and_no_name_exit_2_listing_them(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps(desktop_form("http://127.0.0.1:1/mcp")), encoding="utf-8")
    done = cli(["test", "--config", str(config)], tmp_path)
    assert done.code == 2 and "notes, notes-http" in done.stderr, done
    done = cli(["tools", "--config", str(config), "--server", "nope"], tmp_path)
    assert done.code == 2 and "no server 'nope'" in done.stderr, done


def test_one_server_needs_no_name_and_tools_reads_it(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"only": {"command": sys.executable,
                                                          "args": ["-m", "hypothesis_mcp.sample_server"]}}}))
    done = cli(["tools", "--config", str(config), "--json"], tmp_path)
    assert done.code == 0, done
    assert "create_note" in {t["name"] for t in json.loads(done.stdout)["tools"]}


@pytest.mark.parametrize(("entry", "message"), [
    ({"command": "x", "args": ["${env:HM_UNSET_VARIABLE}"]}, "HM_UNSET_VARIABLE is not set"),
    ({"url": "http://h/${input:token}"}, "${input:token}"),
    ({"type": "sse", "url": "http://h/sse"}, "SSE transport is not supported"),
    ({"args": ["x"]}, "neither a command nor a url"),
])
def test_bad_entries_are_clear_usage_errors(entry: dict[str, Any], message: str, tmp_path: Path) -> None:
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"mcpServers": {"s": entry}}))
    with pytest.raises(UsageError, match=message.replace("$", r"\$").replace("{", r"\{")):
        target_from_config(config, environ={})


def test_placeholders_expand_but_describe_keeps_them(tmp_path: Path) -> None:
    config = tmp_path / ".vscode" / "mcp.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"servers": {"s": {"command": "node", "args": ["${workspaceFolder}/srv.js",
                                                                                "--key=${env:K}"],
                                                    "env": {"TOKEN": "${K}"}}}}))
    target = target_from_config(config, environ={"K": "hidden"})
    assert target.command == ("node", f"{tmp_path.resolve()}/srv.js", "--key=hidden")
    assert target.env == {"TOKEN": "hidden"}
    assert "hidden" not in target.describe()


def test_replay_takes_the_server_from_the_config(tmp_path: Path) -> None:
    """A report from a config run has the placeholders in its target; replay gets the server again
    from --config, with the environment filled in."""
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"notes": {
        "command": sys.executable, "args": [LAUNCHER, "-m", "hypothesis_mcp.sample_server", "--bug",
                                            "${env:NOTES_BUG}"]}}}))
    env = {"NOTES_BUG": "prompt-default-arg"}
    done = cli(["test", "--config", str(config), "--max-examples", "3", "--smoke"], tmp_path, json_report=True, env=env)
    assert done.code == 4 and done.report is not None, done
    [failure] = done.results(rule="prompt-missing-argument-accepted")
    again = cli(["replay", str(next(tmp_path.glob("report-*.json"))), "--result", failure["id"], "--config",
                 str(config)], tmp_path, env=env)
    assert again.code == 1 and "prompts/get summarize_note({})" in again.stdout and "still fails" in again.stdout, again
    fixed = cli(["replay", str(next(tmp_path.glob("report-*.json"))), "--result", failure["id"], "--config",
                 str(config)], tmp_path, env={"NOTES_BUG": "silent-skip"})
    assert fixed.code == 0 and "now passes" in fixed.stdout, fixed
