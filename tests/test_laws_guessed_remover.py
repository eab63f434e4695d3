"""Law 4 on a remover known only by its words (stateful/laws/observe.py `guessed_removers`):
tests/servers/herbarium.py's erase_sheet is unannotated, takes only the accession, and a herbarium
that answers `{"erased": ...}` and keeps the sheet shows the experiments no removal, so only its verb
says it removes. The laws machine takes it for a remover by guess: the sheet a keyed read still shows
after the erase is `probe-delete-kept` on erase_sheet, low (a verdict resting on a word is no surer
than the word), confirmed on a fresh server and replayed on the bug and not on the twin. The twin
draws no finding of the machine and none at medium or high confidence.
"""

from __future__ import annotations

from helpers import LawsAlone, machine_finding
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay

STORE = LawsAlone("tests/servers/herbarium.py", deletes=True)
herbarium, run = STORE.command, STORE.run


def test_the_twin_draws_no_medium_or_high_finding() -> None:
    STORE.assert_twin_clean()


def test_an_erase_that_keeps_the_sheet_is_found_on_its_guessed_remover() -> None:
    result = machine_finding(run("erase-ignored"), "erase_sheet", "probe-delete-kept")
    assert result.confidence == "low", result.details.get("rests_on")
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert [c.tool for c in result.reproduction.calls][-2:] == ["erase_sheet", "sheet"]
    assert replay(result, parse_target(herbarium("erase-ignored"))).still_fails
    assert not replay(result, parse_target(herbarium(None))).still_fails
