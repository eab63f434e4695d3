"""The GitHub action and the example workflow: the action's script runs the CLI and sets its
outputs; the workflow uses only options the CLI has.

The action's install step is checked apart: it installs from the action's own checkout, which is
this repository, so the run step can use this venv's CLI.
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
    env = {**os.environ, **step_env, "GITHUB_OUTPUT": str(outputs), "GITHUB_STEP_SUMMARY": str(cwd / "summary.md"),
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
    done, outputs = _run_step({"target": target, "args": "--probes --allow-writes --max-examples 10",
                               "probe-grade-cap": "false"}, tmp_path)
    report = json.loads((tmp_path / "hypothesis-mcp-report.json").read_text(encoding="utf-8"))
    assert [r["rule"] for r in report["results"] if r["status"] == "fail" and r["kind"] == "probe"] == [
        "probe-silent-noop"]
    assert report["grade_cap"]["enabled"] is False
    assert outputs[0] == "grade=B", f"{outputs}\n{done.stdout[-2000:]}"


def test_the_action_installs_from_its_own_checkout() -> None:
    """No package index: `github.action_path` is the checkout of the ref the workflow pinned."""
    install = ACTION["runs"]["steps"][0]
    assert install["env"] == {"HM_SOURCE": "${{ github.action_path }}"}
    assert 'pip install --quiet "$HM_SOURCE"' in install["run"]
    assert (ROOT / "pyproject.toml").is_file()  # what pip builds from the action's folder
    assert "version" not in ACTION["inputs"]


def test_action_config_sarif_and_step_summary(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"notes": {"command": sample()[0], "args": sample()[1:]},
                                                 "other": {"url": "http://127.0.0.1:9/mcp"}}}), encoding="utf-8")
    done, outputs = _run_step({"config": str(config), "server": "notes", "sarif": "true",
                               "args": "--max-examples 5"}, tmp_path)
    assert done.returncode == 1, f"--ci: a happy-path failure blocks\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert outputs == ["grade=B", "score=89.1"]
    sarif = json.loads((tmp_path / "hypothesis-mcp.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"]
    assert "Grade B" in (tmp_path / "summary.md").read_text(encoding="utf-8")
    upload = ACTION["runs"]["steps"][-1]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "hypothesis-mcp.sarif" and "inputs.sarif == 'true'" in upload["if"]


def test_example_workflow_uses_the_action_with_real_inputs() -> None:
    [step] = [s for s in WORKFLOW["jobs"]["grade"]["steps"] if str(s.get("uses", "")).endswith("/hypothesis-mcp@REF")]
    assert set(step["with"]) <= set(ACTION["inputs"])
    used = set(re.findall(r"(?<!\S)--[a-z-]+", step["with"]["args"]))
    help_text = subprocess.run([*cli_command(), "test", "--help"], capture_output=True, text=True,
                               env={**os.environ, "COLUMNS": "200"}).stdout
    assert used and all(option in help_text for option in used), used
    assert step["with"]["sarif"] == "true" and WORKFLOW["permissions"]["security-events"] == "write"
