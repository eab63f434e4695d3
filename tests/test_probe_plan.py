"""How the probe run plans a server's write tools: one budget per server, and the model machines of
tools of one shape run once. Planning calls no tool, so no server is started here; the costs it
saves are measured by bench/bench_pairs.py, and the probes' findings by the test_probe_* files."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.profiles import make_profile
from hypothesis_mcp.stateful.config import parse_config
from hypothesis_mcp.stateful.probes import Piece, ProbeRun

WRITES = {"readOnlyHint": False, "destructiveHint": False}
READS = {"readOnlyHint": True}


def tool(name: str, properties: dict[str, Any], annotations: dict[str, Any]) -> Tool:
    return Tool.from_dict({"name": name, "description": f"{name} of the store",
                           "inputSchema": {"type": "object", "properties": properties, "required": list(properties)},
                           "annotations": annotations})


def store(suffix: str, fields: tuple[str, ...] = ("key", "value")) -> list[Tool]:
    return [tool(f"put_value{suffix}", {f: {"type": "string"} for f in fields}, WRITES),
            tool(f"get_value{suffix}", {"key": {"type": "string"}}, READS)]


def planned(tools: list[Tool]) -> tuple[ProbeRun, list[Piece]]:
    # No server: the experiments showed nothing, so the tools' words and annotations decide the plan.
    run = ProbeRun(conn=None, pool=None, tools=tools, profile=make_profile("grading"),  # type: ignore[arg-type]
                   allow_writes=True, seen={})
    return run, list(run.plan())


def test_write_tools_of_one_shape_share_their_model_machines() -> None:
    tools = [*store("_1"), *store("_2"), *store("_3", ("key", "value", "note")),
             tool("list_keys", {"limit": {"type": "integer"}}, READS)]
    run, _ = planned(tools)
    first, second, other = (run.shape(t) for t in tools if t.name.startswith("put"))
    assert first == second != other, "the names differ, the schemas and the readers' do not"
    assert run.notes == ["put_value_2: the same shape as put_value_1, so their model machines (reads, variants, "
                         "agreement, fields, renames) ran only where their round trip failed"]


def test_round_trips_share_the_servers_budget_past_four_write_tools() -> None:
    few, few_pieces = planned([t for n in range(4) for t in store(f"_{n}", ("key", f"value{n}"))])
    many, many_pieces = planned([t for n in range(16) for t in store(f"_{n}", ("key", f"value{n}"))])
    assert [p.servers for p in few_pieces[:4]] == [8] * 4
    assert [p.servers for p in many_pieces[:16]] == [2] * 16
    assert {p.profile.probe_examples for p in many_pieces[:16] if p.profile} == {2}
    assert not few.notes and not many.notes, "no two write tools of one shape"


def test_laws_only_plans_the_laws_machine_without_the_per_invariant_machines() -> None:
    """`laws: only` in a probe config: no round trip, pages or deletes piece, one laws piece; any other
    value than true, false or only is a usage error naming the key."""
    tools = [*store("_1"), tool("list_keys", {"limit": {"type": "integer"}}, READS)]
    run = ProbeRun(conn=None, pool=None, tools=tools, profile=make_profile("grading"),  # type: ignore[arg-type]
                   allow_writes=True, config=parse_config({"laws": "only"}), seen={})
    alone = [p for p in run.plan() if p.work is not None and not p.main]
    _, default = planned(tools)
    assert len(alone) == 2 and len([p for p in default if p.work is not None and not p.main]) == 4
    with pytest.raises(UsageError, match="laws: must be true, false or only"):
        parse_config({"laws": "sometimes"})


def test_laws_true_runs_the_pages_machine_and_the_removal_probe_after_the_laws_machine() -> None:
    """`laws: true`: no pages or removal piece of its own; the laws piece runs the pages machine (on
    the paged readers law 7 did not walk) and the removal probe (on the removals law 4 did not judge)
    after the laws machine, so its budget counts their servers too."""
    tools = [*store("_1"), tool("list_keys", {"limit": {"type": "integer"}}, READS)]
    run = ProbeRun(conn=None, pool=None, tools=tools, profile=make_profile("grading"),  # type: ignore[arg-type]
                   allow_writes=True, config=parse_config({"laws": True}), seen={})
    pieces = [p for p in run.plan() if p.work is not None and not p.main]
    examples = run.profile.probe_examples
    assert [p.work for p in pieces].count(ProbeRun.pages) == 0
    assert [p.work for p in pieces].count(ProbeRun.laws) == 1
    assert next(p for p in pieces if p.work == ProbeRun.laws).servers == 1 + examples
    assert len(pieces) == 3, "round trip, laws (then pages and removals), bounds"
    deleting = replace(run, allow_deletes=True)
    laws = next(p for p in deleting.plan() if p.work == ProbeRun.laws)
    assert laws.servers == 1 + examples + examples // 4
