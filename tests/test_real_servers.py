"""Known outcomes on official public servers at pinned versions, with their shipped strategies."""

from __future__ import annotations

from pathlib import Path

import pytest

from hypothesis_mcp.connection import Connection, parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report
from hypothesis_mcp.shipped import load_strategy
from public_servers import grade, not_passed, npm_server, probe_results, pypi_server, venv_script

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def memory_report() -> Report:
    argv = npm_server("server-memory", "2026.8.31")
    return grade(argv, "server-memory", smoke=True, probes=True, allow_writes=True)


def test_memory_roles() -> None:
    argv = npm_server("server-memory", "2026.8.31")
    with Connection(parse_target(argv, env={"MEMORY_FILE_PATH": "{tmpdir}/m.jsonl"})) as conn:
        roles = {t.name: t.role for t in conn.list_tools()}
    assert roles == {
        "create_entities": "write", "create_relations": "write", "add_observations": "write",
        "delete_entities": "destructive", "delete_observations": "destructive", "delete_relations": "destructive",
        "read_graph": "read", "search_nodes": "read", "open_nodes": "read",
    }


def test_memory_silent_noop_is_found_with_high_confidence(memory_report: Report) -> None:
    [finding] = probe_results(memory_report, "create_entities", "probe-silent-noop")
    assert (finding.status, finding.confidence) == ("fail", "high")
    calls = finding.reproduction.calls
    # The writes, then the read that misses the second one (a read of the graph before the writes
    # may stay in front: the shrinker keeps what the replay does not prove unneeded).
    writes = [c for c in calls if c.tool == "create_entities"]
    assert len(writes) == 2 and calls[-1].tool == "read_graph", calls
    first, again = writes[0].arguments["entities"][0], writes[1].arguments["entities"][0]
    assert first["name"] == again["name"] and first["observations"] != again["observations"]


def test_memory_grade_is_capped_at_c(memory_report: Report) -> None:
    assert memory_report.grade == "C"
    assert memory_report.grade_cap.capped and memory_report.grade_cap.uncapped_grade == "A"
    assert memory_report.grade_cap.reasons == ["probe-silent-noop on create_entities"]
    assert memory_report.score == 92.5


def test_servers_that_set_iserror_draw_no_error_as_success(memory_report: Report, memory_bank_report: Report) -> None:
    """Both answer their errors with isError (or a JSON-RPC error): none is reported as a success."""
    for report in (memory_report, memory_bank_report):
        assert not [r for r in report.results if r.rule == "error-as-success"], report.server


def test_memory_smoke_unknown_tool_is_an_iserror_result(memory_report: Report) -> None:
    [check] = [c for c in memory_report.smoke.checks if c["check_id"] == "smoke_unknown_tool"]
    assert check["verdict"] == "fail" and "isError" in check["message"]


@pytest.fixture(scope="module")
def memory_bank_report() -> Report:
    argv = npm_server("@allpepper/memory-bank-mcp", "0.2.2")
    return grade(argv, "memory-bank", smoke=True, probes=True, allow_writes=True)


def test_memory_bank_second_write_is_a_silent_noop(memory_bank_report: Report) -> None:
    [finding] = probe_results(memory_bank_report, "memory_bank_write", "probe-silent-noop")
    assert (finding.status, finding.confidence) == ("fail", "high")
    calls = finding.reproduction.calls
    assert [c.tool for c in calls] == ["memory_bank_write", "memory_bank_read"] * 2
    first, again = calls[0].arguments, calls[2].arguments
    assert first["fileName"] == again["fileName"] and first["content"] != again["content"]
    assert finding.reproduction.fresh_server


def test_memory_bank_noop_replays_and_is_real(memory_bank_report: Report) -> None:
    """On a fresh server the second write answers "written successfully" and the file keeps the
    first content: the server's create refuses an existing file but its answer does not say so."""
    [finding] = probe_results(memory_bank_report, "memory_bank_write", "probe-silent-noop")
    target = parse_target(npm_server("@allpepper/memory-bank-mcp", "0.2.2"), env=load_strategy("memory-bank").env)
    done = replay(finding, target)
    assert done.still_fails, done.verdict
    (first, _), (_, read1), (again, answer), (_, read2) = done.steps
    assert answer.ok and "written successfully" in answer.text
    assert read1.text == read2.text == first.arguments["content"] != again.arguments["content"]


