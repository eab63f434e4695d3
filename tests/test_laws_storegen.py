"""Generated store servers with one bug each, and their correct twins, graded as `hypothesis-mcp test
--smoke --probes --allow-writes --allow-deletes --profile grading` grades them: twins draw no medium
or high finding, and each bug the tool finds on this sample is found by the law it breaks
(bench/bench_laws_storegen.py runs seeds 0-199; this is a sample that fits the suite's budget)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from helpers import hunting, shared_run
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.profiles import Profile
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Result
from hypothesis_mcp.stateful.config import ProbeConfig
from storegen_laws import ERROR_AS_SUCCESS, Pair, findings, judge, serious_alarms
from storegen_truth import SKIP_REASON, TWIN, command, describe, storegen_dir

pytestmark = pytest.mark.skipif(storegen_dir() is None, reason=SKIP_REASON)

SAMPLE = {28: "field-dropped", 21: "evicts-silently"}
"""Seeds whose own bug (`--bug auto`) the tool finds: a field stored as its default (its twin's capped
listing drew a false 'write not observable' once), and records evicted past the newest few (its
listing pages by number)."""


def graded(seed: int, flags: tuple[str, ...]) -> dict[str, Any]:
    report = shared_run(command(seed, flags=flags), smoke=True, probes=True, allow_writes=True,
                        allow_deletes=True, timeout=10)
    return report.to_dict()


@pytest.fixture(scope="module")
def pairs() -> list[Pair]:
    found = []
    for seed in SAMPLE:
        bug = describe(seed, ("--bug", "auto"))["bug"]
        found.append(judge(seed, bug, graded(seed, ("--bug", "auto")), graded(seed, ("--correct",))))
    return found


def test_the_sample_is_the_classes_it_names(pairs: list[Pair]) -> None:
    assert {p.seed: p.bug_class for p in pairs} == SAMPLE


def test_twins_draw_no_medium_or_high_finding(pairs: list[Pair]) -> None:
    assert serious_alarms(pairs) == []


def test_each_bug_is_found_by_the_law_it_breaks(pairs: list[Pair]) -> None:
    missed = [(p.seed, p.bug_class, p.looser) for p in pairs if not p.found]
    assert missed == []


CONTROLS = {25: "a tally per status taken for a total (probe-count-wrong, high); a search asked by a text longer "
                "than its query takes, its refusal taken for disagreement (probe-readers-disagree, high)",
            27: "a field inside an object the update sent taken for one it left alone (probe-data-lost, high)"}
"""Correct twins that each drew a false finding once."""


@pytest.mark.parametrize("seed", sorted(CONTROLS))
def test_twins_that_once_drew_a_false_alarm_stay_clean(seed: int) -> None:
    assert serious(graded(seed, ("--correct",))) == [], CONTROLS[seed]


def serious(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The medium and high findings of a report, error-as-success aside (its refusal styles)."""
    return [(f["tool"], f["rule"], f["confidence"]) for f in findings(report)
            if f["confidence"] in ("high", "medium") and f["rule"] != ERROR_AS_SUCCESS]


LAWS_PAIRS = [(0, "field-dropped"), (3, "refusal-side-effect"), (29, "evicts-silently"), (29, "page-skip"),
              (36, "evicts-silently"), (36, "reader-stale"), (45, "page-skip"), (46, "field-dropped"),
              (137, "error-as-success"), (185, "read-mutates"), (48, "delete-noop"), (53, "read-mutates"),
              (187, "key-fold"), (163, "reader-stale"), (178, "write-ignored"), (24, "refusal-side-effect"),
              (196, "reader-stale")]
