"""Progress on stderr (live on a terminal, one line per finished tool or check elsewhere; nothing
with --quiet, asserted in test_ci_trust.py) and project defaults from pyproject.toml or
hypothesis-mcp.toml (flags win)."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import time
from pathlib import Path

from helpers import cli, cli_command, command_line, sample

SMALL = ["--max-examples", "3", "--smoke"]


def test_off_a_terminal_a_line_per_stage_and_per_tool_with_verbose(tmp_path: Path) -> None:
    done, verbose = cli(["test", command_line(sample()), *SMALL], tmp_path), \
        cli(["test", command_line(sample()), *SMALL, "--verbose"], tmp_path)
    assert done.code == verbose.code == 1, done  # the html export's broken output blocks
    lines = [line for line in done.stderr.splitlines() if line.startswith("[")]
    # export_notes breaks its output schema (docs/sample-server.md): its line, then the stage's count.
    searches = [line for line in lines if line.startswith("[searches]")]
    assert len(searches) == 2, lines
    assert re.match(r"\[searches\] export_notes: \d+ examples · \d+ calls · 1 failure, [\d.]+s$", searches[0])
    assert re.match(r"\[searches\] 6 done, 1 shown above: \d+ examples · \d+ calls · 1 failure, [\d.]+s$",
                    searches[1])
    assert any(line.startswith("[resources and prompts] 8 done:") for line in lines), lines
    every = [line for line in verbose.stderr.splitlines() if line.startswith("[")]
    searched = {m.group(1) for line in every if (m := re.match(r"\[searches\] (\w+): \d+ examples · \d+ calls · "
                                                                r"\d+ failures?, [\d.]+s$", line))}
    assert searched == {"create_note", "get_note", "list_notes", "list_tags", "search_notes", "export_notes"}
    surfaces = [line for line in every if line.startswith("[resources and prompts]") and " done" not in line]
    assert any(line.startswith("[resources and prompts] smoke_prompt_get on prompt summarize_note pass:")
               for line in surfaces), every
    named = [m.group(1) for line in surfaces if (m := re.match(r"\[resources and prompts\] (smoke_\w+) on ", line))]
    assert len(named) == len(surfaces), "each line names its check and what it is about"
    assert {"smoke_resource_metadata", "smoke_unknown_resource", "smoke_prompt_metadata"} <= set(named), surfaces
    assert done.stdout.splitlines()[0].startswith("MCP Scorecard: ")  # the report itself is on stdout


def test_on_a_terminal_a_live_display_per_phase(tmp_path: Path) -> None:
    """Run in a pseudo-terminal: the display names the phase and the tool, counts and elapsed time."""
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "160", "LINES": "50", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([*cli_command(), "test", command_line(sample()), *SMALL], stdin=follower,
                            stdout=follower, stderr=follower, cwd=tmp_path, env=env, close_fds=True)
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    proc.wait(timeout=30)
    os.close(leader)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.decode("utf-8", "replace"))
    assert proc.returncode == 1, text[-3000:]  # the sample server's html export blocks
    assert re.search(r"searches: \w+", text), text[-3000:]
    assert re.search(r"\d+ examples · \d+ calls · \d+ failures", text)
    assert re.search(r"\d:\d\d:\d\d", text)  # elapsed time
    assert "resources and prompts" in text and "Grade" in text


def test_project_defaults_apply_and_flags_win(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(f"""
[project]
name = "my-server"

[tool.hypothesis-mcp]
target = {json.dumps(command_line(sample("silent-skip")))}
profile = "grading"
max-examples = 3
smoke = true
fail-under = "A"
ignore = ["lint-missing-description"]

[tool.hypothesis-mcp.outputs]
json = "report.json"
sarif = "report.sarif"
""", encoding="utf-8")
    done = cli(["test"], tmp_path)
    assert done.code == 3, done  # B is below the file's fail-under A
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["profile"] == "grading" and report["smoke"]["executed"]
    assert (tmp_path / "report.sarif").is_file()
    assert "defaults from" in done.stderr and "pyproject.toml [tool.hypothesis-mcp]" in done.stderr
    assert "--fail-under A" in done.stderr and "--json report.json" in done.stderr and "PosixPath" not in done.stderr
    assert [(w["rule"], w["source"]) for w in report["waivers"]] == [("lint-missing-description", "--ignore")]
    flagged = cli(["test", "--fail-under", "C", "--profile", "default", "--seed", "1"], tmp_path)
    assert flagged.code == 1, flagged  # C passes --fail-under C; the html export still blocks
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["profile"] == "default"
    assert "fail-under=" not in flagged.stderr


def test_own_file_and_unknown_keys(tmp_path: Path) -> None:
    (tmp_path / "hypothesis-mcp.toml").write_text('target = "x"\nbogus-key = 1\n', encoding="utf-8")
    done = cli(["test"], tmp_path)
    assert done.code == 2 and "unknown key(s) bogus-key" in done.stderr, done
    (tmp_path / "hypothesis-mcp.toml").write_text(f"config = {json.dumps(str(tmp_path / 'mcp.json'))}\n"
                                                  'server = "notes"\n', encoding="utf-8")
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": {"notes": {"command": sample()[0],
                                                                           "args": sample()[1:]}}}))
    done = cli(["tools", "--json"], tmp_path)
    assert done.code == 0 and "create_note" in done.stdout, done
