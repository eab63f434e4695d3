"""--arg / --args-file parsing, precedence, and how tools receive the values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.strategies import Invalid, Overrides, arguments, invalid_arguments
from strategies_oracle import oracle

READ = Tool(
    name="read_file",
    input_schema={
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "head": {"type": "integer", "minimum": 1},
            "tag": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "mode": {"enum": ["a", "b"]},
        },
        "required": ["path"],
        "additionalProperties": False,
    },
)
LIST = Tool(
    name="list_directory",
    input_schema={"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
)
OTHER = Tool(name="get_time", input_schema={"type": "object", "properties": {"zone": {"type": "string"}}})


def test_values_are_json_when_they_parse_else_text() -> None:
    o = Overrides.parse(
        ["head=5", "path=/tmp/x", 'mode="a"', "tag=null", "flag=true", 'list=["a"]', "empty=", "nan=NaN"]
    )
    generic = o.layers[0]["*"]
    assert {k: v for k, (v, _) in generic.items()} == {
        "head": 5,
        "path": "/tmp/x",
        "mode": "a",
        "tag": None,
        "flag": True,
        "list": ["a"],
        "empty": "",
        "nan": "NaN",
    }


def test_generic_values_go_to_every_tool_that_declares_the_name() -> None:
    o = Overrides.parse(["path=/tmp/sandbox", "head=3"])
    assert o.for_tool(READ) == {"path": "/tmp/sandbox", "head": 3}
    assert o.for_tool(LIST) == {"path": "/tmp/sandbox"}
    assert o.for_tool(OTHER) == {}


def test_tool_specific_wins_over_generic_and_args_win_over_the_file(tmp_path: Path) -> None:
    args_file = tmp_path / "args.yaml"
    args_file.write_text("'*': {path: /from/file, head: 9}\nread_file: {head: 7, mode: b}\n")
    o = Overrides.parse(["path=/from/arg", "list_directory:path=/only/list"], args_file)
    assert o.for_tool(READ) == {"path": "/from/arg", "head": 7, "mode": "b"}
    assert o.for_tool(LIST) == {"path": "/only/list"}
    again = Overrides.parse(["read_file:head=2"], args_file)
    assert again.for_tool(READ)["head"] == 2


def test_json_args_file(tmp_path: Path) -> None:
    args_file = tmp_path / "args.json"
    args_file.write_text('{"*": {"zone": "UTC"}}')
    assert Overrides.parse([], args_file).for_tool(OTHER) == {"zone": "UTC"}


def test_numbers_for_string_parameters_are_sent_as_text(tmp_path: Path) -> None:
    o = Overrides.parse(["path=1e3", "tag=42", "head=5"])
    assert o.for_tool(READ) == {"path": "1e3", "tag": "42", "head": 5}
    args_file = tmp_path / "a.yaml"
    args_file.write_text("read_file: {path: 12}\n")
    assert Overrides.parse([], args_file).for_tool(READ) == {"path": "12"}


@pytest.mark.parametrize("arg", ["novalue", "=5", ":path=1", "tool:=1"])
def test_malformed_args_are_usage_errors(arg: str) -> None:
    with pytest.raises(UsageError):
        Overrides.parse([arg])


@pytest.mark.parametrize("content", ["- a\n- b\n", "'*': 5\n", "tool: [1, 2]\n", "{unclosed: \n  - ]"])
def test_wrong_file_shapes_are_usage_errors(tmp_path: Path, content: str) -> None:
    args_file = tmp_path / "bad.yaml"
    args_file.write_text(content)
    with pytest.raises(UsageError):
        Overrides.parse([], args_file)


def test_unreadable_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        Overrides.parse([], tmp_path / "missing.yaml")


def test_overridden_arguments_are_fixed_and_still_valid() -> None:
    check = oracle(READ.input_schema)

    @settings(max_examples=60, deadline=None, database=None)
    @given(arguments(READ, Overrides.parse(["path=/tmp/sandbox/a.txt"])), arguments(READ, {"head": 4}))
    def run(first: dict[str, Any], second: dict[str, Any]) -> None:
        assert first["path"] == "/tmp/sandbox/a.txt" and check.is_valid(first)
        assert second["head"] == 4 and check.is_valid(second)

    run()


def test_invalid_user_values_are_passed_through() -> None:
    """The user wins: a value the schema rejects is still sent, the rest still generated."""

    @settings(max_examples=30, deadline=None, database=None)
    @given(arguments(READ, {"head": 0, "extra": "x"}))
    def run(args: dict[str, Any]) -> None:
        assert args["head"] == 0 and args["extra"] == "x" and isinstance(args["path"], str)

    run()


def test_invalid_arguments_keep_the_users_values_elsewhere() -> None:
    seen: set[str] = set()

    @settings(max_examples=150, deadline=None, database=None, derandomize=True)
    @given(invalid_arguments(READ, {"path": "/tmp/sandbox"}))
    def run(found: Invalid) -> None:
        assert isinstance(found.value, dict)
        seen.add(found.keyword)
        if found.path[:1] != ("path",) and found.keyword != "required":
            assert found.value["path"] == "/tmp/sandbox"

    run()
    assert {"type", "required", "additionalProperties", "minimum", "enum"} <= seen


def test_empty_input_schema_means_any_object() -> None:
    tool = Tool(name="ping", input_schema={})

    @settings(max_examples=20, deadline=None, database=None)
    @given(arguments(tool))
    def run(args: Any) -> None:
        assert isinstance(args, dict)

    run()


def test_mappings_and_layers() -> None:
    config = Overrides.from_mapping({"*": {"path": "/from/config"}, "read_file": {"head": 1}})
    cli = Overrides.parse(["path=/from/cli"])
    assert (config | cli).for_tool(READ) == {"path": "/from/cli", "head": 1}
    assert (cli | config).for_tool(READ) == {"path": "/from/config", "head": 1}
    assert not Overrides() and not Overrides.from_mapping(None) and cli
    with pytest.raises(UsageError):
        Overrides.from_mapping(["not", "a", "mapping"])
