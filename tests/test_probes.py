"""Effect probes end to end on tests/servers/probe_bugs.py and its correct twin.

Each bug needs more than a few fixed steps: a fourth record (evict-after-3), a shorter overwrite
(noop-some-values), a limit above 5 with enough records (bound-over-5), a tail of 3 or more on a
value of more lines (tail-off-by-one). All four are found by the grading profile, with no seed:
the first example of every write tool stores ten or more records, the newest with long texts of
numbered lines, then asks each head/tail reader for half of its lines and each bounded reader for
one item fewer than it stored. Every reproduction is replayed on a fresh server: it must still
fail on the buggy server and pass on the correct twin.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from hypothesis import Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from helpers import (
    ROOT,
    SERVE,
    engine,
    grading,
    http_server,
    one,
    probe_bugs,
    problems,
    results,
    sample,
    seeded,
    shared_run,
    summary,
    without_duration,
)
from hypothesis_mcp.connection import Target, parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report, Result
from hypothesis_mcp.stateful import ProbeFailure, effect_machine
from hypothesis_mcp.stateful.config import parse_config
from hypothesis_mcp.strategies import Overrides

FAST = grading(max_examples=10)


@pytest.fixture(scope="module")
def twin() -> Report:
    return engine(probe_bugs(), FAST, probes=True, allow_writes=True)


@pytest.fixture(scope="module")
def evict() -> Report:
    return engine(probe_bugs("evict-after-3"), FAST, probes=True, allow_writes=True)


@pytest.fixture(scope="module")
def noop() -> Report:
    return engine(probe_bugs("noop-some-values"), grading(), probes=True, allow_writes=True)


@pytest.fixture(scope="module")
def bound_over_5() -> Report:
    return engine(probe_bugs("bound-over-5"), FAST, probes=True, allow_writes=True)


@pytest.fixture(scope="module")
def tail_off_by_one() -> Report:
    """The run test_rule_verdicts.py replays too."""
    return shared_run(probe_bugs("tail-off-by-one"), FAST, probes=True, allow_writes=True)


@pytest.fixture(scope="module")
def silent_skip_over_http() -> Iterator[tuple[str, Report]]:
    with http_server(sample("silent-skip")) as url:
        yield url, engine(url, FAST, probes=True, allow_writes=True)


# --- the control -------------------------------------------------------------------------------

def test_twin_has_no_probe_failure_or_warning(twin: Report) -> None:
    probes = results(twin, kind="probe")
    assert probes, "the probes ran"
    assert [r for r in probes if r.status in ("fail", "warn")] == [], summary(twin)
    assert problems(twin) == [], summary(twin)
    trip = one(twin, kind="probe", check="round-trip", tool="create_record")
    assert (trip.status, trip.confidence) == ("pass", "high")
    assert one(twin, kind="probe", check="bound", tool="list_records").status == "pass"
    assert twin.grade == "A" and twin.grade_cap.reasons == []


# --- each bug ----------------------------------------------------------------------------------

def test_evict_after_3_is_data_lost(evict: Report) -> None:
    failure = one(evict, kind="probe", rule="probe-data-lost")
    assert (failure.tool, failure.status, failure.confidence) == ("create_record", "fail", "high")
    assert failure.reproduction is not None and failure.reproduction.fresh_server
    writes = [c for c in failure.reproduction.calls if c.tool == "create_record"]
    assert len(writes) == 4, failure.reproduction.calls
    assert len({w.arguments["name"] for w in writes}) == 4, "four distinct records: the fourth evicts the first"
    assert failure.reproduction.calls[-1].tool != "create_record", "it ends with the read that misses a record"
    assert evict.grade == "C" and evict.grade_cap.reasons == ["probe-data-lost on create_record"]


def test_noop_some_values_is_a_silent_noop(noop: Report) -> None:
    failure = one(noop, kind="probe", rule="probe-silent-noop")
    assert (failure.tool, failure.status, failure.confidence) == ("create_record", "fail", "high")
    calls = failure.reproduction.calls if failure.reproduction else []
    writes = [c.arguments for c in calls if c.tool == "create_record"]
    last = writes[-1]
    earlier = [w for w in writes[:-1] if w["name"] == last["name"]]
    assert earlier, f"the last write overwrites an earlier key: {calls}"
    assert len(last["value"]) < len(earlier[-1]["value"]), "with a shorter value, which the bug ignores"
    assert calls[-1].tool != "create_record", "it ends with the read that still shows the old value"


def test_bound_over_5_is_found_by_the_grading_profile(bound_over_5: Report) -> None:
    warning = one(bound_over_5, kind="probe", rule="probe-bound-exceeded", status="warn")
    # The limit is taken for a bound from its name: a guess, so the warning is low (docs/probes.md).
    assert (warning.tool, warning.status, warning.confidence) == ("list_records", "warn", "low")
    assert warning.reproduction is not None
    last = warning.reproduction.calls[-1]
    assert last.tool == "list_records" and last.arguments["limit"] > 5, warning.reproduction.calls
    assert bound_over_5.grade_cap.capped is False, "a warning never caps"


def test_tail_off_by_one_is_found_by_the_grading_profile(tail_off_by_one: Report) -> None:
    warning = one(tail_off_by_one, kind="probe", rule="probe-bound-exceeded", status="warn")
    assert (warning.tool, warning.status, warning.confidence) == ("read_lines", "warn", "low")
    assert warning.reproduction is not None
    last = warning.reproduction.calls[-1]
    assert last.tool == "read_lines" and last.arguments["tail"] >= 3, warning.reproduction.calls
    assert len(warning.reproduction.calls) == 3, "the long record's write, its full read, its tail read"


# --- every reproduction replays: still fails on the bug, passes on the twin --------------------

FINDINGS = {
    "evict": ("evict-after-3", "probe-data-lost"),
    "noop": ("noop-some-values", "probe-silent-noop"),
    "bound_over_5": ("bound-over-5", "probe-bound-exceeded"),
    "tail_off_by_one": ("tail-off-by-one", "probe-bound-exceeded"),
}
STATUS = {
    "evict": "fail", "noop": "fail", "bound_over_5": "warn", "tail_off_by_one": "warn",
}


def _finding(request: pytest.FixtureRequest, name: str) -> tuple[str, Result]:
    bug, rule = FINDINGS[name]
    report: Report = request.getfixturevalue(name)
    return bug, one(report, kind="probe", rule=rule, status=STATUS[name])


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_reproduction_still_fails_on_the_buggy_server(request: pytest.FixtureRequest, name: str) -> None:
    bug, finding = _finding(request, name)
    done = replay(finding, parse_target(probe_bugs(bug)))
    assert done.still_fails, f"{done.verdict}\n{[(c.tool, c.arguments) for c, _ in done.steps]}"
    assert len(done.steps) == len(finding.reproduction.calls if finding.reproduction else [])


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_reproduction_passes_on_the_correct_twin(request: pytest.FixtureRequest, name: str) -> None:
    """Regression (found here, fixed in da4c9c9): a reproduction made smaller by cutting marked
    values to their bare markers kept the expectation recorded for the original values, so every
    server, the twin included, "still failed" it."""
    _, finding = _finding(request, name)
    done = replay(finding, parse_target(probe_bugs()))
    assert not done.still_fails, f"{done.verdict}\n{[(c.tool, c.arguments) for c, _ in done.steps]}"


def test_tail_reproduction_shows_the_extra_line(tail_off_by_one: Report) -> None:
    """The replayed tail read itself returns more lines than asked for on the buggy server
    (regression: the reduced reproduction once read back a one-line value)."""
    finding = one(tail_off_by_one, kind="probe", rule="probe-bound-exceeded", status="warn")
    done = replay(finding, parse_target(probe_bugs("tail-off-by-one")))
    call, outcome = done.steps[-1]
    got = outcome.value()["lines"]
    assert len(got) > call.arguments["tail"], (call, got)


# --- over streamable HTTP: one shared server, markers keep examples apart ----------------------

def test_silent_skip_found_over_http(silent_skip_over_http: tuple[str, Report]) -> None:
    url, report = silent_skip_over_http
    assert report.target == url
    assert "shared server" in report.isolation
    failure = one(report, kind="probe", rule="probe-silent-noop")
    assert (failure.tool, failure.confidence) == ("create_note", "high")
    assert failure.reproduction is not None and failure.reproduction.fresh_server is False
    assert report.grade == "C"
    done = replay(failure, parse_target(url))
    assert done.still_fails, done.verdict


# --- a seed makes a run repeatable --------------------------------------------------------------

def test_a_seed_makes_probes_repeatable() -> None:
    """docs/scoring.md: `--seed N` makes any profile repeatable, effect probes included
    (regression: the state machines once ran unseeded, fixed in 575f519)."""
    first = engine(probe_bugs(), seeded(5, max_examples=6), probes=True, allow_writes=True).to_dict()
    second = engine(probe_bugs(), seeded(5, max_examples=6), probes=True, allow_writes=True).to_dict()
    assert without_duration(first) == without_duration(second), (first["stats"], second["stats"])


# --- effect_machine, the same machine for a user's own suite -------------------------------------

def _servers_in(folder: Path) -> list[int]:
    """Live processes whose working directory is `folder` (the servers started there)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if Path(os.readlink(entry / "cwd")) == folder and state != "Z":
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_effect_machine_leaves_no_server_running(tmp_path: Path) -> None:
    """Spare servers started in the background do not outlive the state machine's run
    (regression: effect_machine's pool was never closed, fixed in 575f519)."""
    target = Target(command=tuple(probe_bugs()), cwd=str(tmp_path))
    machine = effect_machine(target, write="create_record")
    run_state_machine_as_test(machine, settings=settings(max_examples=2, stateful_step_count=3, deadline=None))
    deadline = time.monotonic() + 5
    while _servers_in(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _servers_in(tmp_path)
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    assert not left, f"{len(left)} server process(es) still running after the state machine finished"


def test_effect_machine_finds_data_loss() -> None:
    machine = effect_machine(probe_bugs("evict-after-3"), write="create_record")
    with pytest.raises(ProbeFailure) as caught:
        run_state_machine_as_test(machine, settings=settings(max_examples=20, stateful_step_count=12, deadline=None,
                                                             phases=[Phase.explicit, Phase.generate]))
    assert caught.value.finding.rule == "probe-data-lost"
    assert caught.value.finding.confidence == "high"


def test_read_only_bounds_run_on_a_fresh_server() -> None:
    """Read-only bound probes run on a server of their own in its initial state, not on the
    connection the scenarios already wrote to: the bound-over-5 server starts empty, so without
    --allow-writes there is nothing to bound and no warning (whose one-call reproduction could not
    replay from a fresh server)."""
    report = engine(probe_bugs("bound-over-5"), seeded(1), probes=True)  # --probes without --allow-writes
    bounds = [r for r in report.results if r.kind == "probe" and r.tool == "list_records"]
    assert [(r.rule, r.status) for r in bounds] == [("bound", "pass")]


def test_unobservable_write_is_reproduced_by_a_reader_that_answers() -> None:
    """A write no reader shows: the reproduction ends with the surest reader's answer, which a replay
    judges, not with whichever reader came last (read_lines refuses an unknown name); the other
    reads are dropped. Regression: the last call was an error, so the replay said "passes"."""
    report = engine(probe_bugs("ghost-writes"), grading(max_examples=3), probes=True, allow_writes=True)
    finding = one(report, kind="probe", rule="probe-write-not-observable", tool="create_record")
    assert finding.reproduction is not None
    calls = finding.reproduction.calls
    assert len(calls) == 2 and calls[0].tool == "create_record", calls
    assert calls[1].tool != "read_lines", calls
    buggy = replay(finding, parse_target(probe_bugs("ghost-writes")))
    assert buggy.still_fails, buggy.verdict
    correct = replay(finding, parse_target(probe_bugs()))
    assert not correct.still_fails, correct.verdict


# --- declared checks: the example config, a failing agreement, and calls a config may not make ----

def test_declared_config_on_the_sample_server() -> None:
    """examples/probes/notes-probes.yaml passes on the correct server, all high confidence; an
    agreement that cannot hold (one note listed against all) fails with a two-call reproduction that
    replays; declared calls to a destructive tool, or to a write tool without --allow-writes, are
    skipped, never made."""
    data = yaml.safe_load((ROOT / "examples/probes/notes-probes.yaml").read_text())
    data["agreements"].append({"id": "one-is-all", "left": {"tool": "list_notes", "args": {"limit": 100},
                                                            "field": "title"},
                               "right": {"tool": "list_notes", "args": {"limit": 1}}, "expect": "equal"})
    data["agreements"].append({"id": "writes", "left": {"tool": "create_note", "args": {"title": "t", "body": "b"}},
                               "right": {"tool": "list_notes"}})
    data["idempotent"].append({"tool": "delete_note", "args": {"title": "Welcome"}})
    report = engine(sample(), FAST, probes=True, probe_config=parse_config(data))
    declared = {(r.check, r.tool, r.basis): r for r in results(report, kind="probe") if "declared" in r.basis}
    passing = [r for r in declared.values() if r.status == "pass"]
    assert {(r.check, r.tool) for r in passing} == {("bound", "list_notes"), ("agreement", "search_notes"),
                                                     ("idempotent", "list_notes")}, summary(report)
    assert all(r.confidence == "high" for r in passing)
    failure = one(report, kind="probe", rule="probe-paths-disagree", status="fail")
    assert (failure.tool, failure.confidence) == ("list_notes", "high")
    assert failure.reproduction is not None and failure.reproduction.fresh_server is False
    assert [(c.tool, c.arguments) for c in failure.reproduction.calls] == [
        ("list_notes", {"limit": 100}), ("list_notes", {"limit": 1})]
    assert replay(failure, parse_target(sample())).still_fails
    assert not replay(failure, parse_target(sample("limit-ignored"))).still_fails, "a list that ignores limit agrees"
    skipped = {r.tool: r.message for r in results(report, kind="probe", status="skip")}
    assert "name it under writes" in skipped["delete_note"]
    assert "--allow-writes" in skipped["create_note"]
    assert any("1 probe(s) skipped because they write (create_note)" in n for n in report.notes), report.notes


def test_a_kept_probe_failure_is_replayed_first_and_forgotten_once_fixed(tmp_path: Path) -> None:
    """With an example folder (as the default profile has): the silent no-op found once is kept,
    the next run replays that very sequence on a fresh server before exploring, and a run on the
    fixed server passes and forgets it."""
    profile = replace(FAST, database_dir=str(tmp_path))
    found = engine(sample("silent-skip"), profile, probes=True, allow_writes=True)
    first = one(found, rule="probe-silent-noop")
    def kept() -> list[Path]:
        return [f for f in (tmp_path / "failures").glob("*.json") if '"probe:create_note:' in f.read_text()]

    assert len(kept()) == 1
    again = engine(sample("silent-skip"), profile, probes=True, allow_writes=True)
    replayed = one(again, rule="probe-silent-noop")
    assert replayed.reproduction is not None and first.reproduction is not None
    assert replayed.reproduction.calls == first.reproduction.calls
    assert again.stats.examples < found.stats.examples, "no state machine explored the second time"
    fixed = engine(sample(), profile, probes=True, allow_writes=True)
    assert one(fixed, tool="create_note", kind="probe").status == "pass"
    assert not kept()


def test_a_limit_on_text_answers_is_not_judged_and_says_why() -> None:
    """Text lines are no count of items: even a limit the server ignores is not judged on them, and
    the bound result says so instead of blaming the starting arguments."""
    argv = [*SERVE, str(ROOT / "tests/servers/text_lists.py"), "--bug", "limit-ignored"]
    report = engine(argv, probes=True, overrides=Overrides.parse(["find_items:query=x"]))
    for name in ("list_items", "find_items"):
        result = one(report, tool=name, kind="probe")
        assert result.status == "inconclusive" and "answers with no list of items" in result.message, result
    assert report.grade == "A" and not problems(report)
