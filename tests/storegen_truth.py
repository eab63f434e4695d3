"""Generated store servers (../shared/storegen) and their truth, to grade what `learn` says.

storegen draws, per seed, a small store server of its own naming, identity, answer, error and paging
style, and `--describe` prints what each tool truly does. This module starts those servers (named,
or through the name-blind proxy tests/blind.py) and compares a `learn --json` answer with the truth,
tool by tool:
- role: writer (create, update, rename), reader (get, list, search, trash listing), remover
  (delete) or counter (count), the classes of the learned model;
- identity: for each writer and remover, the argument that names the record (a create with
  server-made ids: the member of its answer that carries the id);
- bindings: for each reader, the arguments that select records (a get: the identity, by that field;
  a search: its text; a listing or count: none).
Every belief `learn` marks shown is also checked against the truth: one that is false is counted
apart, however the tool scores.

storegen sits beside the project's folder (`<repo>/../shared/storegen`), as CI lays it out; a
user's clone has none and the tests that need it skip. STOREGEN_DIR names another place.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import zygote

ROOT = Path(__file__).resolve().parents[1]
SKIP_REASON = "../shared/storegen not present"
BLIND = ROOT / "tests" / "blind.py"
ZYGOTE = ROOT / "tests" / "zygote.py"

ROLE_CLASS = {"create": "writer", "update": "writer", "rename": "writer", "delete": "remover",
              "get": "reader", "list": "reader", "search": "reader", "trash_list": "reader", "count": "counter"}
"""Each true role of storegen by its class in the learned model."""
LEARNED_CLASS = {"create": "writer", "write": "writer", "update": "writer", "delete": "remover",
                 "read": "reader", "list": "reader", "search": "reader", "count": "counter"}
"""Each role `learn` prints by its class; `other` is none of them."""
TEXT = "text"
"""A search's binding: its argument selects records by the text of their string fields."""


def seeds_of(text: str) -> list[int]:
    """Seeds from a command line's `0-199` or `3,7,10-12`."""
    found: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        found += range(int(low), int(high or low) + 1)
    return found


def storegen_dir() -> Path | None:
    """The storegen folder: STOREGEN_DIR, else `<repo>/../shared/storegen`; None where absent."""
    place = Path(os.environ.get("STOREGEN_DIR") or ROOT.parent / "shared" / "storegen")
    return place if (place / "storegen.py").is_file() else None


TWIN = ("--correct",)
"""storegen's flags for the correct twin of `--bug auto`; `("--bug", CLASS)` is a server with that bug and
`("--bug", CLASS, "--correct")` its twin."""


def command(seed: int, *, blind: bool = False, python: str = sys.executable,
            flags: Sequence[str] = TWIN) -> list[str]:
    """The server of seed `seed` (by default the correct twin), served named or through the name-blind
    proxy. Inside the suite, through its zygote (tests/zygote.py), which has imported jsonschema as
    storegen does: a grading run starts dozens of servers, and a forked start skips the imports
    (docs/performance.md, session 33). Elsewhere (the benches) `python SCRIPT` itself."""
    place = storegen_dir()
    assert place is not None, SKIP_REASON
    serve = [python, str(ZYGOTE)] if os.environ.get(zygote.ENV) else [python]
    server = [*serve, str(place / "storegen.py"), "--seed", str(seed), *flags]
    return [*serve, str(BLIND), "--", *server] if blind else server


def describe(seed: int, flags: Sequence[str] = TWIN) -> dict[str, Any]:
    place = storegen_dir()
    assert place is not None, SKIP_REASON
    out = subprocess.run([sys.executable, str(place / "storegen.py"), "--seed", str(seed), *flags,
                          "--describe"], capture_output=True, text=True, check=True)
    truth: dict[str, Any] = json.loads(out.stdout)
    return truth


@dataclass(frozen=True)
class Expected:
    """What one tool truly is, in the terms `learn` prints."""

    name: str
    role: str
    kind: str
    identity: str | None = None
    server_id: bool = False
    bindings: dict[str, str] | None = None
    """A reader's selecting arguments, each with the field it selects by (TEXT: any text)."""


def expected(truth: dict[str, Any]) -> list[Expected]:
    ident = truth["identity"]
    key, server = ident["field"], ident["kind"] == "server"
    search = truth["semantics"].get("search") or {}
    found = []
    for name, kind in truth["tools"].items():
        role = ROLE_CLASS[kind]
        identity = key if role in ("writer", "remover") else None
        bindings: dict[str, str] | None = None
        if role == "reader":
            bindings = {key: key} if kind == "get" else {search["param"]: TEXT} if kind == "search" else {}
        found.append(Expected(name, role, kind, identity, server and kind == "create", bindings))
    return found


@dataclass
class Graded:
    """One run's score: per dimension, right and total; the false shown beliefs, each said."""

    right: dict[str, int] = field(default_factory=lambda: {"roles": 0, "identities": 0, "bindings": 0})
    total: dict[str, int] = field(default_factory=lambda: {"roles": 0, "identities": 0, "bindings": 0})
    tools_right: int = 0
    tools: int = 0
    false_shown: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    def add(self, other: Graded) -> None:
        for key in self.right:
            self.right[key] += other.right[key]
            self.total[key] += other.total[key]
        self.tools_right += other.tools_right
        self.tools += other.tools
        self.false_shown += other.false_shown
        self.wrong += other.wrong


def learned_bindings(tool: dict[str, Any]) -> dict[str, str | None]:
    return {b["argument"]: b.get("field") for b in tool.get("bindings") or []}


