"""Known outcomes on official public servers at pinned versions, with their shipped strategies."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hypothesis_mcp.connection import Connection, parse_target
from hypothesis_mcp.engine import RunOptions, run
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.results import Report
from hypothesis_mcp.shipped import load_strategy
from public_servers import npm_server, pypi_server, venv_script

pytestmark = pytest.mark.slow


def _run(argv: list[str], strategy: str, *, env: dict[str, str] | None = None, **options: object) -> Report:
    shipped = load_strategy(strategy)
    target = parse_target(argv, env={**shipped.env, **(env or {})})
    return run(target, RunOptions(profile=make_profile("grading"), probe_config=shipped.config,
                                  overrides=None, **options))  # type: ignore[arg-type]


def _probe(report: Report, tool: str, rule: str) -> list:
    return [r for r in report.results if r.kind == "probe" and r.tool == tool and r.rule == rule]


@pytest.fixture(scope="module")
def memory_report() -> Report:
    argv = npm_server("server-memory", "2026.8.31")
    return _run(argv, "server-memory", smoke=True, probes=True, allow_writes=True)


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
    [finding] = _probe(memory_report, "create_entities", "probe-silent-noop")
    assert (finding.status, finding.confidence) == ("fail", "high")
    calls = finding.reproduction.calls
    assert [c.tool for c in calls] == ["create_entities", "read_graph", "create_entities", "read_graph"]
    first, again = calls[0].arguments["entities"][0], calls[2].arguments["entities"][0]
    assert first["name"] == again["name"] and first["observations"] != again["observations"]


def test_memory_grade_is_capped_at_c(memory_report: Report) -> None:
    assert memory_report.grade == "C"
    assert memory_report.grade_cap.capped and memory_report.grade_cap.uncapped_grade == "A"
    assert memory_report.grade_cap.reasons == ["probe-silent-noop on create_entities"]
    assert memory_report.score >= 90


def test_memory_smoke_unknown_tool_is_an_iserror_result(memory_report: Report) -> None:
    [check] = [c for c in memory_report.smoke.checks if c["check_id"] == "smoke_unknown_tool"]
    assert check["verdict"] == "fail" and "isError" in check["message"]


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    """The folder the filesystem strategy names, with a ten-line file."""
    folder = Path("/tmp/hm-sandbox")
    folder.mkdir(exist_ok=True)
    (folder / "ten.txt").write_text("".join(f"line {i}\n" for i in range(1, 11)))
    return folder


@pytest.mark.parametrize("version", ["2026.8.31", "2.0.1"])
def test_filesystem_head_and_tail_zero_are_flagged(version: str, sandbox: Path) -> None:
    argv = [*npm_server("server-filesystem", version), str(sandbox)]
    report = _run(argv, "server-filesystem", probes=True)
    flagged = {(r.reproduction.calls[0].arguments.get("head"), r.reproduction.calls[0].arguments.get("tail"))
               for r in _probe(report, "read_text_file", "probe-bound-exceeded")}
    assert (0, None) in flagged and (None, 0) in flagged
    declared = [r for r in _probe(report, "read_text_file", "probe-bound-exceeded") if r.confidence == "high"]
    assert declared and all(r.status == "fail" for r in declared)
    assert (sandbox / "ten.txt").read_text().startswith("line 1\n"), "a probe changed the sandbox file"


def test_time_server_passes_with_its_strategy() -> None:
    report = _run(venv_script("mcp-server-time"), "mcp-server-time", smoke=True, probes=True)
    assert report.grade == "A" and report.subscores["happy"] == 100.0
    assert not [r for r in report.results if r.status == "fail"]


@pytest.fixture
def git_repo() -> Path:
    repo = Path("/tmp/hm-git")
    if not (repo / ".git").is_dir():
        repo.mkdir(exist_ok=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com",
                        "commit", "-q", "--allow-empty", "-m", "start"], check=True)
    return repo


def test_git_server_read_tools_answer_with_its_strategy(git_repo: Path) -> None:
    argv = [*venv_script("mcp-server-git"), "--repository", str(git_repo)]
    report = _run(argv, "mcp-server-git", smoke=True, read_only=True)
    happy = {r.tool: r.status for r in report.results if r.kind == "scenario" and r.check == "happy"}
    assert happy["git_status"] == "pass" and happy["git_log"] == "pass"
    assert not [r for r in report.results if r.kind == "incident"]


@pytest.fixture(scope="module")
def basic_memory_report() -> Report:
    """One grading run; the strategy gives every server process its own home, so ours stays untouched.

    The six read-only POSIX tools (cat, grep, ls, find, tail, man) are switched off, a setting the
    server offers, to keep this CI run short: each start costs seconds of imports, each tool ~80 calls."""
    argv = [*pypi_server("basic-memory", "0.24.1"), "mcp"]
    home = [Path.home() / ".basic-memory", Path.home() / "basic-memory"]
    before = [p.exists() for p in home]
    report = _run(argv, "basic-memory", env={"BASIC_MEMORY_ENABLE_POSIX_TOOLS": "false"}, smoke=True, probes=True,
                  allow_writes=True, timeout=90.0, startup_timeout=90.0)
    assert report.tools_total == 21
    assert [p.exists() for p in home] == before, "basic-memory wrote to the real home directory"
    return report


def test_basic_memory_title_written_but_not_readable(basic_memory_report: Report) -> None:
    [finding] = _probe(basic_memory_report, "write_note", "probe-write-not-observable")
    assert (finding.status, finding.confidence) == ("fail", "high")
    write, read = finding.reproduction.calls[:2]
    assert (write.tool, read.tool) == ("write_note", "read_note")
    assert read.arguments["identifier"] == write.arguments["title"]
    assert finding.reproduction.fresh_server


def test_basic_memory_refusal_is_real(basic_memory_report: Report) -> None:
    """Replayed by hand: the write succeeds, read_note refuses the very title it was given."""
    [finding] = _probe(basic_memory_report, "write_note", "probe-write-not-observable")
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
