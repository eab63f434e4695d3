"""`--annotations github`: a workflow command per finding at the line that declares the server, and
SARIF locations as relative URIs of that line, never absolute `file://` paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import Cli, CliRun, cli, command_line, sample

PYPROJECT = """[project]
name = "my-server"

[tool.hypothesis-mcp]
# the server under test
profile = "grading"
target = {target}
max-examples = 6
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CliRun]:
    """The same project twice: in a git work tree run from a subfolder, and in a plain folder run
    from a folder below the one holding pyproject.toml."""
    started = {}
    for name in ("git", "plain"):
        project = tmp_path_factory.mktemp(name)
        if name == "git":
            (project / ".git").mkdir()
        target = json.dumps(command_line(sample("silent-skip")))
        (project / "pyproject.toml").write_text(PYPROJECT.format(target=target), encoding="utf-8")
        below = project / "ci"
        below.mkdir()
        started[name] = Cli(["test", "--probes", "--allow-writes", "--annotations", "github", "--sarif",
                             str(below / "out.sarif")], below, json_report=True)
    return {name: run.wait() for name, run in started.items()}


def commands(run: CliRun) -> list[str]:
    return [line for line in run.stdout.splitlines() if line.startswith("::")]


def test_a_workflow_command_per_finding_at_the_target_line(runs: dict[str, CliRun]) -> None:
    run = runs["git"]
    assert run.code == 1, run  # probe-silent-noop on create_note blocks, --ci or not
    assert run.report is not None
    findings = [r for r in run.report["results"] if r["status"] in ("fail", "warn")]
    lines = commands(run)
    assert len(lines) == len(findings) > 0, run
    noop = next(line for line in lines if "probe-silent-noop on create_note" in line)
    assert noop.startswith("::error file=pyproject.toml,line=7,title=hypothesis-mcp%3A probe-silent-noop on "
                           "create_note::"), noop
    message = noop.split("::", 2)[2]
    assert "\n" not in message and "%0AFix: " in message and 'server.call("create_note", ' in message
    levels = {line.split(" ", 1)[0] for line in lines}
    assert levels <= {"::error", "::warning", "::notice"}
    lint = next(line for line in lines if "lint-" in line)
    assert not lint.startswith("::error"), "a warning is never an error"
    assert run.stdout.splitlines()[-1].startswith("Gate failed — "), "the gate line stays last"


def test_sarif_points_at_the_same_line_by_a_relative_uri(runs: dict[str, CliRun]) -> None:
    for name, uri in (("git", "pyproject.toml"), ("plain", "../pyproject.toml")):
        run = runs[name]
        assert run.code == 1, run
        sarif = Path(run.args[run.args.index("--sarif") + 1])
        log = json.loads(sarif.read_text(encoding="utf-8"))
        places = [entry["locations"][0]["physicalLocation"] for entry in log["runs"][0]["results"]]
        assert places and all(place == {"artifactLocation": {"uri": uri}, "region": {"startLine": 7}}
                              for place in places), places
        assert "file://" not in sarif.read_text(encoding="utf-8")
        assert commands(run)[0].split(",", 1)[0].endswith(f"file={uri}")


def test_an_unknown_format_or_two_outputs_on_stdout_are_usage_errors(tmp_path: Path) -> None:
    unknown = cli(["test", command_line(sample()), "--annotations", "gitlab"], tmp_path)
    assert unknown.code == 2 and "--annotations takes github, not 'gitlab'" in unknown.stderr, unknown
    both = cli(["test", command_line(sample()), "--annotations", "github", "--json", "-"], tmp_path)
    assert both.code == 2 and "--json and --annotations" in both.stderr, both
