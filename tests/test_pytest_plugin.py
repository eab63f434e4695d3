"""The pytest plugin (`mcp_server` fixture, options, ini, marker, scopes) and the example suite.

Inner test sessions run with `pytester` in subprocesses, against the sample server and its
lose-on-write variant: @given properties over the fixture's connection (inside the test, and
with `st.data()`), the marker form, and `effect_machine(...).TestCase`. The suite must pass on
the correct server and fail on the buggy one for the right reason (probe-data-lost).

examples/pytest_suite is also run both ways, as a user would run it; those two runs start when
this module starts and overlap with the pytester sessions.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import PYTHON, ROOT, STORAGE, command_line, sample

pytest_plugins = ["pytester"]

DATA_LOST = "is gone after a later write"
"""What the effect machine's probe-data-lost failure says."""

SUITE = '''
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from hypothesis_mcp.stateful import effect_machine
from hypothesis_mcp.strategies import arguments, invalid_arguments

TARGET = {target!r}
FAST = settings(max_examples=10, deadline=None)


def test_fixture_is_a_connection(mcp_server):
    assert {{"create_note", "get_note", "list_notes"}} <= {{t.name for t in mcp_server.tools}}
    assert mcp_server.server.name == "notes-server"


def test_given_inside_the_test(mcp_server):
    tool = mcp_server.tool("search_notes")

    @FAST
    @given(arguments(tool))
    def check(args):
        outcome = mcp_server.call("search_notes", args)
        assert outcome.ok, outcome.summary()

    check()


@settings(FAST, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_given_with_data(mcp_server, data):
    invalid = data.draw(invalid_arguments(mcp_server.tool("get_note")))
    assert mcp_server.call("get_note", invalid.value).rejected


@pytest.mark.mcp_server(TARGET, scope="function")
def test_marker_gives_a_fresh_server(mcp_server):
    for title in ("first", "second"):
        assert mcp_server.call("create_note", {{"title": title, "body": title}}).ok
    first = mcp_server.call("get_note", {{"title": "first"}})
    assert first.structured["found"], "probe-data-lost: the first note is gone"


TestNotes = effect_machine(TARGET, write="create_note").TestCase
# No shrinking here: this suite only needs pass or fail (the example suite shows a shrunk failure).
TestNotes.settings = settings(max_examples=6, stateful_step_count=8, deadline=None,
                              phases=[Phase.explicit, Phase.reuse, Phase.generate])
'''

SCOPES = '''
SEEN = []


def test_write(mcp_server):
    SEEN.append(mcp_server)
    assert mcp_server.call("create_note", {"title": "kept?", "body": "b"}).ok


def test_read(mcp_server):
    SEEN.append(mcp_server)
    assert mcp_server.call("get_note", {"title": "kept?"}).structured["found"]


def test_same_connection():
    assert SEEN[0] is SEEN[1]
'''


@pytest.fixture(autouse=True)
def _shared_hypothesis_storage(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inner sessions share Hypothesis's caches instead of rebuilding them in every tmp dir."""
    monkeypatch.setenv("HYPOTHESIS_STORAGE_DIRECTORY", str(STORAGE))


# --- examples/pytest_suite, run as a user runs it (started first, collected last) ---------------

class ExampleRun:
    def __init__(self, target: list[str], workdir: Path) -> None:
        self.target = target
        self.proc = subprocess.Popen(
            [PYTHON, "-m", "pytest", str(ROOT / "examples/pytest_suite"), "--mcp-server", command_line(target),
             "-p", "no:cacheprovider", "-q", "-rA", "--tb=short"],
            cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL,
            env={**os.environ, "HYPOTHESIS_STORAGE_DIRECTORY": str(workdir / ".hypothesis"), "COLUMNS": "120"},
        )
        self._output: str | None = None

    def wait(self) -> tuple[int, str]:
        if self._output is None:
            try:
                self._output, _ = self.proc.communicate(timeout=300)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self._output = self.proc.communicate()[0]
                raise AssertionError(f"the example suite ran over 300s:\n{self._output[-3000:]}") from None
        return self.proc.returncode, self._output


@pytest.fixture(scope="module", autouse=True)
def example_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ExampleRun]]:
    runs = {"correct": ExampleRun(sample(), tmp_path_factory.mktemp("example-correct")),
            "lose-on-write": ExampleRun(sample("lose-on-write"), tmp_path_factory.mktemp("example-bug"))}
    yield runs
    for run in runs.values():
        if run.proc.poll() is None:
            run.proc.kill()
            run.proc.communicate()


# --- the plugin with pytester ----------------------------------------------------------------------

def _suite(pytester: pytest.Pytester, bug: str | None) -> pytest.RunResult:
    target = command_line(sample(bug))
    pytester.makepyfile(test_suite=SUITE.format(target=target))
    return pytester.runpytest_subprocess("--mcp-server", target, "-p", "no:cacheprovider", "-rA", timeout=300)


def test_suite_passes_on_the_correct_server(pytester: pytest.Pytester) -> None:
    result = _suite(pytester, None)
    result.assert_outcomes(passed=5)


