"""Deletes delete (tests/servers/record_deletes.py: a notes store with a keyed get and isError refusals,
a deck store with a listing and {"error": ...} refusals): behind --allow-deletes, after a delete the
server reported as done no reader shows the record, every other record stays, and a second delete
is no error reported as success.

Each bug is found with no probe config and two examples per effect machine (helpers.hunting), at
high confidence on facts the reproduction shows where the delete is annotated destructiveHint (low
where only its words say it deletes: words never decide a verdict); the reproduction replays on the
buggy store and not on its twin, and loses its failure without any one call that is not what the
finding is about. The twins draw no finding under the full grading profile.
Without --allow-deletes no deleting tool is called at all, and with it every delete names a record
an earlier write of the run made (the server logs every call it gets).
With the laws machine on (`laws: true`), law 4 judges the removals it learned and the removal probe
runs only on those it did not: each bug is still found under the same rule, on the same tool, at
the same confidence, and the twins stay clean.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from helpers import ROOT, SERVE, cli, engine, grading, hunting, results
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.profiles import Profile
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Reproduction, Result
from hypothesis_mcp.rules.expectations import from_dict
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.stateful.deletes import pinned
from hypothesis_mcp.stateful.judge import ProbeFinding

RUNS = {"twin": (), "kept": ("notes-kept", "deck-neighbour"), "neighbour": ("notes-neighbour", "deck-kept"),
        "again": ("notes-again",)}
FOUND = [("kept", "delete_note", "probe-delete-kept"), ("kept", "deck.drop", "probe-delete-took-other"),
         ("neighbour", "delete_note", "probe-delete-took-other"), ("neighbour", "deck.drop", "probe-delete-kept"),
         ("again", "delete_note", "probe-delete-again-succeeded")]
DELETES = ("delete_note", "deck.drop")
DECLARED = ("delete_note",)
"""The deletes annotated destructiveHint; deck.drop only says in its description that it deletes."""
WRITES = {"add_note": "title", "deck.put": "label"}
LOGS = Path(tempfile.mkdtemp(prefix="record-deletes-"))
_reports: dict[tuple[str, bool], Report] = {}
_laws: dict[tuple[str, str], Report] = {}


def store(bugs: tuple[str, ...], log: Path | None = None) -> list[str]:
    return [*SERVE, str(ROOT / "tests/servers/record_deletes.py"), *(a for b in bugs for a in ("--bug", b)),
            *(["--log", str(log)] if log else [])]


def log_of(name: str, deletes: bool) -> Path:
    return LOGS / f"{name}-{'deletes' if deletes else 'writes'}.log"


def profile(name: str, deletes: bool) -> Profile:
    """The twin under the grading profile, a buggy store with two examples per effect machine."""
    if not deletes:
        return grading(max_examples=5)
    return grading() if name == "twin" else hunting()


def run(name: str, deletes: bool = True) -> Report:
    """A grading run of the store; without --allow-deletes a short one (it only has to show what is called)."""
    if (name, deletes) not in _reports:
        _reports[name, deletes] = engine(store(RUNS[name], log_of(name, deletes)),
                                         profile(name, deletes),
                                         probes=True, allow_writes=True, allow_deletes=deletes)
    return _reports[name, deletes]


def laws_run(name: str) -> Report:
    """The same run with the laws machine on: law 4 takes the removals it judges."""
    if (name, "laws") not in _laws:
        _laws[name, "laws"] = engine(store(RUNS[name]), profile(name, True), probes=True, allow_writes=True,
                                     allow_deletes=True, probe_config=ProbeConfig(laws=True))
    return _laws[name, "laws"]


def logged(name: str, deletes: bool) -> list[dict[str, Any]]:
    run(name, deletes)
    return [json.loads(line) for line in log_of(name, deletes).read_text(encoding="utf-8").splitlines()]


def finding(name: str, tool: str, rule: str) -> Result:
    report = run(name)
    found = [r for r in results(report, kind="probe", tool=tool, rule=rule) if r.status in ("fail", "warn")]
    assert found, [(r.tool, r.rule, r.status, r.message) for r in results(report, kind="probe")]
    return found[0]


def test_without_allow_deletes_no_deleting_tool_is_called() -> None:
    calls = logged("twin", deletes=False)
    assert any(c["tool"] in WRITES for c in calls), "the run wrote nothing: the test shows nothing"
    assert not [c for c in calls if c["tool"] in DELETES]
    assert not results(run("twin", deletes=False), kind="probe", check="deletes")


def test_every_delete_names_a_record_the_run_wrote() -> None:
    written: set[str] = set()
    deleted = 0
    for call in logged("twin", deletes=True):
        if call["tool"] in WRITES:
            written.add(call["arguments"][WRITES[call["tool"]]])
        elif call["tool"] in DELETES:
            deleted += 1
            key = next(iter(call["arguments"].values()))
            assert key.startswith("hm"), call  # the run's own marker, or a key never written (never a record)
            assert key in written or not any(w.startswith(key[:10]) for w in written), call
    assert deleted


def test_allow_deletes_needs_allow_writes(tmp_path: Path) -> None:
    done = cli(["test", "--probes", "--allow-deletes", "--", *store(())], tmp_path)
    assert done.code == 2, done
    assert "--allow-deletes" in done.stderr and "--allow-writes" in done.stderr, done
    assert "Traceback" not in done.stderr, done


def test_the_twins_draw_no_finding_and_their_deletes_pass() -> None:
    report = run("twin")
    found = [r for r in results(report, kind="probe") if r.status in ("fail", "warn")]
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
    passed = {r.tool for r in results(report, kind="probe", check="deletes") if r.status == "pass"}
    assert passed == set(DELETES)


@pytest.mark.parametrize(("name", "tool", "rule"), FOUND)
def test_each_delete_bug_is_found_and_replays_on_a_fresh_server(name: str, tool: str, rule: str) -> None:
    result = finding(name, tool, rule)
    if tool in DECLARED:
        assert (result.status, result.confidence) == ("fail", "high")
        assert all(f["evidence"] == "shown" for f in result.details["rests_on"]), result.details["rests_on"]
    else:  # that it deletes is only its words: a guess, so the finding is low
        assert (result.status, result.confidence) == ("warn", "low")
        [guess] = [f for f in result.details["rests_on"] if f["evidence"] != "shown"]
        assert guess["source"] == "a delete verb in its name or description", guess
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert replay(result, parse_target(store(RUNS[name]))).still_fails
    assert not replay(result, parse_target(store(()))).still_fails


@pytest.mark.parametrize(("name", "tool", "rule"), FOUND)
def test_no_call_of_the_reproduction_can_go(name: str, tool: str, rule: str) -> None:
    """Every call but those the finding is about (the delete it judges, the judged call, the writes
    of what that call looks for, the read that showed a lost record first) is needed: without it a
    replay passes. Those kept are what the finding names, and the reproduction holds nothing else."""
    result = finding(name, tool, rule)
    assert result.reproduction is not None
    calls = result.reproduction.calls
    write = next(c.tool for c in calls if c.tool in WRITES)
    about = pinned(ProbeFinding(rule, tool, result.message, "high", "", calls=list(calls),
                                expect=from_dict(result.details["expect"])), write)
    assert calls[max(i for i in about if i < len(calls) - 1 and calls[i].tool == tool)].tool == tool
    target = parse_target(store(RUNS[name]))
    for index in range(len(calls)):
        if index in about:
            continue
        shorter = Reproduction(calls[:index] + calls[index + 1:], fresh_server=True)
        assert not replay(replace(result, reproduction=shorter), target).still_fails, (index, calls)
    assert len(calls) <= len(about) + 1


@pytest.mark.parametrize(("name", "tool", "rule"), FOUND)
def test_with_the_laws_machine_each_delete_bug_is_still_found(name: str, tool: str, rule: str) -> None:
    """Under `laws: true` the same rule on the same tool, as sure as the removal probe draws it: high
    where the delete declares destructiveHint; where only its words say it deletes, low, or high where
    an experiment showed it removing records (deck-neighbour's drop removes), every fact then shown.
    Each replays on the buggy store from a fresh server and not on its twin."""
    report = laws_run(name)
    found = [r for r in results(report, kind="probe", tool=tool, rule=rule) if r.status in ("fail", "warn")]
    assert found, [(r.tool, r.rule, r.status, r.confidence, r.basis) for r in results(report, kind="probe")]
    result = found[0]
    shown = all(f["evidence"] == "shown" for f in result.details["rests_on"])
    if tool in DECLARED or shown:
        assert (result.status, result.confidence, shown) == ("fail", "high", True), result.details["rests_on"]
    else:
        assert (result.status, result.confidence) == ("warn", "low")
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert replay(result, parse_target(store(RUNS[name]))).still_fails
    assert not replay(result, parse_target(store(()))).still_fails


def test_with_the_laws_machine_the_twins_stay_clean_and_law_4_takes_the_removals() -> None:
    """On the twins law 4 judges the removals it made beside another record of the same store (the
    notes'): the removal probe does not run on those (the report's notes say so), runs on each other
    and passes, and nothing is drawn."""
    report = laws_run("twin")
    found = [r for r in results(report, kind="probe") if r.status in ("fail", "warn")]
    assert not found, [(r.tool, r.rule, r.confidence, r.message) for r in found]
    [note] = [n for n in report.notes if "law 4" in n]
    probed = {r.tool: r.status for r in results(report, kind="probe", check="deletes")}
    assert "add_note through delete_note" in note, note
    for write, delete in zip(WRITES, DELETES, strict=True):
        assert (f"{write} through {delete}" in note) != (probed.get(delete) == "pass"), (note, probed)
