"""The laws machine on records whose only place for a marker is their key (stateful/laws/model.py
`numbered`, `bare`): tests/servers/parcel_lockers.py stows parcels of bounded numbers under a locker
tag that takes a capital and then capitals or digits, so neither a marked text nor the marker's
nine-digit number fits any field. The machine writes the marker bare, in capitals, as the tag: a
bank that silently keeps only its newest parcels is found as data lost on its write, confirmed on a
fresh server, and the twin draws no finding of the machine and none at medium or high confidence.
"""

from __future__ import annotations

import re

from helpers import LawsAlone, machine_finding
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay

BARE = re.compile(r"HM[0-9A-F]{8}")
"""The marker in capitals: the spelling the tag's pattern admits."""
STORE = LawsAlone("tests/servers/parcel_lockers.py")
lockers, run = STORE.command, STORE.run


def test_the_twin_draws_no_medium_or_high_finding() -> None:
    STORE.assert_twin_clean()


def test_a_parcel_dropped_silently_is_found_by_its_bare_tag() -> None:
    result = machine_finding(run("drops-oldest"), "stow", "probe-data-lost")
    assert result.reproduction is not None and result.reproduction.fresh_server
    tags = [c.arguments.get("tag") for c in result.reproduction.calls if c.tool == "stow"]
    assert len(tags) > 4 and all(isinstance(t, str) and BARE.fullmatch(t) for t in tags), tags
    assert replay(result, parse_target(lockers("drops-oldest"))).still_fails
    assert not replay(result, parse_target(lockers(None))).still_fails
