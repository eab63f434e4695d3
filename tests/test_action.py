"""The GitHub action and the example workflow: the action's script runs the CLI and sets its
outputs; the workflow uses only options the CLI has.

The action's install step (pip install from PyPI) is not run: the script runs against this venv.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import yaml

from helpers import ROOT, cli_command, command_line, sample

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
WORKFLOW = yaml.safe_load((ROOT / "examples" / "github-workflow" / "mcp-grade.yml").read_text(encoding="utf-8"))


def _run_step(inputs: dict[str, str], cwd: Path) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """The action's run step with these inputs, the way the runner gives them: as its env."""
    step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "run")
    given = {**{k: str(v.get("default", "")) for k, v in ACTION["inputs"].items()}, **inputs}
    step_env = {name: re.sub(r"\$\{\{ inputs\.([\w-]+) \}\}", lambda m: given[m.group(1)], value)
                for name, value in step["env"].items()}
    outputs = cwd / "github-output"
    env = {**os.environ, **step_env, "GITHUB_OUTPUT": str(outputs),
           "PATH": f"{Path(cli_command()[0]).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", step["run"]], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)
    return done, outputs.read_text(encoding="utf-8").splitlines() if outputs.exists() else []


def test_action_runs_the_cli_and_sets_grade_and_score(tmp_path: Path) -> None:
    assert set(ACTION["inputs"]) >= {"target", "args", "fail-under", "probe-grade-cap"}
    done, outputs = _run_step({"target": command_line(sample()), "args": "--max-examples 5", "fail-under": "A"},
                              tmp_path)
    assert done.returncode == 3, f"--fail-under A on a B exits 3\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert outputs == ["grade=B", "score=89.1"]
    for name in ("hypothesis-mcp-report.json", "hypothesis-mcp-junit.xml", "hypothesis-mcp-badge.svg"):
        assert (tmp_path / name).stat().st_size > 0, name


def test_action_inputs_are_values_never_shell_code(tmp_path: Path) -> None:
    """A target holding shell syntax reaches the CLI as one value: nothing runs, the server does not start."""
    marker = tmp_path / "pwned"
    done, _ = _run_step({"target": f"nonexistent-server; touch {marker}", "args": "--max-examples 5 --timeout 5"},
                        tmp_path)
    assert done.returncode == 5 and not marker.exists(), done.stderr[-2000:]


def test_action_probe_grade_cap_false_gives_the_scores_letter(tmp_path: Path) -> None:
    target = command_line(sample("silent-skip"))
    done, outputs = _run_step({"target": target, "args": "--probes --allow-writes --max-examples 15",
                               "probe-grade-cap": "false"}, tmp_path)
    report = json.loads((tmp_path / "hypothesis-mcp-report.json").read_text(encoding="utf-8"))
    assert [r["rule"] for r in report["results"] if r["status"] == "fail" and r["kind"] == "probe"] == [
        "probe-silent-noop"]
    assert report["grade_cap"]["enabled"] is False
    assert outputs[0] == "grade=B", f"{outputs}\n{done.stdout[-2000:]}"


def test_example_workflow_uses_only_real_options() -> None:
    commands = [line for step in WORKFLOW["jobs"]["grade"]["steps"] for line in [step.get("run", "")]
                if "hypothesis-mcp test" in line]
    assert len(commands) == 1
    used = set(re.findall(r"(?<!\S)--[a-z-]+", commands[0]))
    help_text = subprocess.run([*cli_command(), "test", "--help"], capture_output=True, text=True,
                               env={**os.environ, "COLUMNS": "200"}).stdout
    assert used and all(option in help_text for option in used), used
    assert {"--ci", "--fail-under"} <= used
