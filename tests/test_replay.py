"""Replaying reproductions: `hypothesis_mcp.replay.replay` and `hypothesis-mcp replay REPORT.json`.

A reproduction is replayed on a new server process and its last answer judged again by the rule
that failed: it still fails on the buggy server, and passes once the bug is gone (the correct
twin). The sample server's silent-skip run here is the full grading run of test_scorecard.py
(helpers.sample_probes), kept once per session; the other sample bugs' reproductions are replayed
in test_rule_verdicts.py, on the same runs.
"""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

from helpers import (
    PYTHON,
    Cli,
    CliRun,
    cli,
    command_line,
    error_shapes,
    one,
    sample,
    sample_probes,
    smoke_bug_run,
    smoke_bugs,
)
from hypothesis_mcp import connect, holds
from hypothesis_mcp.cli_targets import shown_env
from hypothesis_mcp.connection import Outcome, parse_target
from hypothesis_mcp.emit import file_name
from hypothesis_mcp.replay import replay
from hypothesis_mcp.report.console import render_console
from hypothesis_mcp.results import Call, Report, Reproduction, Result
from hypothesis_mcp.snippet import program


def _probes(bug: str) -> Report:
    """The run test_scorecard.py and test_reproductions.py read too."""
    return sample_probes(bug)


def _sample_finding(bug: str) -> Result:
    assert bug == "silent-skip"
    return one(_probes(bug), kind="probe", rule="probe-silent-noop", status="fail", tool="create_note")


def test_sample_probe_reproduction_still_fails_with_the_bug() -> None:
    finding = _sample_finding("silent-skip")
    seen: list[tuple[Call, Outcome]] = []
    done = replay(finding, parse_target(sample("silent-skip")),
                  on_step=lambda call, outcome: seen.append((call, outcome)))
    assert done.still_fails, done.verdict
    assert finding.reproduction is not None
    assert [c for c, _ in seen] == finding.reproduction.calls == [c for c, _ in done.steps]
    assert all(outcome.ok for _, outcome in seen), "every call of an effect reproduction reports success"


def test_sample_probe_reproduction_passes_on_the_correct_server() -> None:
    done = replay(_sample_finding("silent-skip"), parse_target(sample()))
    assert not done.still_fails, done.verdict


HTML_EXPORT = Result(
    kind="scenario", check="happy", tool="export_notes", status="fail", rule="happy-output-schema",
    message="declared outputSchema is not honored: 'result' is a required property (at /)",
    reproduction=Reproduction([Call("export_notes", {"format": "html"})], fresh_server=False),
)


def test_happy_failure_replays_on_the_correct_server_too() -> None:
    """The html export is a deliberate flaw of every variant: it still fails everywhere, and the
    verdict says why; the default format passes."""
    done = replay(HTML_EXPORT, parse_target(sample()))
    assert done.still_fails, done.verdict
    assert "result" in done.verdict
    markdown = Result(**{**HTML_EXPORT.__dict__, "reproduction": Reproduction([Call("export_notes", {})])})
    assert not replay(markdown, parse_target(sample())).still_fails


def test_holds_judges_the_calls_made_on_a_connection_as_replay_does() -> None:
    """What a printed program asserts: the last answer on the connection, by the rule of the id."""
    rule = "scenario/happy/happy-output-schema/export_notes"
    with connect(sample()) as server:
        with pytest.raises(ValueError, match="no call was made"):
            holds(server, rule)
        server.call("export_notes", {"format": "html"})
        assert not holds(server, rule)
        server.call("export_notes", {})
        assert holds(server, rule)
        with pytest.raises(ValueError, match="no result id"):
            holds(server, "export_notes")
        with pytest.raises(ValueError, match="expect"):
            holds(server, "probe/round-trip/probe-silent-noop/create_note")


def _smoke_failure(check: str, tool: str, arguments: dict[str, object]) -> Result:
    return Result(kind="smoke", check=check, tool=tool, status="fail", rule=check, message="",
                  reproduction=Reproduction([Call(tool, arguments)], fresh_server=False))