def test_memory_bank_grade_and_the_rest_of_its_report(memory_bank_report: Report) -> None:
    # 5 of 5 tools exercised: list_projects by its search, the tools that take a project name (refused
    # for every made-up name) by searching them again with the names list_projects printed; capped at
    # C by the silent no-op
    assert memory_bank_report.grade == "C" and memory_bank_report.grade_cap.uncapped_grade == "B"
    assert memory_bank_report.score == 86.0 and memory_bank_report.subscores["exercised"] == 100.0
    owned = [r.tool for r in memory_bank_report.results if r.check == "happy" and r.details.get("owned")]
    assert "list_project_files" in owned, owned
    assert memory_bank_report.grade_cap.reasons == ["probe-silent-noop on memory_bank_write"]
    assert memory_bank_report.subscores["happy"] == memory_bank_report.subscores["edge"] == 100.0
    assert not [r for r in memory_bank_report.results if r.kind == "incident"]
    # memory_bank_update(projectName, fileName, content) changes a file memory_bank_write wrote and
    # refuses an unknown one (checked by hand): an update addressed by fileName, judged and kept
    [update] = [r for r in memory_bank_report.results if r.kind == "probe" and r.tool == "memory_bank_update"]
    assert (update.status, update.confidence) == ("pass", "high"), update.message
    assert "of records memory_bank_write created were shown by memory_bank_read" in update.message


@pytest.fixture(scope="module")
def everything_report() -> Report:
    return grade(npm_server("server-everything", "2026.8.31"), "server-everything", smoke=True, probes=True,
                 allow_writes=True)


def test_everything_grades_a_and_every_other_verdict_is_defended(everything_report: Report) -> None:
    assert (everything_report.grade, everything_report.score) == ("A", 99.8) and not everything_report.grade_cap.capped
    assert not_passed(everything_report) == {
        ("server", "smoke_unknown_tool", "fail", "high"),
        ("template demo://resource/dynamic/blob/{resourceId}", "resource-mime-mismatch", "warn", "high"),
        ("prompt args-prompt", "prompt-undocumented-argument", "warn", "high"),
    }
    surfaces = everything_report.smoke.surfaces
    assert everything_report.smoke.surface_summary() == {"passed": 17, "failed": 0, "warned": 2, "skipped": 1}, \
        surfaces
    assert not [r for r in everything_report.results if r.kind == "incident"]


def test_everything_write_probes_say_why_they_are_inconclusive(everything_report: Report) -> None:
    """Its "writes" toggle a flag (no text to mark), fetch a URL (no network here) or need task
    augmentation: each round trip is inconclusive, with its reason, never a failure."""
    probes = {r.tool: r for r in everything_report.results if r.kind == "probe"}
    assert {r.status for r in probes.values()} == {"inconclusive"}
    assert "no value of the write can carry a marker" in probes["toggle-simulated-logging"].message
    assert "failed with generated values" in probes["gzip-file-as-resource"].message


def test_the_grade_orders_these_servers_by_harm(everything_report: Report, memory_report: Report,
                                                memory_bank_report: Report) -> None:
    """docs/scoring.md, Grades of real servers: a server whose faults are style only grades above the
    two whose writes are not stored, though by score alone all three would be A or B."""
    letters = "ABCDF"
    harmed = (memory_report, memory_bank_report)
    assert [r.grade_cap.uncapped_grade for r in harmed] == ["A", "B"]
    assert all(letters.index(everything_report.grade) < letters.index(r.grade) for r in harmed)
    assert all(r.grade_cap.capped and r.grade == "C" for r in harmed)
    assert not everything_report.grade_cap.capped


def test_time_server_passes_with_its_strategy() -> None:
    report = grade(venv_script("mcp-server-time"), "mcp-server-time", smoke=True, probes=True, allow_writes=True)
    assert (report.grade, report.score) == ("A", 100.0) and report.subscores["happy"] == 100.0
    assert not_passed(report) == set()