"""Seeds and classes graded with the laws machine on (probe config `laws: true`), bug and twin. No 13 of
these 16 pairs hold every bug class, variant and style value they hold together (naming, descriptions,
annotations, answer format, envelope and write answer, refusal style, identity, paging and order,
create mode, capacity, rule, update, delete, search and count): the sample is near its least cover. Seed
36's records hold a quantity of 1 to 5 and enumerations under a key of `[a-z0-9_-]{1,16}`: the only
place for a marker is the key, spelt bare (stateful/laws/model.py `bare`); its count per status, taken
for the total while every record the experiments wrote shared one status, drew a false high count-wrong
on the twin, and on the bug the count a full store never moves hid the records it dropped. Its count
that misses removals moves wrong first on the warm server at a create (after the experiments'
removals), which no fresh replay shows: the same law broken after a removal is tried in its turn.
Seed 46's only free texts are inside an optional object, which the bug stores as `{}`: the marker then
sits in a required number too, so the record is still seen and the object read back empty is a value
lost. Its twin once drew a false high count-wrong: a count per kind in `key: value` lines
(`by_kind: {"red": 5}`) taken for the total while every record the experiments wrote was red. Seed 3's
create refused with an optional field still files the record, and a retry without it is accepted
under the same marker: the experiments then write new values, so a creator is shown and law 2 runs.
Seed 29's store keeps its newest 7 and refuses about two writes in five by its own rule (green forbids
notes): a series of ten drawn writes stored enough to evict its first only by luck of the draws, so
it now goes on until ten were accepted. Seed 45's store holds 20 at most, so the warm server was full
before law 7 wrote: room is made by removing records earlier examples left; its oldest records are
blank (the experiments' writes of no field), told apart by their rows, and its pages are markdown
tables, whose rows are a walk's items. Law 7 on seed 29 (a fixed cursor, 4 a page, whose boundary repeats
a record) needs five records the store took: a write its rule refused is tried again with only the
required fields and texts, then passed by for the next drawn. Seed 0's only free text is an optional
field the bug never stores: its keyed read shows the record under the key written, its level as
written and no location, a field dropped (probe-value-changed), not a write that stored nothing. Seed
137 answers a read of a removed record with a blank one wrapped as `{"ok": true, "value": ...}`: the
object beside the flag is read as the record. Seed 185's get moves the record to the end of a listing
paged by a page number at a default size of ten (no page size in its widest call, and no bound the
schema names a limit): its paging was learnt only once the store outgrew a page, and the move shows
only on a read of a record older than another.
Seed 48's delete leaves the record to every reader, only moving it in the listing: the experiments show
it changing records, and as it takes nothing but the id and its name says it deletes, it is a remover
by guess (a low warning). Seed 53's records hold their numbers inside an object under a code no marker
spelling fits: the marker's number goes inside the object (stateful/laws/model.py `beside`), and its
get, shown removing records, is judged as a read (seed 140's get, whose annotations are absent and
only its name says it reads, is left to the bench: the same class, variant and judgement, and its
every style dimension is another seed's here). Seed 187's records are marked only in their key: a
bare spelling in a short text inside an object tells a write under the key's variant apart (law 8).
Seed 163's count misses removals until the next create brings it up to date: in the experiments the
create after a removal (and after a removal of a record no marker told apart) moved it by none, so no
experiment showed it counting and the guess of a count took only the records made right after another
(a low warning). Seed 178's create answers a second write under a held id as a success and keeps the
first record: law 10 drew that write's values unmarked where the only free text is optional (its
draws left the marker to chance), and a write with no marked value judged nothing; it is marked as the
machine's own writes are.
Seed 24's update refused by its rule (pinned forbids a description) still sets what it named but the
description: it needs updates, which the machine made about six times a run while its listing came
first in Hypothesis's order, and a refused patch naming the flag alone, which carries no marker,
changes the record it named (law 2 on the update, not data lost by another write).
Seed 196 (added after the cover above was counted) lists ten a page, oldest first, and its listing
still shows removed records until the next create: once earlier examples' records fill that page, no
example's own record shows there, and the law is seen only once room is made by removing them
(stateful/laws/room.py, `Run.hidden`)."""


def graded_laws(seed: int, flags: tuple[str, ...], profile: Profile | None = None) -> dict[str, Any]:
    """A grading run with the laws machine on (its own examples per server, whatever the profile's
    examples per effect machine). The pairs' bugs run on `helpers.hunting` (two examples per effect
    machine instead of eight: seed 3's bug made 2,087 calls instead of 3,781, each bug's finding the
    same); the twins keep the grading profile, since eight clean examples are what a twin asserts."""
    report = shared_run(command(seed, flags=flags), profile, smoke=True, probes=True, allow_writes=True,
                        allow_deletes=True, timeout=10, probe_config=ProbeConfig(laws=True))
    return report.to_dict()


def twin(seed: int, flags: tuple[str, ...]) -> tuple[str, ...]:
    """The flags of the bug's correct twin: `--correct` alone where the class added no tool, field or
    limit to what the seed drew (the same server, described alike, its bug off), so that the twin of a
    seed graded for two classes (29) is graded once; else `--bug CLASS --correct`."""
    own = (*flags, "--correct")
    same = [json.dumps({k: v for k, v in describe(seed, f).items() if k != "twin_of"}) for f in (own, TWIN)]
    return TWIN if same[0] == same[1] else own


