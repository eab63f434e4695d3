"""Two places the laws machine once could not see, on tests/servers/fossil_trays.py:
- a record whose only texts sit inside one object (`find`): a marked text there marks the object, not
  the tray, so the tray is also marked at its top, by the marker's number in its grams
  (stateful/laws/model.py `numbered`); a store that keeps grams to one decimal is then found as a
  value changed, where before no reader's record was ever the tray's;
- a removal whose every listing lags behind it, by a tool listed before the keyed read: tried before
  any keyed reader was placed, it showed nothing, so it is tried again once one is
  (stateful/watch.py `try_again`), shown removing trays, and the lagging drawer is found as a removed
  tray still shown.
Each twin draws no finding of the machine and none at medium or high confidence.
"""

from __future__ import annotations

from helpers import LawsAlone, machine_finding
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay

STORE = LawsAlone("tests/servers/fossil_trays.py", deletes=True)
trays, run = STORE.command, STORE.run


def test_the_twin_draws_no_medium_or_high_finding() -> None:
    STORE.assert_twin_clean()


def test_grams_cut_on_a_tray_marked_only_inside_its_find_is_a_value_changed() -> None:
    result = machine_finding(run("tenths"), "catalogue", "probe-value-changed")
    assert result.confidence == "high" and result.details.get("field") == "grams", result.details
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert replay(result, parse_target(trays("tenths"))).still_fails
    assert not replay(result, parse_target(trays(None))).still_fails


def test_a_drawer_lagging_behind_a_removal_listed_before_the_keyed_read_is_found() -> None:
    result = machine_finding(run("drawer-lags"), "shelve", "probe-delete-kept")
    assert result.confidence == "high", result.message
    assert "drawer" in result.message, result.message
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert replay(result, parse_target(trays("drawer-lags"))).still_fails
    assert not replay(result, parse_target(trays(None))).still_fails
