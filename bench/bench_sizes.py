"""Time to draw values of large schemas: long arrays, long strings, many properties.

    python bench/bench_sizes.py [--examples 60]

Each row draws `--examples` values (valid, or invalid through `invalid_from_schema`) in a `@given`
test, generate phase only, derandomized, no database, and checks every value with `jsonschema`
afterwards (not timed). Times are for generation alone; they should grow linearly with the size.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from hypothesis_mcp.strategies import from_schema, invalid_from_schema

CASES: list[tuple[str, dict[str, Any], bool]] = [
    ("array, minItems 1000", {"type": "array", "minItems": 1000}, True),
    ("array of integers, minItems 2000", {"type": "array", "items": {"type": "integer"}, "minItems": 2000}, True),
    ("string, minLength 20000", {"type": "string", "minLength": 20000}, True),
    ("object, minProperties 500", {"type": "object", "minProperties": 500}, True),
    ("invalid: array, minItems 5000", {"type": "array", "items": {"type": "integer"}, "minItems": 5000}, False),
    ("invalid: string, minLength 20000", {"type": "string", "minLength": 20000, "maxLength": 30000}, False),
]


def draw(strategy: st.SearchStrategy[Any], examples: int) -> tuple[list[Any], float]:
    drawn: list[Any] = []

    @settings(
        max_examples=examples,
        database=None,
        derandomize=True,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def run(value: Any) -> None:
        drawn.append(value)

    start = time.perf_counter()
    run()
    return drawn, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=60)
    args = parser.parse_args()
    print("| schema | draws | seconds | all judged right |\n|---|---|---|---|")
    for name, schema, valid in CASES:
        strategy = from_schema(schema) if valid else invalid_from_schema(schema)
        drawn, seconds = draw(strategy, args.examples)
        oracle = Draft202012Validator(schema)
        values = drawn if valid else [d.value for d in drawn]
        right = all(oracle.is_valid(v) is valid for v in values)
        print(f"| {name} | {len(drawn)} | {seconds:.2f} | {'yes' if right else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