def learned_identity(tool: dict[str, Any], want: Expected) -> tuple[str | None, bool]:
    """The identity `learn` gave the tool (for a create with server-made ids, its answer's id
    member), and whether it was shown."""
    if want.server_id:
        return tool.get("answer_id"), bool(tool.get("answer_id"))
    ident = tool.get("identity") or {}
    return ident.get("field"), ident.get("evidence") == "shown"


def grade(learned: dict[str, Any], truth: dict[str, Any], names: list[str] | None = None) -> Graded:
    """`learn --json` against the truth. `names`: the real names of the learned tools in their order
    (a blind run's `t1`, `t2`…); by default the learned names are the real ones."""
    tools = learned["tools"]
    real = names or [t["name"] for t in tools]
    by_name = dict(zip(real, tools, strict=True))
    real_of = {t["name"]: name for name, t in by_name.items()}
    seed = truth["seed"]
    graded = Graded()
    for want in expected(truth):
        tool = by_name.get(want.name)
        where = f"seed {seed} {want.name} ({want.kind})"
        if tool is None:
            graded.wrong.append(f"{where}: not in the learned tools")
            graded.tools += 1
            continue
        ok = True
        role = LEARNED_CLASS.get(tool["role"], "other")
        graded.total["roles"] += 1
        if role == want.role:
            graded.right["roles"] += 1
        else:
            ok = False
            graded.wrong.append(f"{where}: role {tool['role']} ({role}), truly {want.role}")
            if tool.get("evidence") == "shown":
                graded.false_shown.append(f"{where}: role {tool['role']} shown, truly {want.role}")
        if want.identity is not None:
            said, shown = learned_identity(tool, want)
            graded.total["identities"] += 1
            if said == want.identity:
                graded.right["identities"] += 1
            else:
                ok = False
                graded.wrong.append(f"{where}: identity {said}, truly {want.identity}")
                if shown:
                    graded.false_shown.append(f"{where}: identity {said} shown, truly {want.identity}")
        if want.bindings is not None:
            said_bindings = learned_bindings(tool)
            graded.total["bindings"] += 1
            if bindings_match(said_bindings, want.bindings):
                graded.right["bindings"] += 1
            else:
                ok = False
                graded.wrong.append(f"{where}: bindings {said_bindings}, truly {want.bindings}")
            for b in tool.get("bindings") or []:
                if b.get("evidence") == "shown" and not bindings_match({b["argument"]: b.get("field")},
                                                                        want.bindings, partial=True):
                    graded.false_shown.append(f"{where}: binding {b['argument']} -> {b.get('field')} shown, "
                                              f"truly {want.bindings}")
        graded.false_shown += false_readers(tool, want, real_of, truth)
        graded.false_shown += false_overwrite(tool, want, truth)
        graded.tools += 1
        graded.tools_right += ok
    return graded


def bindings_match(said: dict[str, str | None], want: dict[str, str], *, partial: bool = False) -> bool:
    if partial:
        return all(arg in want and (want[arg] == TEXT or field_ == want[arg]) for arg, field_ in said.items())
    return said.keys() == want.keys() and all(want[a] == TEXT or said[a] == want[a] for a in said)


def false_readers(tool: dict[str, Any], want: Expected, real_of: dict[str, str], truth: dict[str, Any]) -> list[str]:
    """A reader shown to show a writer's records that cannot: one that is no reader of records (a
    count, a trash listing of removed records, a writer)."""
    if want.kind not in ("create", "update", "rename"):
        return []
    kinds = truth["tools"]
    found = []
    for reader in tool.get("readers") or []:
        real = real_of.get(reader["name"], reader["name"])
        if reader.get("evidence") == "shown" and kinds.get(real) not in ("get", "list", "search"):
            found.append(f"seed {truth['seed']} {want.name}: reader {real} shown, truly a {kinds.get(real)}")
    return found


OVERWRITE = {"replace": "replaces", "refuse": "refused", "append": "appends"}


def false_overwrite(tool: dict[str, Any], want: Expected, truth: dict[str, Any]) -> list[str]:
    said = tool.get("overwrite") or {}
    if want.kind != "create" or said.get("evidence") != "shown" or not said.get("behaviour"):
        return []
    true = OVERWRITE[truth["semantics"]["create"]]
    if said["behaviour"] == true:
        return []
    return [f"seed {truth['seed']} {want.name}: overwrite {said['behaviour']} shown, truly {true}"]


def shown_model(learned: dict[str, Any]) -> list[Any]:
    """What a run showed, with every tool name made its place in the listing (`#1`, `#2`…): what a
    blind and a named run must agree on. Guesses are left out: they are read from words."""
    names = [t["name"] for t in learned["tools"]]

    def placed(text: str) -> str:
        for place, name in sorted(enumerate(names, 1), key=lambda p: -len(p[1])):
            text = text.replace(name, f"#{place}")
        return text

    model: list[Any] = []
    for tool in learned["tools"]:
        beliefs: dict[str, Any] = {}
        if tool.get("evidence") == "shown":
            beliefs["role"] = tool["role"]
        for key in ("identity", "overwrite"):
            if (tool.get(key) or {}).get("evidence") == "shown":
                beliefs[key] = tool[key]
        if tool.get("answer_id"):
            beliefs["answer_id"] = tool["answer_id"]
        beliefs["readers"] = [placed(r["name"]) for r in tool.get("readers") or [] if r.get("evidence") == "shown"]
        beliefs["bindings"] = [b for b in tool.get("bindings") or [] if b.get("evidence") == "shown"]
        model.append(placed(json.dumps(beliefs, sort_keys=True)))
    # The values an experiment drew may differ (draws are seeded by name); what it called may not.
    facts = [{**f, "calls": [c["tool"] if isinstance(c, dict) else c for c in f.get("calls", [])]}
             for f in learned["facts"]]
    model.append(sorted(placed(json.dumps(f, sort_keys=True)) for f in facts))
    return model
