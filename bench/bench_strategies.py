"""Generation speed and validity of our JSON Schema strategies against two baselines.

    python bench/bench_strategies.py [--examples 1000] [--repeat 3]

For each schema, every generator draws the same number of examples through the same harness (a
`@given` test, generate phase only, derandomized, no database), each in its own interpreter:
ours in this environment, hypothesis-jsonschema 0.23.1 in `.cache/bench-venv-hjs` (pinned
`hypothesis<6.170.10`, the last it works with) and Schemathesis 4.32.5's own generator in
`.cache/bench-venv-st`. The venvs are created on first run. Every drawn value is then checked with
`jsonschema` here, so all sides face one oracle. Ratios are baseline time / our time: above 1 we
are faster.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache"
DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema"

SCHEMAS: dict[str, dict[str, Any]] = {
    "flat object (5 properties)": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 50},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "score": {"type": "number", "minimum": 0},
            "active": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
        },
        "required": ["name", "age"],
        "additionalProperties": False,
    },
    "2020-12 $defs/$ref, open objects": {
        "$schema": DRAFT_2020,
        "$defs": {
            "address": {
                "type": "object",
                "properties": {
                    "street": {"type": "string"},
                    "city": {"type": "string"},
                    "zip": {"type": "string"},
                },
                "required": ["city"],
            },
            "person": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "home": {"$ref": "#/$defs/address"},
                    "work": {"$ref": "#/$defs/address"},
                },
                "required": ["name"],
            },
        },
        "type": "object",
        "properties": {
            "owner": {"$ref": "#/$defs/person"},
            "members": {"type": "array", "items": {"$ref": "#/$defs/person"}, "maxItems": 3},
        },
        "required": ["owner"],
    },
    "four pattern strings": {
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"},
            "email": {"type": "string", "pattern": "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$"},
            "slug": {"type": "string", "pattern": "^[a-z0-9]+(?:-[a-z0-9]+)*$"},
            "version": {"type": "string", "pattern": "^v\\d+\\.\\d+\\.\\d+$"},
        },
        "required": ["id", "email", "slug", "version"],
        "additionalProperties": False,
    },
}

# Each generator: how to build its strategy from `schema` (the only lines that differ).
BUILDERS = {
    "ours": "from hypothesis_mcp.strategies import from_schema\nstrategy = from_schema(schema)",
    "hypothesis-jsonschema": "from hypothesis_jsonschema import from_schema\nstrategy = from_schema(schema)",
    "schemathesis": (
        "from schemathesis.generation.jsonschema.builder import build\n"
        "from schemathesis.specs.openapi.formats import get_default_format_strategies\n"
        "draft = 7 if 'draft-07' in schema.get('$schema', '') else 20\n"
        "strategy = build(schema, draft=draft, formats=get_default_format_strategies())"
    ),
}
# Each baseline: its venv folder, pinned packages, and the module whose import shows they are installed.
VENVS = {
    "hypothesis-jsonschema": (
        "bench-venv-hjs",
        ["hypothesis-jsonschema==0.23.1", "hypothesis<6.170.10"],
        "hypothesis_jsonschema",
    ),
    "schemathesis": ("bench-venv-st", ["schemathesis==4.32.5"], "schemathesis.generation.jsonschema.builder"),
}

# Runs in each interpreter: build, then time the same @given loop, then dump what was drawn.
HARNESS = """
import json, sys, time
from hypothesis import HealthCheck, Phase, given, settings
schema = json.load(open(sys.argv[1]))
examples, out = int(sys.argv[2]), sys.argv[3]
started = time.perf_counter()
{builder}
built = time.perf_counter() - started
drawn = []

@settings(max_examples=examples, database=None, derandomize=True, phases=[Phase.generate], deadline=None,
          suppress_health_check=list(HealthCheck))
@given(strategy)
def draw(value):
    drawn.append(value)

started = time.perf_counter()
draw()
generated = time.perf_counter() - started
values = []
for value in drawn:
    try:
        values.append(json.loads(json.dumps(value, allow_nan=False)))
    except (TypeError, ValueError):
        values.append({{"__not_json__": repr(value)}})
