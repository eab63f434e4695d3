"""Real servers with no probe config: what the built-in heuristics find on their own.

The effect-probe text promises both outcomes without any declared pair or relation: the memory
server's silent no-op on create_entities at high confidence (the reader already showed the
record), shown by test_cli.py's badge run of that server (the same grading run, from the command
line), and the filesystem server's `head: 0` / `tail: 0` on read_text_file with nothing but
`--arg path=...`, here. test_real_servers.py runs the same servers with their shipped strategies.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.engine import RunOptions, run
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.strategies import Overrides
from public_servers import npm_server

pytestmark = pytest.mark.slow


WRITERS = ("write_file", "edit_file", "move_file")
"""The filesystem tools that could change the file `path=` names: without --allow-writes, skipped."""


def test_filesystem_builtin_bounds_flag_head_and_tail_zero_with_arg_only(tmp_path: Path) -> None:
    """`--arg path=.../ten.txt` and the built-in head/tail bounds: medium-confidence warnings. The
    run sees read_text_file and the writers (`--include-tool`): the other read tools' searches, nine
    tenths of its calls, show nothing this test asserts."""
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    ten = sandbox / "ten.txt"
    ten.write_text("".join(f"line {i}\n" for i in range(1, 11)))
    argv = [*npm_server("server-filesystem", "2026.8.31"), str(sandbox)]
    overrides = Overrides.parse([f"path={ten}"], None)
    report = run(parse_target(argv), RunOptions(profile=make_profile("grading"), probes=True, overrides=overrides,
                                                include_tools=["read_text_file", *WRITERS]))
    assert {r.status for r in report.results if r.tool in WRITERS and r.kind != "lint"} == {"skip"}
    flagged = {}
    for r in report.results:
        if r.kind == "probe" and r.tool == "read_text_file" and r.rule == "probe-bound-exceeded":
            assert r.reproduction is not None
            [call] = r.reproduction.calls
            flagged[tuple(k for k in ("head", "tail") if k in call.arguments)] = (call.arguments, r.status,
                                                                               r.confidence)
    assert flagged == {("head",): ({"path": str(ten), "head": 0}, "warn", "medium"),
                       ("tail",): ({"path": str(ten), "tail": 0}, "warn", "medium")}, flagged
    assert ten.read_text().startswith("line 1\n"), "a probe changed the sandbox file"