SMOKE_FAILURES = {
    # The minimal arguments test_smoke.py shows the searches shrink to.
    "big-number": _smoke_failure("smoke_structured_content", "square", {"n": 1001}),
    "range-unchecked": _smoke_failure("smoke_invalid_arguments", "score_label", {"n": 11}),
    "enum-unchecked": _smoke_failure("smoke_invalid_arguments", "greeting", {"language": "en-x"}),
    "extra-props": _smoke_failure("smoke_invalid_arguments", "echo", {"message": "", "extra": 1}),
}


def test_smoke_reproduction_found_by_a_run_replays() -> None:
    finding = next(r for r in smoke_bug_run("long-list").results if r.kind == "smoke" and r.status == "fail")
    assert replay(finding, parse_target(smoke_bugs("long-list"))).still_fails
    assert not replay(finding, parse_target(smoke_bugs())).still_fails


@pytest.mark.parametrize("bug", sorted(SMOKE_FAILURES))
def test_smoke_reproduction_replays(bug: str) -> None:
    finding = SMOKE_FAILURES[bug]
    assert replay(finding, parse_target(smoke_bugs(bug))).still_fails
    twin = replay(finding, parse_target(smoke_bugs()))
    assert not twin.still_fails, twin.verdict


def test_replay_from_the_json_report_is_the_same() -> None:
    """What the CLI does: read the result back from JSON and replay it."""
    finding = _sample_finding("silent-skip")
    again = Result.from_dict(json.loads(json.dumps(finding.to_dict())))
    assert again == finding
    assert replay(again, parse_target(sample("silent-skip"))).still_fails


def test_a_result_without_reproduction_has_nothing_to_replay() -> None:
    lint = Result(kind="lint", check="lint", tool="delete_note", status="warn", rule="lint-short-description",
                  message="description is 14 characters")
    done = replay(lint, parse_target(sample()))
    assert done.still_fails is False and done.steps == []
    assert "no reproduction" in done.verdict


# --- hypothesis-mcp replay ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def silent_skip_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "silent-skip.json"
    data = _probes("silent-skip").to_dict()
    if not any(r["rule"] == HTML_EXPORT.rule for r in data["results"]):
        data["results"].append({**HTML_EXPORT.to_dict(), "id": "r999"})
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def test_cli_replay_exits_1_while_the_bug_is_there(silent_skip_report: Path) -> None:
    """In a log 40 columns wide, each call's JSON stays on its one line."""
    finding = _sample_finding("silent-skip")
    run = cli(["replay", str(silent_skip_report), "--result", finding.id], silent_skip_report.parent,
              env={"COLUMNS": "40"})
    assert run.code == 1, run
    assert "still fails" in run.stdout, run
    calls = [line.removeprefix("  call ") for line in run.stdout.splitlines() if line.startswith("  call ")]
    assert calls and any(len(line) > 40 for line in calls), run
    for line in calls:
        tool, arguments = line.split("(", 1)
        assert tool in ("create_note", "list_notes") and isinstance(json.loads(arguments.removesuffix(")")), dict)


def test_cli_replay_exits_0_on_the_correct_server(silent_skip_report: Path) -> None:
    finding = _sample_finding("silent-skip")
    run = cli(["replay", str(silent_skip_report), "--result", finding.id, "--target", command_line(sample())],
              silent_skip_report.parent)
    assert run.code == 0, run
    assert "now passes" in run.stdout, run


def test_cli_replay_every_failure_by_default(silent_skip_report: Path) -> None:
    """Without --result, every failure with a reproduction is replayed: the html export still fails
    on the correct server, so the exit code stays 1."""
    run = cli(["replay", str(silent_skip_report)], silent_skip_report.parent)
    assert run.code == 1, run
    assert "probe-silent-noop" in run.stdout and "happy-output-schema" in run.stdout, run


