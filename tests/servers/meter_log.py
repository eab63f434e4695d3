"""A log of electricity meter readings: a reading holds no text at all, only numbers, a flag and a
phase letter, filed under a meter code of a fixed pattern. Answers are typed (TypedDict results,
so each tool declares an output schema), and a missing meter is an exception the SDK turns into an
`isError` result.

- log_reading(meter, kwh, peak=0, phase="a", estimated=false): files (or replaces) the meter's reading.
- reading(meter): the meter's reading.
- readings(): every reading, oldest first.
- forget_reading(meter): removes the meter's reading.

`--bug peak-dropped`: `peak` is stored as its default 0, whatever was sent (a field the store never
keeps). `--bug forget-listed`: `forget_reading` removes the reading from `reading` only; `readings`
still lists it.

    python tests/servers/meter_log.py [--bug peak-dropped|forget-listed]
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

import serving
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

BUGS = ("peak-dropped", "forget-listed")

Meter = Annotated[str, Field(pattern=r"^MTR-[0-9]{6}$", description="The meter's code, MTR- and six digits.")]


class Reading(TypedDict):
    meter: str
    kwh: float
    peak: int
    phase: str
    estimated: bool


class Filed(TypedDict):
    meter: str


class Log(TypedDict):
    readings: list[Reading]


def build_server(bug: str | None = None) -> MCPServer:
    mcp = MCPServer("meter-log", log_level="WARNING")
    filed: dict[str, Reading] = {}
    forgotten: dict[str, Reading] = {}
    """Readings `forget_reading` removed that the buggy listing still shows."""

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    def log_reading(meter: Meter,
                    kwh: Annotated[float, Field(ge=0, description="Energy used since the last reading.")],
                    peak: Annotated[int, Field(ge=0, description="Highest draw in watts.")] = 0,
                    phase: Literal["a", "b", "c"] = "a",
                    estimated: bool = False) -> Filed:
        """Files a meter's reading, replacing the one it had."""
        forgotten.pop(meter, None)
        filed[meter] = Reading(meter=meter, kwh=kwh, peak=0 if bug == "peak-dropped" else peak, phase=phase,
                               estimated=estimated)
        return Filed(meter=meter)

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    def reading(meter: Meter) -> Reading:
        """The meter's reading."""
        if meter not in filed:
            raise ValueError(f"no reading for meter {meter}")
        return Reading(**filed[meter])

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    def readings() -> Log:
        """Every reading, oldest first."""
        return Log(readings=[Reading(**r) for r in (*filed.values(), *forgotten.values())])

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True))
    def forget_reading(meter: Meter) -> Filed:
        """Removes the meter's reading."""
        if meter not in filed:
            raise ValueError(f"no reading for meter {meter}")
        gone = filed.pop(meter)
        if bug == "forget-listed":
            forgotten[meter] = gone
        return Filed(meter=meter)

    return mcp


def main() -> None:
    serving.main_sdk(build_server, BUGS, __doc__ or "")


if __name__ == "__main__":
    main()
