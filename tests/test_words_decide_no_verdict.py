"""Words order experiments and name things; they never decide a verdict (issue 42, item 6).

vocabulary.py's word lists (verbs, field words, how a name is read) may choose which experiment runs
first, what may be called before the user opts in, and what a report calls a tool. Read from the
source, as tests/test_architecture.py reads imports: no module that judges (a rule, a check's
judgement, a probe's judgement, a fact, the score) imports the vocabulary, and no function marks a
fact shown while it reads words. Today's users of the vocabulary are listed in
docs/architecture.md ("Words order experiments"); the test fails on a new one that judges.
"""

from __future__ import annotations

import ast
from pathlib import Path

from test_architecture import DOC, SRC, graph, imports, modules

VOCABULARY = "vocabulary"
VERDICTS = (
    "rules", "connection.failure", "model.facts", "model.refusals", "model.owned",
    "checks.scenarios", "checks.smoke", "checks.error_shapes", "checks.searches", "checks.missing_reads",
    "checks.resources", "checks.prompts", "checks.surfaces", "checks.owned",
    "stateful.judge", "stateful.example", "stateful.claims", "stateful.fidelity", "stateful.deletes",
    "scorecard", "gates", "finishing", "scoring", "replay",
)
"""The modules that judge: what a correct answer satisfies, whether an answer is a success or a
refusal, a search's or a probe's finding, the facts a finding rests on, the score and the gate."""
MARKS_SHOWN = "fact_shown"


def judging(module: str) -> bool:
    return any(module == v or module.startswith(v + ".") for v in VERDICTS)


def test_every_verdict_module_exists() -> None:
    known = modules()
    missing = [v for v in VERDICTS if not any(m == v or m.startswith(v + ".") for m in known)]
    assert not missing, missing


def test_no_module_that_judges_imports_the_vocabulary() -> None:
    wrong = sorted(m for m, targets in graph().items() if judging(m) and VOCABULARY in targets)
    assert not wrong, f"these judge, and read words: {wrong}"


def word_readings(path: Path) -> list[str]:
    """The functions of a source file that mark a fact shown while reading words: a name imported
    from the vocabulary."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    vocabulary = {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                  and node.module == f"hypothesis_mcp.{VOCABULARY}" for a in node.names}
    found = []
    for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
        nodes = list(ast.walk(function))
        marks = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == MARKS_SHOWN
                    for n in nodes)
        reads = any(isinstance(n, ast.Name) and n.id in vocabulary for n in nodes)
        if marks and reads:
            found.append(function.name)
    return found


def test_no_fact_is_marked_shown_where_words_are_read() -> None:
    wrong = {name: found for name, path in modules().items() if (found := word_readings(path))}
    assert not wrong, wrong


def test_the_checks_catch_a_planted_use(tmp_path: Path) -> None:
    """A judgement that read a description's verb and called it shown, as deletes once did."""
    planted = tmp_path / "planted.py"
    planted.write_text(
        "from hypothesis_mcp.vocabulary import described_verb\n"
        "from hypothesis_mcp.model.facts import fact_shown, fact_guessed\n"
        "def deletes(tool):\n"
        "    if described_verb(tool.description) == 'delete':\n"
        "        return fact_shown('it deletes')\n"
        "    return fact_guessed('it deletes', 'its name')\n"
        "def watched(tool):\n"
        "    return fact_shown('it reads') if tool.is_read else None\n", encoding="utf-8")
    assert word_readings(planted) == ["deletes"]
    assert VOCABULARY in imports(planted, {VOCABULARY: SRC / "vocabulary.py"})


def test_the_users_of_the_vocabulary_are_listed() -> None:
    """docs/architecture.md names every module that imports the vocabulary and what it uses it for."""
    section = DOC.read_text(encoding="utf-8").split("### Words order experiments", 1)[1].split("\n### ", 1)[0]
    users = {m for m, targets in graph().items() if VOCABULARY in targets}
    unlisted = sorted(m for m in users if f"`{m}`" not in section)
    assert not unlisted, unlisted