def test_cli_replay_usage_errors(silent_skip_report: Path, tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"not": "a report"}')
    started = [Cli(["replay", str(silent_skip_report), "--result", "r1234"], tmp_path),
               Cli(["replay", str(tmp_path / "nope.json")], tmp_path),
               Cli(["replay", str(tmp_path / "bad.json")], tmp_path)]
    unknown, missing, bad = (run.wait() for run in started)
    assert unknown.code == 2, unknown
    assert "r1234" in unknown.stderr
    assert missing.code == 2 and "not found" in missing.stderr, missing
    assert bad.code == 2 and "schema_version" in bad.stderr, bad
    assert "Traceback" not in unknown.stderr + missing.stderr + bad.stderr


def test_cli_replay_with_nothing_to_replay(tmp_path: Path) -> None:
    data = _probes("silent-skip").to_dict()
    data["results"] = [r for r in data["results"] if r["status"] == "pass"]
    path = tmp_path / "clean.json"
    path.write_text(json.dumps(data))
    run = cli(["replay", str(path)], tmp_path)
    assert run.code == 0, run
    assert "nothing to replay" in run.stdout


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CliRun]:
    """A run that set the server's TICKET_AUDIT_LOG, with report.json and --emit-tests in its folder."""
    folder = tmp_path_factory.mktemp("audited")
    return folder, cli(["test", "--smoke", "--profile", "grading", "--max-examples", "5", "--env",
                "TICKET_AUDIT_LOG={tmpdir}/audit.log", "--json", "report.json", "--emit-tests", "emitted", "--",
                *error_shapes("json-error")], folder)


def test_cli_replay_needs_the_environment_the_run_set(audited: tuple[Path, CliRun]) -> None:
    """The report keeps the names the run set for the server (never the values) and the target as
    given; a replay without them refuses to start the server and names them, and with them (by
    --env, `{tmpdir}` expanded anew, or from the process environment) it replays where it is told."""
    folder, run = audited
    assert run.code == 0, run
    data = json.loads((folder / "report.json").read_text())
    assert data["server_env"] == ["TICKET_AUDIT_LOG"]
    assert "audit.log" not in json.dumps(data), "an environment value is never written to the report"
    [found] = [r for r in data["results"] if r["rule"] == "error-as-success"]

    refused = cli(["replay", "report.json", "--result", found["id"]], folder)
    assert refused.code == 2, refused
    assert "TICKET_AUDIT_LOG" in refused.stderr and "--env TICKET_AUDIT_LOG=VALUE" in refused.stderr, refused
    assert "call" not in refused.stdout

    fresh = cli(["replay", "report.json", "--result", found["id"], "--env", "TICKET_AUDIT_LOG={tmpdir}/audit.log"],
                folder)
    assert fresh.code == 1 and "still fails" in fresh.stdout, fresh

    audit = folder / "audit.log"
    here = cli(["replay", "report.json", "--result", found["id"]], folder, env={"TICKET_AUDIT_LOG": str(audit)})
    assert here.code == 1 and "still fails" in here.stdout, here
    assert audit.read_text().splitlines()[-1] == "get_ticket"

    # The console's replay line carries the run's environment: it runs as printed.
    [printed] = [line.strip().removeprefix("replay: ") for line in run.stdout.splitlines()
                 if line.strip().startswith("replay: ") and f"'{found['id']}'" in line]
    assert printed.endswith(" --env 'TICKET_AUDIT_LOG={tmpdir}/audit.log'"), printed
    as_printed = cli(shlex.split(printed)[1:], folder)
    assert as_printed.code == 1 and "still fails" in as_printed.stdout, as_printed


