"""What the user named, checked against the server's catalog before any tool is called.

A typo in a tool or parameter name would otherwise be ignored without a word and the run would
test something other than what was asked; each problem names where it was written and the
closest valid names.
"""

from __future__ import annotations

from collections.abc import Sequence
from fnmatch import fnmatchcase

from hypothesis_mcp.catalog import Tool
from hypothesis_mcp.stateful.config import ProbeConfig
from hypothesis_mcp.strategies.overrides import ALL_TOOLS, Overrides, breaches
from hypothesis_mcp.suggest import closest
from hypothesis_mcp.waivers import Waiver


def override_problems(tools: list[Tool], overrides: Overrides) -> list[str]:
    """Unknown tools, and parameter names no tool they are given for declares (they would be dropped)."""
    by_name = {t.name: t for t in tools}
    every_param = {p for t in tools for p in t.properties}
    problems = []
    for source, scope, name in overrides.names():
        if scope == ALL_TOOLS:
            if name not in every_param:
                problems.append(f"{source}: no tool takes a parameter {name!r}{closest(name, every_param)}")
            continue
        tool = by_name.get(scope)
        if tool is None:
            problems.append(f"{source}: no tool {scope!r}{closest(scope, by_name, noun='tools')}")
        elif name not in tool.properties:
            problems.append(f"{source}: tool {scope!r} has no parameter {name!r} in its inputSchema"
                            f"{closest(name, tool.properties, noun='parameters')}")
    return problems


def value_problems(tools: list[Tool], overrides: Overrides) -> list[str]:
    """Given values a tool's inputSchema forbids, each with where it was given, the keyword it
    breaks and what that keyword allows: sent, the server would be blamed for the user's value."""
    problems = []
    for tool in tools:
        origins = overrides.origins(tool)
        problems += [f"{origins[b.name]}: {tool.name}'s {b.where} {b.allowed} ({b.keyword})"
                     for b in breaches(tool, overrides.for_tool(tool))]
    return problems


def config_problems(tools: list[Tool], config: ProbeConfig) -> list[str]:
    """Every tool a probe config names (args, writes, exclude, pairs, relations, agreements,
    idempotent calls, ignore), and the parameters it gives them."""
    names: list[tuple[str, str]] = []
    names += [(f"args.{tool}", tool) for tool in config.args if tool != ALL_TOOLS]
    names += [(f"writes[{i}]", tool) for i, tool in enumerate(config.writes)]
    names += [(f"exclude[{i}]", tool) for i, tool in enumerate(config.exclude)]
    for i, pair in enumerate(config.pairs):
        names += [(f"pairs[{i}].write", pair.write), (f"pairs[{i}].read", pair.read)]
    names += [(f"relations[{i}].tool", rel.tool) for i, rel in enumerate(config.relations)]
    for i, agreement in enumerate(config.agreements):
        names += [(f"agreements[{i}].left.tool", agreement.left.tool),
                  (f"agreements[{i}].right.tool", agreement.right.tool)]
    names += [(f"idempotent[{i}].tool", spec.tool) for i, spec in enumerate(config.idempotent)]
    by_name = {t.name: t for t in tools}
    problems = [f"{config.source}: {where}: no tool {name!r}{closest(name, by_name, noun='tools')}"
                for where, name in names if name not in by_name]
    known = {name: values for name, values in config.args.items() if name == ALL_TOOLS or name in by_name}
    params = Overrides.from_mapping(known, f"{config.source}: args")
    for i, pair in enumerate(config.pairs):
        for role, name, values in (("write", pair.write, pair.write_args), ("read", pair.read, pair.read_args)):
            if name in by_name and values is not None:
                params |= Overrides.from_mapping({name: values}, f"{config.source}: pairs[{i}].{role}_args")
    for i, rel in enumerate(config.relations):
        tool = by_name.get(rel.tool)
        if tool is not None and rel.param not in tool.properties:
            problems.append(f"{config.source}: relations[{i}].param: tool {rel.tool!r} has no parameter "
                            f"{rel.param!r}{closest(rel.param, tool.properties, noun='parameters')}")
    problems += override_problems(tools, params)
    return problems + waiver_problems(tools, config.ignore)


def waiver_problems(tools: list[Tool], waivers: list[Waiver]) -> list[str]:
    names = {t.name for t in tools}
    return [f"{'--ignore ' + w.text if w.source == '--ignore' else w.source + ': ' + w.text}: no tool {w.tool!r}"
            f"{closest(w.tool, names, noun='tools')}" for w in waivers if w.tool is not None and w.tool not in names]


def selection_problems(tools: list[Tool], include: Sequence[str], exclude: Sequence[str]) -> list[str]:
    """`--include-tool` and `--exclude-tool` globs that match no tool (a typo would otherwise test
    everything, or nothing it was meant to leave out), and a selection that leaves no tool."""
    names = [t.name for t in tools]
    problems = [f"--{flag}-tool {glob!r} matches no tool{closest(glob, names, noun='tools')}"
                for flag, globs in (("include", include), ("exclude", exclude)) for glob in globs
                if not any(fnmatchcase(name, glob) for name in names)]
    if not problems and names and not selected(tools, include, exclude):
        problems.append("--include-tool and --exclude-tool leave no tool to test")
    return problems


def selected(tools: list[Tool], include: Sequence[str], exclude: Sequence[str]) -> list[Tool]:
    """The tools every check and probe sees: those an include glob matches (all without one), less
    those an exclude glob matches."""
    return [t for t in tools if (not include or any(fnmatchcase(t.name, g) for g in include))
            and not any(fnmatchcase(t.name, g) for g in exclude)]
