"""The import directions of docs/architecture.md, read from the source: no unit imports against
the flow, and no import cycle between modules or between units."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "hypothesis_mcp"
PACKAGE = "hypothesis_mcp"

# The units below the engine, each with what it may import (besides itself).
BASE = {"errors", "version", "results", "profiles", "catalog", "rules"}
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "version": set(),
    "results": set(),
    "profiles": {"errors"},
    "catalog": set(),
    "connection": {"catalog", "errors", "results", "version"},
    "files": {"errors"},
    "suggest": set(),
    "strategies": {"catalog", "errors", "files"},
    "rules": {"connection", "results", "strategies"},
    "gates": {"errors", "results"},
    "scorecard": {"results", "gates"},
    "events": {"connection"},
    "progress": {"events"},
    "project": {"errors"},
    "clientconfig": {"connection", "errors"},
    "cli_targets": {"cli_help", "clientconfig", "connection", "errors", "project", "report", "results"},
    "search": BASE | {"connection", "strategies"},
    "checks": BASE | {"connection", "strategies", "search"},
    "waivers": {"errors", "results", "rules", "suggest"},
    "stateful": BASE | {"connection", "strategies", "search", "files", "waivers"},
    "inputs": {"catalog", "stateful", "strategies", "suggest", "waivers"},
    "replay": BASE | {"connection"},
    "engine": BASE | {"connection", "strategies", "search", "checks", "stateful", "scorecard", "events", "inputs",
                      "waivers", "shipped"},
    "emit": {"results", "snippet"},
    "snippet": {"results"},
    "report": BASE | {"connection", "gates", "scorecard", "snippet"},
    "shipped": {"errors", "stateful", "files", "suggest"},
    "pytest_plugin": {"connection", "engine", "events", "profiles", "results"},
    "sample_server": set(),
    "__main__": {"cli"},
    "launch": {"cli", "version"},
    "loading": set(),
    "cli_help": set(),
    "": {"catalog", "connection", "loading", "version"},
}


def modules() -> dict[str, Path]:
    found = {}
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules `path` imports at run time (imports under TYPE_CHECKING excluded)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and ast.unparse(node.test).endswith("TYPE_CHECKING") for n in ast.walk(node)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == PACKAGE:
            base = node.module.removeprefix(PACKAGE).lstrip(".")
            names = [base, *(f"{base}.{a.name}".lstrip(".") for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name.removeprefix(PACKAGE).lstrip(".") for a in node.names if a.name.split(".")[0] == PACKAGE]
        found.update(n for n in names if n in known)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(path, known) - {name} for name, path in known.items()}


def unit(module: str) -> str:
    return module.split(".")[0]


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, if it has any."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_every_unit_imports_only_what_it_may() -> None:
    wrong = []
    for module, targets in graph().items():
        for target in targets:
            if unit(target) != unit(module) and unit(module) != "cli" and unit(target) not in ALLOWED[unit(module)]:
                wrong.append(f"{module} imports {target}")
    assert not wrong, wrong


def test_every_unit_is_placed() -> None:
    assert {unit(m) for m in modules()} - {"cli"} <= set(ALLOWED)


def test_no_cycle_between_modules() -> None:
    assert cycle(graph()) is None


def test_no_cycle_between_units() -> None:
    edges: dict[str, set[str]] = {}
    for module, targets in graph().items():
        edges.setdefault(unit(module), set()).update(unit(t) for t in targets if unit(t) != unit(module))
    assert cycle(edges) is None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None
