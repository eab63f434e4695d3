"""A user's pytest run of the effect machine: the failure shows the calls with the values sent, as
Python to paste, and points at the user's test, not into the library."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from helpers import SERVE, STORAGE
from hypothesis_mcp.stateful.frames import PACKAGE, without_library_lines

USER_TEST = textwrap.dedent('''\
    import sys

    from hypothesis import settings
    from hypothesis.stateful import run_state_machine_as_test

    from hypothesis_mcp.stateful import effect_machine

    SERVER = [sys.executable, "-m", "hypothesis_mcp.sample_server", "--bug", "silent-skip"]
    SERVER[1:1] = LAUNCHER


    def test_notes_are_kept():
        machine = effect_machine(SERVER, write="create_note")
        run_state_machine_as_test(machine, settings=settings(
            max_examples=20, stateful_step_count=15, deadline=None, database=None))
''').replace("LAUNCHER", repr(SERVE[1:]))
"""The user's server command, started through the suite's zygote launcher (helpers.SERVE)."""
SHARED_CACHES = {**os.environ, "HYPOTHESIS_STORAGE_DIRECTORY": str(STORAGE)}
"""The user's tests keep no examples (database=None), so they share the suite's Hypothesis caches
instead of building them in a new folder each (about a second of CPU)."""


def test_a_silent_skip_fails_in_the_users_test_with_the_calls_sent(tmp_path: Path) -> None:
    (tmp_path / "test_user_notes.py").write_text(USER_TEST, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "test_user_notes.py", "-q", "-p", "no:cacheprovider"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=600, env=SHARED_CACHES)
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    built = USER_TEST.splitlines().index('    machine = effect_machine(SERVER, write="create_note")') + 1
    ran = built + 1
    assert f"test_user_notes.py:{ran}: ProbeFailure" in out, out
    assert f"the effect machine built at test_user_notes.py:{built}" in out, out
    assert "probe-silent-noop on create_note" in out, out
    assert str(PACKAGE) not in out and "site-packages/hypothesis/" not in out, "no library frame or line is shown"
    assert "Explanation:" not in out, "Hypothesis's explanation named only the library's lines"

    message = [line[8:] for line in out.splitlines() if line.startswith("E       ")]
    first = next(i for i, line in enumerate(message) if "with the values sent" in line) + 1
    snippet = []
    for line in message[first:]:
        if not line.startswith("    "):
            break
        snippet.append(line[4:])
    assert snippet[0] == "from hypothesis_mcp import connect", message
    writes = [line for line in snippet if 'server.call("create_note"' in line]
    markers = [re.findall(r"hm[0-9a-f]{8}", line) for line in writes]
    assert len(writes) >= 2 and all(markers), snippet
    assert "hm00000000" not in "\n".join(snippet), "the placeholder marker was shown, not the values sent"
    titles = {re.findall(r'"title": "([^"]*)"', line)[0] for line in writes}
    assert len(titles) == 1, "the calls overwrite one key: the silent skip shows in them"
    exec(compile("\n".join(snippet), "snippet", "exec"), {})  # it runs as pasted, on a new server


def test_the_explanation_keeps_the_users_lines_only() -> None:
    ours = f"        {PACKAGE / 'stateful' / 'example.py'}:177"
    header = ["Explanation:", "    These lines were always and only run by failing test cases:"]
    assert without_library_lines(["Failing test case: x", *header, ours, "        (and 3 more)"]) == [
        "Failing test case: x"]
    users = "        /home/me/project/server.py:12"
    assert without_library_lines([*header, ours, users, "        (and 3 more)", "after"]) == [*header, users, "after"]


USER_TEST_CASE = textwrap.dedent('''\
    import sys

    from hypothesis import Phase, settings

    from hypothesis_mcp.stateful import effect_machine

    SERVER = [sys.executable, "-m", "hypothesis_mcp.sample_server", "--bug", "silent-skip"]
    SERVER[1:1] = LAUNCHER

    TestNotes = effect_machine(SERVER, write="create_note").TestCase
    TestNotes.settings = settings(max_examples=20, stateful_step_count=15, deadline=None, database=None,
                                  phases=[Phase.explicit, Phase.generate])
''').replace("LAUNCHER", repr(SERVE[1:]))


def test_the_test_case_form_points_at_the_line_that_built_the_machine(tmp_path: Path) -> None:
    """unittest runs the TestCase form, so no frame of the user's is on the stack: the failure is raised
    from the line that built the class, shown with its source, and no library frame is shown. The user's
    settings leave out the shrink phase: where the failure is raised does not depend on it, and the
    function form above goes through it (about 500 examples on the warm server)."""
    (tmp_path / "test_user_case.py").write_text(USER_TEST_CASE, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "test_user_case.py", "-q", "-p", "no:cacheprovider"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=900, env=SHARED_CACHES)
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    built = USER_TEST_CASE.splitlines().index('TestNotes = effect_machine(SERVER, write="create_note").TestCase') + 1
    assert f"test_user_case.py:{built}: ProbeFailure" in out, out
    assert '>   TestNotes = effect_machine(SERVER, write="create_note").TestCase' in out, out
    assert "probe-silent-noop on create_note" in out, out
    assert str(PACKAGE) not in out and "site-packages/hypothesis/" not in out, "no library frame or line is shown"
