"""The small surprises of a first run, each fixed: --ci does not silently drop an explicit profile,
a bad --seed reads like every other usage error, and the project-defaults line shows flags."""

from __future__ import annotations

from pathlib import Path

from helpers import cli, command_line, sample

DEAD = command_line(["python", "-c", "import sys; sys.exit(3)"])


def test_ci_with_an_explicit_other_profile_is_a_usage_error(tmp_path: Path) -> None:
    run = cli(["test", command_line(sample()), "--ci", "--profile", "thorough"], tmp_path)
    assert run.code == 2, run
    assert run.stderr.startswith("error: --ci grades with the grading profile"), run
    assert "--profile thorough" in run.stderr
    same = cli(["test", DEAD, "--ci", "--profile", "grading"], tmp_path)
    assert same.code == 5, "the grading profile is what --ci runs anyway"


def test_a_bad_seed_is_reported_like_other_usage_errors(tmp_path: Path) -> None:
    bad = cli(["test", command_line(sample()), "--seed", "abc"], tmp_path)
    other = cli(["test", command_line(sample()), "--profile", "quick"], tmp_path)
    assert bad.code == other.code == 2, bad
    assert bad.stderr.startswith("error: --seed takes a whole number, not 'abc'"), bad
    assert other.stderr.startswith("error: "), other
    assert "╭" not in bad.stderr and "Traceback" not in bad.stderr


def test_the_defaults_line_shows_the_flags_they_stand_for(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(f"""[tool.hypothesis-mcp]
target = {DEAD!r}
fail-under = "B"
smoke = true
ignore = ["lint-missing-description", "smoke_unknown_tool"]
badge = "out/badge.svg"
""", encoding="utf-8")
    (tmp_path / "out").mkdir()  # an output folder that does not exist is a usage error before any start
    run = cli(["test"], tmp_path)
    assert run.code == 5, run
    line = next(line for line in run.stderr.splitlines() if line.startswith("defaults from "))
    shown = line.split(": ", 1)[1].split(", ")
    assert set(shown) == {f"TARGET {DEAD}", "--fail-under B", "--smoke", "--ignore lint-missing-description",
                          "--ignore smoke_unknown_tool", "--badge out/badge.svg"}, line
    assert "PosixPath" not in line and "_" not in line.split(": ", 1)[1].replace("smoke_unknown_tool", "")