def test_a_printed_program_runs_with_the_runs_environment(tmp_path: Path) -> None:
    """The console's program for a failure found with `--env NAME={tmpdir}/...` makes that folder
    itself and gives the server the variable: the desk logs each call there, never elsewhere."""
    argv = error_shapes("json-error")
    result = Result(kind="scenario", check="error-as-success", tool="get_ticket", status="fail",
                    rule="error-as-success", message="get_ticket answered an error as a success",
                    id="scenario/error-as-success/error-as-success/get_ticket",
                    reproduction=Reproduction([Call("get_ticket", {"ticket_id": 1})], fresh_server=False))
    lines = program(result, command_line(argv), env={"TICKET_AUDIT_LOG": "{tmpdir}/audit.log"})
    script = tmp_path / "repro.py"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    for server, code in ((argv, 1), (error_shapes(), 0)):
        text = "\n".join(lines).replace(command_line(argv), command_line(server))
        script.write_text(text + "\n", encoding="utf-8")
        done = subprocess.run([PYTHON, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                              env={**os.environ, "TMPDIR": str(scratch)})
        assert done.returncode == code, (text, done.stderr[-2000:])
        if code:
            assert f"AssertionError: {result.message}" in done.stderr, done.stderr[-2000:]
    logs = sorted(scratch.rglob("audit.log"))
    assert len(logs) == 2 and all(log.read_text().splitlines() == ["get_ticket"] for log in logs), logs


def test_an_emitted_test_needs_the_environment_the_run_set(audited: tuple[Path, CliRun], tmp_path: Path) -> None:
    """The pytest file `--emit-tests` writes knows the run's environment names: without them it is
    skipped, naming them, before any server starts; with them it gives them to the server it starts."""
    folder, run = audited
    assert run.code == 0, run
    data = json.loads((folder / "report.json").read_text())
    [found] = [r for r in data["results"] if r["rule"] == "error-as-success"]
    path = folder / "emitted" / file_name(Result.from_dict(found), data["target"], folder / "emitted")
    assert "TICKET_AUDIT_LOG" in path.read_text() and "audit.log" not in path.read_text()
    command = [PYTHON, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", str(path)]
    bare = {k: v for k, v in os.environ.items() if k != "TICKET_AUDIT_LOG"}
    skipped = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300, env=bare)
    assert skipped.returncode == 0 and "1 skipped" in skipped.stdout, skipped.stdout[-2000:]
    assert "the run set TICKET_AUDIT_LOG for the server" in skipped.stdout, skipped.stdout[-2000:]

    audit = tmp_path / "audit.log"
    ran = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env={**bare, "TICKET_AUDIT_LOG": str(audit)})
    assert ran.returncode == 1 and "error-as-success on server" in ran.stdout, ran.stdout[-2000:]
    assert audit.read_text().splitlines()[-1] == "get_ticket"
    fresh = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300,
                           env={**bare, "TICKET_AUDIT_LOG": "{tmpdir}/audit.log",
                                "HYPOTHESIS_MCP_TARGET": command_line(error_shapes())})
    assert fresh.returncode == 0 and "1 passed" in fresh.stdout, fresh.stdout[-2000:]


def test_a_value_passed_through_from_the_environment_is_never_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--env TOKEN="$TOKEN"`: the program reads TOKEN from its own environment and the replay line
    leaves it to the environment too; a value given on the command line is printed as given, and one
    a client config file holds (not typed) is read from the environment."""
    monkeypatch.setenv("HM_TEST_TOKEN", "s3cret-value")
    typed = {"HM_TEST_TOKEN": "s3cret-value", "DATA_FILE": "{tmpdir}/data.json"}
    assert shown_env({**typed, "CONFIG_TOKEN": "from-a-file"}, typed)["CONFIG_TOKEN"] is None
    env = shown_env(typed, typed)
    assert env == {"HM_TEST_TOKEN": None, "DATA_FILE": "{tmpdir}/data.json"}
    found = replace(HTML_EXPORT, id="scenario/happy/happy-output-schema/export_notes")
    report = Report(tool={}, target=command_line(sample()), profile="grading", seed=None, server={},
                    results=[found], server_env=sorted(env))
    console = Console(file=io.StringIO(), width=100, color_system=None)
    render_console(report, console, report_path="report.json", server_env=env)
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "s3cret-value" not in shown, shown
    assert 'env={"HM_TEST_TOKEN": os.environ["HM_TEST_TOKEN"], "DATA_FILE": folder + "/data.json"}' in shown, shown
    assert "--result 'scenario/happy/happy-output-schema/export_notes' --env 'DATA_FILE={tmpdir}/data.json'\n" \
        in shown, shown
