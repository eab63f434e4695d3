"""Real servers with no probe config: what the built-in heuristics find on their own.

The effect-probe text promises both outcomes without any declared pair or relation: the memory
server's silent no-op on create_entities at high confidence (the reader already showed the
record), and the filesystem server's `head: 0` / `tail: 0` on read_text_file with nothing but
`--arg path=...`. test_real_servers.py runs the same servers with their shipped strategies.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import hunting
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.engine import RunOptions, run
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.replay import replay
from hypothesis_mcp.strategies import Overrides
from public_servers import npm_server

pytestmark = pytest.mark.slow


def test_memory_silent_noop_needs_no_probe_config() -> None:
    """Only the memory file is given ({tmpdir}: a new one per process); no pair, no strategy. Two
    examples per effect machine (helpers.hunting): the no-op shows on the first; that the other
    writes draw no finding under the full grading profile is test_real_servers.py's memory run,
    whose strategy names a pair for create_entities only."""
    argv = npm_server("server-memory", "2026.8.31")
    target = parse_target(argv, env={"MEMORY_FILE_PATH": "{tmpdir}/memory.jsonl"})
    report = run(target, RunOptions(profile=hunting(), probes=True, allow_writes=True))
    [finding] = [r for r in report.results if r.kind == "probe" and r.rule == "probe-silent-noop"]
    assert (finding.tool, finding.status, finding.confidence) == ("create_entities", "fail", "high")
    assert finding.reproduction is not None and finding.reproduction.fresh_server
    calls = finding.reproduction.calls
    writes = [c for c in calls if c.tool == "create_entities"]
    assert len(writes) == 2 and calls[-1].tool == "read_graph", calls
    assert writes[0].arguments["entities"][0]["name"] == writes[1].arguments["entities"][0]["name"], calls
    assert report.grade_cap.reasons == ["probe-silent-noop on create_entities"]
    done = replay(finding, target)
    assert done.still_fails, done.verdict


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