@pytest.mark.parametrize(("seed", "bug_class"), LAWS_PAIRS)
def test_the_laws_machine_finds_the_bug_and_keeps_the_twin_clean(seed: int, bug_class: str) -> None:
    flags = ("--bug", bug_class)
    pair = judge(seed, describe(seed, flags)["bug"], graded_laws(seed, flags, hunting()),
                 graded_laws(seed, twin(seed, flags)))
    assert pair.found, pair.looser
    assert serious_alarms([pair]) == []


LAWS_CONTROLS = {42: "a listing of three records a page, newest first, in a markdown table, counted by its lines: a "
                     "value drawn unmarked held U+0085, so the page that showed it had one line more, and once newer "
                     "records pushed it to the next page the listing looked shorter, taken for a loss "
                     "(probe-data-lost, high)",
                 60: "a search over two texts, asked by the record's key because the record held neither text the "
                     "experiments showed it selecting by (probe-readers-disagree, high)",
                 65: "a search by whole words, asked by the marked start of a text too long for its query, as if "
                     "it matched any part (probe-readers-disagree, high)",
                 70: "a search calibrated by a two-letter key that the record's marked notes also held, taken for a "
                     "search by key (probe-readers-disagree, high)",
                 125: "a count per status whose records all took the default status, left out of every write, taken "
                      "for the total (probe-count-wrong, high)"}
"""Correct twins that each drew a false finding once with the laws machine on."""


@pytest.mark.parametrize("seed", sorted(LAWS_CONTROLS))
def test_twins_that_once_drew_a_false_alarm_under_the_laws_stay_clean(seed: int) -> None:
    assert serious(graded_laws(seed, ("--correct",))) == [], LAWS_CONTROLS[seed]


COUNTED = (84, ("--bug", "auto"))
"""A store whose refused create (a cross-field rule) files the record all the same, counted by a total:
the laws machine's example writes records besides the one it holds, one of them refused and stored,
and the total moves by one more than the records accepted. The number a replay expects counts every
write the example made; shrinking once kept only the held record's write, so the reproduction showed
a total of one where three were expected, on the correct twin as on the bug (seed 5, the first
witness, whose refused create law 2 now names before any count moves). Its run is on `helpers.hunting`, as
the pairs' bugs are: the count finding is the laws machine's (its own examples), the same with two
examples per effect machine as with eight, in about half the CPU (10.8 s instead of 19.7)."""


def test_a_count_reproduction_keeps_every_write_its_number_counts() -> None:
    """Replayed fresh, each count finding fails on the bug and passes on the twin: the writes the
    expected number counts stay, and the refused write that was stored is the one that breaks it."""
    seed, flags = COUNTED
    counts = [Result.from_dict(r) for r in findings(graded_laws(seed, flags, hunting()))
              if r["rule"] == "probe-count-wrong"]
    assert counts, "the laws machine finds the stored refusal by the total it moves"
    for finding in counts:
        bug = replay(finding, parse_target(command(seed, flags=flags)))
        assert bug.still_fails, (finding.id, bug.verdict)
        twin = replay(finding, parse_target(command(seed, flags=(*flags, "--correct"))))
        assert not twin.still_fails, (finding.id, twin.verdict)


FOLDED_AFTER_RENAMES = (144, ("--bug", "auto"))
"""A store that folds labels by spaces and refuses a label it holds, with a relabel: the record the
machine varied had been relabelled three times, and its last label's token sits inside the variant's
text. A fresh replay without the relabels wrote the variant as a record of its own, whose read showed
that token, so the fold 'reproduced' on the correct twin too. The refused write under the variant
changed nothing, so the reproduction leaves it out: the relabels and the read show the fold."""


def test_a_fold_reproduction_keeps_the_renames_that_gave_the_record_its_label() -> None:
    seed, flags = FOLDED_AFTER_RENAMES
    folds = [Result.from_dict(r) for r in findings(graded_laws(seed, flags, hunting()))
             if r["rule"] == "probe-identity-folded" and r["basis"].startswith("laws machine")]
    assert folds, "the laws machine finds the fold"
    for finding in folds:
        assert finding.reproduction is not None
        asked = finding.reproduction.calls[-1].arguments
        assert [c.arguments for c in finding.reproduction.calls[:-1] if asked.items() <= c.arguments.items()] == []
        assert replay(finding, parse_target(command(seed, flags=flags))).still_fails, finding.id
        assert not replay(finding, parse_target(command(seed, flags=(*flags, "--correct")))).still_fails, finding.id
