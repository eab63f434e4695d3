"""The import directions of docs/architecture.md, read from its table and from the source: no unit
imports against the table, every unit is in the table, and no import cycle between modules or
between units (imports under TYPE_CHECKING count too)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "hypothesis_mcp"
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = "hypothesis_mcp"
ANYTHING = "anything"


def _unit_name(written: str) -> str:
    """`connection/`, `files.py` and `__init__.py` (the package face, unit "") as unit names."""
    name = written.removesuffix("/").removesuffix(".py")
    return "" if name == "__init__" else name


def table(text: str) -> dict[str, set[str]]:
    """Each unit of the "Packages" table with the units it may import ({ANYTHING} for any)."""
    section = text.split("## Packages and what each may import", 1)[1].split("\n## ", 1)[0]
    allowed: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        targets = {ANYTHING} if cells[2] == ANYTHING else {_unit_name(n) for n in re.findall(r"`([^`]+)`", cells[2])}
        for unit_name in re.findall(r"`([^`]+)`", cells[0]):
            allowed[_unit_name(unit_name)] = targets
    return allowed


ALLOWED = table(DOC.read_text(encoding="utf-8"))


def modules() -> dict[str, Path]:
    found = {}
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules `path` imports, those imported only for type checking included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
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
            may = ALLOWED[unit(module)]
            if unit(target) != unit(module) and ANYTHING not in may and unit(target) not in may:
                wrong.append(f"{module} imports {target}")
    assert not wrong, wrong


def test_every_unit_is_placed() -> None:
    assert {unit(m) for m in modules()} <= set(ALLOWED), "a unit missing from docs/architecture.md's table"


def test_the_table_names_only_units_that_exist() -> None:
    units = {unit(m) for m in modules()}
    named = set(ALLOWED) | {t for targets in ALLOWED.values() for t in targets} - {ANYTHING}
    assert named <= units, named - units


def test_type_checking_imports_count(tmp_path: Path) -> None:
    """An import made only for the type checker still ties the two modules together."""
    probe = tmp_path / "probe.py"
    probe.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from hypothesis_mcp.engine import run\n", encoding="utf-8")
    assert imports(probe, {"engine": SRC / "engine.py"}) == {"engine"}


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
