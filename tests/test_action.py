"""The GitHub action and the example workflow: the action's script runs the CLI and sets its
outputs; the workflow uses only options the CLI has.

The action's install step (pip install from PyPI) is not run: the script runs against this venv.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import yaml

from helpers import ROOT, cli_command, command_line, sample

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
WORKFLOW = yaml.safe_load((ROOT / "examples" / "github-workflow" / "mcp-grade.yml").read_text(encoding="utf-8"))


def _script(inputs: dict[str, str]) -> str:
    step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "run")
    return re.sub(r"\$\{\{ inputs\.([\w-]+) \}\}", lambda m: inputs[m.group(1)], step["run"])


def test_action_runs_the_cli_and_sets_grade_and_score(tmp_path: Path) -> None:
    assert set(ACTION["inputs"]) >= {"target", "args", "fail-under"}
    outputs = tmp_path / "github-output"
    script = _script({"target": command_line(sample()), "args": "--max-examples 5", "fail-under": "A"})
    env = {**os.environ, "GITHUB_OUTPUT": str(outputs),
           "PATH": f"{Path(cli_command()[0]).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 3, f"--fail-under A on a B exits 3\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert outputs.read_text(encoding="utf-8").splitlines() == ["grade=B", "score=89.1"]
    for name in ("hypothesis-mcp-report.json", "hypothesis-mcp-junit.xml", "hypothesis-mcp-badge.svg"):
        assert (tmp_path / name).stat().st_size > 0, name


def test_example_workflow_uses_only_real_options() -> None:
    commands = [line for step in WORKFLOW["jobs"]["grade"]["steps"] for line in [step.get("run", "")]
                if "hypothesis-mcp test" in line]
    assert len(commands) == 1
    used = set(re.findall(r"(?<!\S)--[a-z-]+", commands[0]))
    help_text = subprocess.run([*cli_command(), "test", "--help"], capture_output=True, text=True,
                               env={**os.environ, "COLUMNS": "200"}).stdout
    assert used and all(option in help_text for option in used), used
    assert {"--ci", "--fail-under"} <= used
