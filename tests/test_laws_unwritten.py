"""The laws machine asks a keyed read for an identity no call wrote (stateful/laws/unwritten.py), served
name-blind (tests/blind.py: tools `t1`, `t2`…, no descriptions): tests/servers/coupon_book.py keeps
coupons under a code of capitals the caller picks, their terms nested in an object, and has no tool
that removes one, so no read of a removed record ever asks it for a coupon that is not there. Its
bug answers an unknown code with `{"code": ...}` alone: a record in the shape of the stored ones
(the object under the asked code; the marker sits only in the nested terms, as no marker fits a
code), found on the reader and confirmed on a fresh server; the twin, which refuses an unknown
code, draws no finding of the machine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from helpers import ROOT, SERVE, blind, engine, grading, machine_finding, machine_findings
from hypothesis_mcp.connection import parse_target
from hypothesis_mcp.replay import replay
from hypothesis_mcp.results import Report
from hypothesis_mcp.stateful.config import ProbeConfig


@dataclass
class BlindBook:
    """The coupon book served name-blind, graded once per side by the laws machine alone."""

    kept: dict[str | None, Report] = field(default_factory=dict)

    def command(self, bug: str | None) -> list[str]:
        return blind([*SERVE, str(ROOT / "tests/servers/coupon_book.py"), *(["--bug", bug] if bug else [])])

    def run(self, bug: str | None) -> Report:
        if bug not in self.kept:
            self.kept[bug] = engine(self.command(bug), grading(max_examples=5), probes=True, allow_writes=True,
                                    probe_config=ProbeConfig(laws="only"))
        return self.kept[bug]


BOOK = BlindBook()
book, run = BOOK.command, BOOK.run


def test_the_twin_draws_no_finding_of_the_machine() -> None:
    assert not machine_findings(run(None)), [(r.tool, r.rule, r.message) for r in machine_findings(run(None))]


def test_a_blank_answered_for_an_unknown_code_is_found_on_the_reader() -> None:
    result = machine_finding(run("blank-coupon"), "t2", "read-missing-as-success")
    assert result.confidence == "medium"  # the listing holds the whole book and shows no such coupon
    assert result.reproduction is not None and result.reproduction.fresh_server
    assert result.reproduction.calls[-1].tool == "t2"
    assert replay(result, parse_target(book("blank-coupon"))).still_fails
    assert not replay(result, parse_target(book(None))).still_fails
