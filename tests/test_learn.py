"""`hypothesis-mcp learn`: what calibration shows of a server, as text, JSON and a probe config that,
passed back with --probe-config, gives the same verdicts as the run that learned it."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import ROOT, SERVE, cli

BOOKMARKS = [*SERVE, str(ROOT / "tests/servers/learned_stores.py"), "--store", "bookmarks", "--bug"]
SHELF = [*SERVE, str(ROOT / "tests/servers/learned_stores.py"), "--store", "shelf"]


def probes(report: dict[str, object]) -> list[tuple[str, str, str, str]]:
    found = report["results"]
    assert isinstance(found, list)
    return sorted((r["tool"], r["rule"], r["status"], r["confidence"]) for r in found if r["kind"] == "probe")


def test_learn_shows_the_identity_calibration_found_and_marks_guesses(tmp_path: Path) -> None:
    run = cli(["learn", "--allow-writes", "--json", "-", "--", *SHELF], tmp_path)
    assert run.code == 0, run
    learned = json.loads(run.stdout)
    put = next(t for t in learned["tools"] if t["name"] == "shelf.put")
    assert put["evidence"] == "shown" and put["role"] == "write"
    assert put["identity"] == {"field": "bin", "evidence": "shown"}   # an integer, in no identity word
    assert put["overwrite"] == {"behaviour": "replaces", "evidence": "shown"}
    assert put["readers"] == [{"name": "shelf.list", "evidence": "shown"}]
    listing = next(t for t in learned["tools"] if t["name"] == "shelf.list")
    assert listing["evidence"] == "shown" and listing["role"] == "list", "shelf.put's calibration showed it listing"
    assert {t["evidence"] for t in learned["tools"] if t["name"] not in ("shelf.put", "shelf.list")} <= {"guessed"}
    assert all(f["evidence"] == "shown" and f["calls"] for f in learned["facts"])
    assert "identity: bin (shown)" in run.stderr


def test_without_allow_writes_nothing_is_written_and_everything_is_a_guess(tmp_path: Path) -> None:
    run = cli(["learn", "--json", "-", "--", *SHELF], tmp_path)
    assert run.code == 0, run
    learned = json.loads(run.stdout)
    assert learned["facts"] == []
    assert {t["evidence"] for t in learned["tools"]} == {"guessed"}


def test_the_written_config_gives_the_same_verdicts(tmp_path: Path) -> None:
    config = tmp_path / "learned.yaml"
    learned = cli(["learn", "--allow-writes", "--write-config", str(config), "--", *BOOKMARKS], tmp_path)
    assert learned.code == 0, learned
    text = config.read_text(encoding="utf-8")
    assert text.startswith("# Written by `hypothesis-mcp learn`") and 'read: "listBookmarks"' in text
    common = ["test", "--probes", "--allow-writes", "--profile", "grading"]
    target = " ".join(BOOKMARKS)
    plain = cli([*common, target], tmp_path, json_report=True)
    given = cli([*common, "--probe-config", str(config), target], tmp_path, json_report=True)
    assert plain.report is not None and given.report is not None
    assert probes(plain.report) == probes(given.report)
    assert ("createBookmark", "probe-silent-noop", "fail", "high") in probes(given.report)


def test_learn_shows_the_refusal_shape_calls_that_must_fail_agreed_on(tmp_path: Path) -> None:
    """The registry refuses with {"outcome": "rejected"} and isError false, a shape of its own."""
    devices = [*SERVE, str(ROOT / "tests/servers/learned_stores.py"), "--store", "devices"]
    run = cli(["learn", "--allow-writes", "--json", "-", "--", *devices], tmp_path)
    assert run.code == 0, run
    register = next(t for t in json.loads(run.stdout)["tools"] if t["name"] == "device.register")
    assert {k: register["refusal_shape"][k] for k in ("member", "value", "evidence")} == {
        "member": "outcome", "value": "rejected", "evidence": "shown"}
    assert "refusal shape: 'outcome' is \"rejected\" (shown)" in run.stderr
    shelf = next(t for t in json.loads(cli(["learn", "--allow-writes", "--json", "-", "--", *SHELF],
                                           tmp_path).stdout)["tools"] if t["name"] == "shelf.put")
    assert "refusal_shape" not in shelf   # its answers are plain text: nothing to learn


def test_learn_prints_the_refusal_shapes_reads_of_missing_ids_and_invalid_arguments_showed(tmp_path: Path) -> None:
    """Read-only, a catalogue's not-found sentence (isError false) is learned from reads of ids nobody
    wrote; with --allow-writes, a nursery's `{"verdict": "refused"}` from answers to invalid arguments.
    Both print in the text and in --json under `refusals`; their twins teach nothing."""
    shelf = [*SERVE, str(ROOT / "tests/servers/missing_records.py"), "--store", "catalogue"]
    read = cli(["learn", "--json", "-", "--", *shelf, "--bug"], tmp_path)
    assert read.code == 0, read
    [shape] = json.loads(read.stdout)["refusals"]
    assert (shape["tool"], shape["learned_from"], shape["member"], shape["value"], shape["evidence"]) == (
        "book_fetch", "reads of ids nobody wrote", "text", "No book with ISBN '\u2026' is on the shelf.", "shown")
    assert "No book with ISBN" in read.stderr and "(shown; reads of ids nobody wrote, from book_fetch;" in read.stderr
    nursery = [*SERVE, str(ROOT / "tests/servers/refusal_styles.py")]
    invalid = cli(["learn", "--allow-writes", "--json", "-", "--", *nursery, "--bug", "verdict"], tmp_path)
    assert invalid.code == 0, invalid
    [shape] = json.loads(invalid.stdout)["refusals"]
    assert (shape["learned_from"], shape["member"], shape["value"]) == ("answers to invalid arguments", "verdict",
                                                                       "refused")
    assert "is a refusal (calls with schema-invalid arguments" in invalid.stderr
    for twin in (cli(["learn", "--json", "-", "--", *shelf], tmp_path),
                 cli(["learn", "--allow-writes", "--json", "-", "--", *nursery], tmp_path)):
        assert twin.code == 0 and json.loads(twin.stdout)["refusals"] == [], twin
        assert "refusal shapes" not in twin.stderr
