"""The name-blind proxy (tests/blind.py) is a real MCP peer: it serves a server's tools under opaque
names with no descriptions or titles, keeps what the schemas and annotations say, and forwards
calls to the tool they name."""

from __future__ import annotations

import json

from helpers import ROOT, SERVE, blind, engine, grading, sample
from hypothesis_mcp import connect


def test_the_proxy_hides_names_and_words_and_forwards_calls() -> None:
    with connect(sample()) as named:
        real = named.tools
    with connect(blind(sample())) as conn:
        tools = conn.tools
        assert [t.name for t in tools] == [f"t{i}" for i in range(1, len(real) + 1)]
        for hidden, tool in zip(tools, real, strict=True):
            assert hidden.description in (None, "") and hidden.title in (None, "")
            assert list(hidden.properties) == list(tool.properties)
            assert "description" not in json.dumps(hidden.input_schema).replace('"description": {', "")
            assert hidden.annotations == ({k: v for k, v in tool.annotations.items() if k != "title"}
                                          if tool.annotations else tool.annotations)
        adds = [i for i, t in enumerate(real) if t.name == "create_note"]
        assert adds, [t.name for t in real]
        alias = tools[adds[0]].name
        written = conn.call(alias, {"title": "blind", "body": "seen"})
        assert written.ok, written
        assert not conn.call("create_note", {"title": "x", "body": "y"}).ok


def test_grading_finds_the_same_bug_blind_as_named() -> None:
    """shelf_store's put_item keeps old notes on a second put: its role, readers and key come from
    experiments, so served as `t1` with no words the same high silent no-op is found on the same tool."""
    server = [*SERVE, str(ROOT / "tests/servers/shelf_store.py"), "--bug", "keeps-old-notes"]

    def found(target: list[str], first: str) -> set[tuple[str, bool, str]]:
        report = engine(target, grading(max_examples=6), probes=True, allow_writes=True)
        return {(r.rule, r.tool == first, r.confidence) for r in report.results
                if r.kind == "probe" and r.status in ("fail", "warn")}

    named = found(server, "put_item")
    assert ("probe-silent-noop", True, "high") in named
    assert found(blind(server), "t1") == named