def test_suite_fails_on_lose_on_write_for_the_right_reason(pytester: pytest.Pytester) -> None:
    result = _suite(pytester, "lose-on-write")
    result.assert_outcomes(passed=3, failed=2)
    output = result.stdout.str()
    assert "FAILED test_suite.py::TestNotes::runTest" in output, output[-3000:]
    assert "FAILED test_suite.py::test_marker_gives_a_fresh_server" in output
    assert DATA_LOST in output, output[-3000:]
    assert "ProbeFailure" in output
    assert "probe-data-lost: the first note is gone" in output


def test_session_scope_shares_one_server(pytester: pytest.Pytester) -> None:
    """The default scope: one server for the session, so a later test sees an earlier test's write.
    The target comes from the ini option alone."""
    pytester.makeini(f"[pytest]\nmcp_server = {command_line(sample())}\n")
    pytester.makepyfile(test_scopes=SCOPES)
    pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=120).assert_outcomes(passed=3)


def test_function_scope_gives_each_test_a_fresh_server(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_scopes=SCOPES)
    result = pytester.runpytest_subprocess("--mcp-server", command_line(sample()), "--mcp-server-scope", "function",
                                           "-p", "no:cacheprovider", "-rA", timeout=120)
    result.assert_outcomes(passed=1, failed=2)
    output = result.stdout.str()
    assert "FAILED test_scopes.py::test_read" in output and "FAILED test_scopes.py::test_same_connection" in output


NEEDS_A_SERVER = """
import pytest


def test_needs_a_server(mcp_server):
    raise AssertionError("unreachable")


def test_grades_a_server(mcp_grade):
    raise AssertionError("unreachable")


@pytest.mark.mcp_optional
def test_may_go_without(mcp_server):
    raise AssertionError("unreachable")


def test_needs_none():
    pass
"""


def test_without_a_server_a_test_needing_one_errors_unless_marked_optional(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_none=NEEDS_A_SERVER)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-rse", timeout=240)
    result.assert_outcomes(errors=2, skipped=1, passed=1)
    assert result.ret != 0, "a CI job with no server configured fails"
    text = result.stdout.str()
    assert "ERROR at setup of test_needs_a_server" in text and "ERROR at setup of test_grades_a_server" in text
    assert "no MCP server given: use --mcp-server" in text
    assert "@pytest.mark.mcp_optional" in text
    assert "SKIPPED" in text and "unreachable" not in text and "Traceback" not in text


def test_options_and_marker_are_registered(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("--help", "-p", "no:cacheprovider", timeout=60)
    text = result.stdout.str()
    for option in ("--mcp-server", "--mcp-server-scope", "--mcp-timeout", "mcp_server (string)",
                   "mcp_server_scope (string)"):
        assert option in text, option
    markers = pytester.runpytest_subprocess("--markers", "-p", "no:cacheprovider", timeout=60).stdout.str()
    assert "@pytest.mark.mcp_server(target" in markers and "@pytest.mark.mcp_optional" in markers


GRADED = """
def test_grade(mcp_grade):
    report = mcp_grade(profile="grading", smoke=True, max_time=120)
    assert report.score > 0 and report.stats.calls > 0
    failing = sorted({{r.rule for r in report.results if r.status == "fail"}} - {{"happy-output-schema"}})
    assert not failing, f"failing rules: {{failing}}"
"""
"""The sample server's html export breaks its output schema on every server variant
(docs/sample-server.md), so that failure is expected of each. The grading profile: half the default's
examples, and the draws of the runs test_scorecard.py and test_resources_prompts.py assert clean."""


@pytest.mark.parametrize("bug", [None, "prompt-default-arg"])
def test_mcp_grade_runs_the_engine_and_shows_its_progress(pytester: pytest.Pytester, bug: str | None) -> None:
    """`mcp_grade` grades the configured server as the CLI does: a correct server's report has no
    failure, the bug's rule fails the test, and under -v the run's steps are pytest output lines."""
    pytester.makepyfile(test_graded=GRADED.format())
    result = pytester.runpytest_subprocess("--mcp-server", command_line(sample(bug)), "-p", "no:cacheprovider",
                                           "-v", timeout=300)
    output = result.stdout.str()
    assert "hypothesis-mcp smoke" in output, output[-3000:]
    if bug is None:
        result.assert_outcomes(passed=1)
    else:
        result.assert_outcomes(failed=1)
        assert "failing rules: ['prompt-missing-argument-accepted']" in output, output[-3000:]


# --- the example suite, both ways -----------------------------------------------------------------

def test_example_suite_passes_on_the_correct_server(example_runs: dict[str, ExampleRun]) -> None:
    code, output = example_runs["correct"].wait()
    assert code == 0, output[-4000:]
    assert "6 passed" in output, output[-2000:]


def test_example_suite_fails_on_lose_on_write_for_the_right_reason(example_runs: dict[str, ExampleRun]) -> None:
    code, output = example_runs["lose-on-write"].wait()
    assert code == 1, output[-4000:]
    assert "2 failed, 4 passed" in output, output[-2000:]
    failed = {line.split("::")[-1].split()[0] for line in output.splitlines() if line.startswith("FAILED ")}
    assert failed == {"test_notes_are_stored_overwritten_and_kept", "test_regression_a_second_note_keeps_the_first"}
    assert DATA_LOST in output, output[-4000:]
    assert "probe-data-lost: the first note is gone after a second write" in output