@pytest.fixture(scope="module")
def basic_memory_report() -> Report:
    """One grading run; the strategy gives every server process its own home, so ours stays untouched.

    The six read-only POSIX tools (cat, grep, ls, find, tail, man) are switched off, a setting the
    server offers, to keep this CI run short: each start costs seconds of imports, each tool ~80 calls."""
    argv = [*pypi_server("basic-memory", "0.24.1"), "mcp"]
    home = [Path.home() / ".basic-memory", Path.home() / "basic-memory"]
    before = [p.exists() for p in home]
    report = grade(argv, "basic-memory", env={"BASIC_MEMORY_ENABLE_POSIX_TOOLS": "false"}, smoke=True, probes=True,
                  allow_writes=True, timeout=90.0, startup_timeout=90.0)
    assert report.tools_total == 21
    assert [p.exists() for p in home] == before, "basic-memory wrote to the real home directory"
    return report


def test_basic_memory_title_written_but_not_readable(basic_memory_report: Report) -> None:
    [finding] = probe_results(basic_memory_report, "write_note", "probe-write-not-observable")
    assert (finding.status, finding.confidence) == ("fail", "high")
    write, read = finding.reproduction.calls[:2]
    assert (write.tool, read.tool) == ("write_note", "read_note")
    assert read.arguments["identifier"] == write.arguments["title"]
    assert finding.reproduction.fresh_server


def test_basic_memory_refusal_is_real(basic_memory_report: Report) -> None:
    """Replayed by hand: the write succeeds, read_note refuses the very title it was given."""
    [finding] = probe_results(basic_memory_report, "write_note", "probe-write-not-observable")
    write, read = finding.reproduction.calls[:2]
    shipped = load_strategy("basic-memory")
    target = parse_target([*pypi_server("basic-memory", "0.24.1"), "mcp"], env=shipped.env)
    with Connection(target, timeout=90.0, startup_timeout=90.0) as conn:
        written = conn.call(write.tool, write.arguments)
        answer = conn.call(read.tool, read.arguments)
    assert written.ok and "Created note" in written.text
    assert write.arguments["content"] not in answer.text


def test_basic_memory_grade_is_capped_at_c(basic_memory_report: Report) -> None:
    assert basic_memory_report.grade == "C" and basic_memory_report.grade_cap.uncapped_grade == "A"
    assert basic_memory_report.grade_cap.reasons == ["probe-write-not-observable on write_note"]
    assert basic_memory_report.subscores["happy"] == 100.0
    assert not [r for r in basic_memory_report.results if r.kind == "incident"]


def test_basic_memory_coerces_schema_invalid_scalars(basic_memory_report: Report) -> None:
    """Pydantic's lax mode runs `depth: true` as 1, `compact: 0` as false and `categories: "text"` as
    a list instead of refusing them. Which tools show it depends on the values drawn, so only the
    kind of violation is pinned: a scalar where the schema wants another type."""
    accepted = [r for r in basic_memory_report.results
                if r.kind == "smoke" and r.rule == "edge-accepted-invalid-input"]
    assert accepted and all(r.status == "fail" for r in accepted)
    assert {r.details["keyword"] for r in accepted} == {"type"}
    assert all(isinstance(v, bool | int | str) for r in accepted for v in r.reproduction.calls[0].arguments.values())


def test_basic_memory_never_calls_destructive_tools(basic_memory_report: Report) -> None:
    destructive = ("delete_note", "edit_note", "delete_project")
    verdicts = {(c["check_id"], c["tool_name"]): c["verdict"] for c in basic_memory_report.smoke.checks}
    assert all(verdicts[("smoke_structured_content", tool)] == "skip" for tool in destructive)
    happy = [r for r in basic_memory_report.results if r.tool in destructive and r.check == "happy"]
    assert len(happy) == 3 and {r.status for r in happy} == {"skip"}
    assert not [r for r in basic_memory_report.results if r.tool in destructive and r.kind == "probe"]
    [check] = [c for c in basic_memory_report.smoke.checks if c["check_id"] == "smoke_unknown_tool"]
    assert check["verdict"] == "fail" and "isError" in check["message"]
