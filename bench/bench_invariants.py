"""What the model machines of the store invariants cost: the grading run on the bench server with
and without them.

    python bench/bench_invariants.py [--repeat 3]

The grading run (`--profile grading --smoke --probes --allow-writes`) on bench/kv_server.py, in this
process, twice per round: as shipped, and with the reads, pages, identity-variants, agreement and
fields machines yielding nothing (the round trip, calibration and every other probe as shipped;
deletes never run without --allow-deletes). The order alternates between rounds. Prints each
round's wall times and calls and the ratio with/without (target <= 1.25).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from alternate import as_shipped, main

from hypothesis_mcp.stateful import probes

MACHINES = ("reads_probe", "page_probes", "variants_probe", "agreement_probe", "fields_probe")


def nothing(*_: Any) -> Iterator[Any]:
    yield from ()


@contextmanager
def without_machines() -> Iterator[None]:
    shipped = {name: getattr(probes, name) for name in MACHINES}
    for name in MACHINES:
        setattr(probes, name, nothing)
    try:
        yield
    finally:
        for name, machine in shipped.items():
            setattr(probes, name, machine)


if __name__ == "__main__":
    main(__doc__, ("with the machines", "without"), (as_shipped, without_machines))