json.dump({{"build": built, "generate": generated, "values": values}}, open(out, "w"))
"""


@functools.cache
def venv_python(name: str) -> Path:
    """The interpreter of a baseline's venv, created with its pinned packages on first use.

    An install cut short leaves an interpreter without the package, so the import is tried
    before trusting an existing venv.
    """
    folder, packages, module = VENVS[name]
    path = CACHE / folder
    python = path / "bin" / "python"
    if python.exists() and subprocess.run([str(python), "-c", f"import {module}"], capture_output=True).returncode == 0:
        return python
    print(f"installing {' '.join(packages)} into {path} ...", file=sys.stderr, flush=True)
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", *packages], check=True)
    return python


def installed_copy() -> Path:
    """Our package copied under a `site-packages` folder, importable as an installed package is.

    Hypothesis mines the source of *local* modules for constants to try; an editable checkout
    counts as local, which would slow our side (and only ours) down for a reason users of an
    installed package never see.
    """
    site = CACHE / "bench-site" / "site-packages"
    shutil.rmtree(site, ignore_errors=True)
    shutil.copytree(
        ROOT / "src" / "hypothesis_mcp", site / "hypothesis_mcp", ignore=shutil.ignore_patterns("__pycache__")
    )
    return site


def run(name: str, schema: dict[str, Any], examples: int) -> dict[str, Any]:
    python = Path(sys.executable) if name == "ours" else venv_python(name)
    # Hypothesis caches its Unicode tables in its storage directory; a fresh one per run would time
    # that rebuild instead of generation, so each generator keeps one across runs.
    env = {**os.environ, "HYPOTHESIS_STORAGE_DIRECTORY": str(CACHE / "bench-hypothesis" / name)}
    if name == "ours":
        env["PYTHONPATH"] = str(installed_copy())
    with tempfile.TemporaryDirectory() as tmp:
        schema_file, out = Path(tmp) / "schema.json", Path(tmp) / "out.json"
        schema_file.write_text(json.dumps(schema))
        code = HARNESS.format(builder=BUILDERS[name])
        done = subprocess.run(
            [str(python), "-c", code, str(schema_file), str(examples), str(out)],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp,
            timeout=900,
        )
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["failed"])[-1]
            return {"error": last[:100]}
        return json.loads(out.read_text())


def validity(schema: dict[str, Any], values: list[Any]) -> float:
    from jsonschema.validators import validator_for

    cls = validator_for(schema)
    check = cls(schema, format_checker=cls.FORMAT_CHECKER)
    return 100.0 * sum(1 for v in values if check.is_valid(v)) / max(1, len(values))


def measure(schema: dict[str, Any], names: list[str], examples: int, repeat: int) -> dict[str, dict[str, Any]]:
    """Best generation time of each generator over `repeat` rounds, taken in turn (the order
    rotating each round) so that a busy machine slows every side alike; validity is that of the
    best run's values."""
    best: dict[str, dict[str, Any]] = {}
    for round_ in range(repeat):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            if "error" in best.get(name, {}):
                continue
            result = run(name, schema, examples)
            if "error" in result or name not in best or result["generate"] < best[name]["generate"]:
                best[name] = result
    return {
        name: r
        if "error" in r
        else {
            "generate": r["generate"],
            "build": r["build"],
            "count": len(r["values"]),
            "valid": validity(schema, r["values"]),
        }
        for name, r in best.items()
    }


def cell(result: dict[str, Any]) -> str:
    if "error" in result:
        return "error"
    return f"{result['generate']:.2f}s n={result['count']} {result['valid']:.0f}%"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    names = list(BUILDERS)
    rows = []
    for title, schema in SCHEMAS.items():
        results = measure(schema, names, options.examples, options.repeat)
        rows.append((title, results))
        print(f"measured {title}", file=sys.stderr, flush=True)
    header = ["schema", *names, *(f"{n} / ours" for n in names[1:])]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for title, results in rows:
        ours = results["ours"]
        ratios = []
        for name in names[1:]:
            other = results[name]
            ok = "error" not in other and "error" not in ours
            ratios.append(f"{other['generate'] / ours['generate']:.2f}x" if ok else "n/a")
        print("| " + " | ".join([title, *(cell(results[n]) for n in names), *ratios]) + " |")
    print(
        f"\ntimes: best of {options.repeat} runs of {options.examples} examples (generation only); "
        "% = share of drawn values valid for jsonschema with format checking; ratio > 1: ours is faster"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
