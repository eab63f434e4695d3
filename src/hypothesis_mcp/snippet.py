"""A reproduction as a few lines of Python over the public API (`hypothesis_mcp.connect`), with
readable literals: what the console shows under each failure and what an emitted test holds.

`program` makes one that runs as printed: the server gets the run's environment (a `{tmpdir}` in
it or in the command is a folder the program makes itself, so nothing lands in the server's real
data), and the last line asserts the broken law through `hypothesis_mcp.holds`, the judgement the
run and `replay` made, so it fails while the bug is there and passes once it is fixed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hypothesis_mcp.results import PROMPTS_GET, RESOURCES_READ, Call, Result, result_key

TMPDIR = "{tmpdir}"


def literal(value: Any, indent: int | None = None, level: int = 0) -> str:
    """A JSON value as the Python literal that evaluates to it: double-quoted strings, True, False,
    None; on one line, or with `indent` one item a line."""
    if isinstance(value, dict):
        items = [f"{_string(str(k))}: {literal(v, indent, level + 1)}" for k, v in value.items()]
        return _bracketed("{", items, "}", indent, level)
    if isinstance(value, list | tuple):
        return _bracketed("[", [literal(v, indent, level + 1) for v in value], "]", indent, level)
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    return repr(value)


def _string(text: str) -> str:
    """Double-quoted; what does not print (a control character, a lone surrogate) as its escape."""
    return '"' + "".join("\\" + ch if ch in '"\\' else ch if ch.isprintable() else repr(ch)[1:-1]
                         for ch in text) + '"'


def _bracketed(opening: str, items: list[str], closing: str, indent: int | None, level: int) -> str:
    if indent is None or not items:
        return opening + ", ".join(items) + closing
    inner = " " * (indent * (level + 1))
    return opening + "\n" + "".join(f"{inner}{item},\n" for item in items) + " " * (indent * level) + closing


def call_line(call: Call) -> str:
    """One call on the connection `server`; a call whose answer holds a new id says which."""
    if call.method == RESOURCES_READ:
        line = f"server.read_resource({literal(call.tool)})"
    elif call.method == PROMPTS_GET:
        line = f"server.get_prompt({literal(call.tool)}, {literal(call.arguments)})"
    else:
        line = f"server.call({literal(call.tool)}, {literal(call.arguments)})"
    for binding in call.binds:
        line += f"  # the answer's new id (was {literal(binding.value)}) goes to the calls below"
    return line


def python_lines(calls: list[Call], target: str, note: str = "") -> list[str]:
    """`from hypothesis_mcp import connect`, then the calls on a connection to `target`."""
    comment = f"  # {note}" if note else ""
    return ["from hypothesis_mcp import connect" + comment, f"with connect({literal(target)}) as server:",
            *(f"    {call_line(call)}" for call in calls)]


def program(result: Result, target: str, note: str = "", *, env: Mapping[str, str | None] | None = None) -> list[str]:
    """The reproduction of `result` as a program ending in its assertion; `env` is what the server
    was given (a value of None: the same name from the environment the program runs in)."""
    assert result.reproduction is not None
    env = dict(env or {})
    folder = any(TMPDIR in text for text in [target, *(v for v in env.values() if v is not None)])
    passed = any(v is None for v in env.values())
    imports = [line for line, needed in (("import os", passed), ("import tempfile", folder)) if needed]
    comment = f"  # {note}" if note else ""
    law = [literal(result.id or result_key(result))]
    if result.kind == "probe":
        law.append(literal(result.details.get("expect") or {}))
    shown_env = ", env={" + ", ".join(f"{literal(k)}: {_value(k, v)}" for k, v in env.items()) + "}" if env else ""
    return [*imports, "from hypothesis_mcp import connect, holds" + comment,
            *(["folder = tempfile.mkdtemp()"] if folder else []),
            f"with connect({_with_folder(target)}{shown_env}) as server:",
            *(f"    {call_line(call)}" for call in result.reproduction.calls),
            f"    assert holds(server, {', '.join(law)}), {literal(result.message)}"]


def _value(name: str, value: str | None) -> str:
    return f"os.environ[{literal(name)}]" if value is None else _with_folder(value)


def _with_folder(text: str) -> str:
    """A literal in which each `{tmpdir}` is the program's own folder: `folder + "/memory.jsonl"`."""
    parts = text.split(TMPDIR)
    pieces = [literal(parts[0])] if parts[0] else []
    for part in parts[1:]:
        pieces.append("folder")
        if part:
            pieces.append(literal(part))
    return " + ".join(pieces) or literal("")
