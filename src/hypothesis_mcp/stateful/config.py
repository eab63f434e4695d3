"""Probe configs: what the user declares about their server, all of it high confidence.

A config can name readers, relations, agreements and extra write tools, but it can never turn
writes on; only `--allow-writes` (or `allow_writes=True`) can.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from hypothesis_mcp.errors import UsageError
from hypothesis_mcp.files import read_document
from hypothesis_mcp.waivers import Waiver, parse_waiver

EXPECTS = ("at_most", "exact", "prefix", "suffix")
UNITS = ("auto", "lines", "items")
AGREEMENTS = ("subset", "equal")
TOP_KEYS = {"args", "builtins", "laws", "writes", "exclude", "pairs", "relations", "agreements", "idempotent",
            "ignore", "allow_writes"}


@dataclass
class Pair:
    write: str
    read: str
    read_args: dict[str, Any] | None = None
    """None when not declared: the reader's arguments are then filled like a heuristic reader's."""
    write_args: dict[str, Any] = field(default_factory=dict)
    key: list[str] = field(default_factory=list)


@dataclass
class BoundRelation:
    tool: str
    param: str
    values: list[int]
    expect: str = "at_most"
    args: dict[str, Any] = field(default_factory=dict)
    unit: str = "auto"
    id: str = ""


@dataclass
class CallSpec:
    tool: str
    args: dict[str, Any] = field(default_factory=dict)
    field: str | None = None


@dataclass
class Agreement:
    left: CallSpec
    right: CallSpec
    expect: str = "subset"
    id: str = ""


@dataclass
class ProbeConfig:
    args: dict[str, dict[str, Any]] = field(default_factory=dict)
    builtins: bool = True
    laws: bool | Literal["only"] = False
    """Run the laws machine (stateful/laws/): opt-in until it retires the per-invariant machines;
    "only" runs it without them (round trips and their model machines, pages, deletes)."""
    writes: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    pairs: list[Pair] = field(default_factory=list)
    relations: list[BoundRelation] = field(default_factory=list)
    agreements: list[Agreement] = field(default_factory=list)
    idempotent: list[CallSpec] = field(default_factory=list)
    ignore: list[Waiver] = field(default_factory=list)
    source: str = "probe config"
    shipped: bool = False
    """A strategy shipped for several versions of a server: names a version lacks are noted, not errors."""

    def pair_for(self, write: str) -> Pair | None:
        return next((p for p in self.pairs if p.write == write), None)


def _need(cond: bool, where: str, message: str) -> None:
    if not cond:
        raise UsageError(f"probe config: {where}: {message}")


def _mapping(value: Any, where: str) -> dict[str, Any]:
    _need(value is None or isinstance(value, dict), where, "must be a mapping")
    return dict(value or {})


def _name(value: Any, where: str) -> str:
    _need(isinstance(value, str) and bool(value), where, "must be a tool name (a non-empty string)")
    return str(value)


def _names(value: Any, where: str) -> list[str]:
    _need(value is None or isinstance(value, list), where, "must be a list of tool names")
    return [_name(v, f"{where}[{i}]") for i, v in enumerate(value or [])]


def _call(value: Any, where: str) -> CallSpec:
    data = _mapping(value, where)
    _need("tool" in data, where, "needs 'tool'")
    extra = set(data) - {"tool", "args", "field"}
    _need(not extra, where, f"unknown key(s) {sorted(extra)}")
    fld = data.get("field")
    _need(fld is None or isinstance(fld, str), f"{where}.field", "must be a string")
    return CallSpec(_name(data["tool"], f"{where}.tool"), _mapping(data.get("args"), f"{where}.args"), fld)


def parse_config(data: Any, source: str = "probe config") -> ProbeConfig:
    """Validate a loaded config; every problem names its file and place (`pairs[0].read`)."""
    try:
        return _parse(data, source)
    except UsageError as exc:
        if str(exc).startswith(source):
            raise
        raise UsageError(f"{source}: {exc}") from None


def _parse(data: Any, source: str) -> ProbeConfig:
    _need(isinstance(data, dict), source, "the top level must be a mapping")
    unknown = set(data) - TOP_KEYS
    _need(not unknown, source, f"unknown key(s) {sorted(unknown)}; known keys: {sorted(TOP_KEYS - {'allow_writes'})}")
    _need("allow_writes" not in data, "allow_writes",
          "a probe config cannot turn writes on; pass --allow-writes on the command line")
    config = ProbeConfig(source=source)
    args = _mapping(data.get("args"), "args")
    for tool, values in args.items():
        config.args[str(tool)] = _mapping(values, f"args.{tool}")
    builtins = data.get("builtins", True)
    _need(isinstance(builtins, bool), "builtins", "must be true or false")
    config.builtins = builtins
    laws = data.get("laws", False)
    _need(isinstance(laws, bool) or laws == "only", "laws", "must be true, false or only")
    config.laws = laws
    config.writes = _names(data.get("writes"), "writes")
    config.exclude = _names(data.get("exclude"), "exclude")
    for i, raw in enumerate(data.get("pairs") or []):
        where = f"pairs[{i}]"
        item = _mapping(raw, where)
        extra = set(item) - {"write", "read", "read_args", "write_args", "key"}
        _need(not extra, where, f"unknown key(s) {sorted(extra)}")
        key = item.get("key")
        keys = [key] if isinstance(key, str) else key
        _need(keys is None or (isinstance(keys, list) and all(isinstance(k, str) for k in keys)),
              f"{where}.key", "must be a field name or a list of them")
        config.pairs.append(Pair(
            write=_name(item.get("write"), f"{where}.write"), read=_name(item.get("read"), f"{where}.read"),
            read_args=_mapping(item["read_args"], f"{where}.read_args") if "read_args" in item else None,
            write_args=_mapping(item.get("write_args"), f"{where}.write_args"), key=list(keys or []),
        ))
    for i, raw in enumerate(data.get("relations") or []):
        where = f"relations[{i}]"
        item = _mapping(raw, where)
        extra = set(item) - {"tool", "param", "values", "expect", "args", "unit", "id"}
        _need(not extra, where, f"unknown key(s) {sorted(extra)}")
        values = item.get("values")
        _need(isinstance(values, list) and bool(values)
              and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values),
              f"{where}.values", "must be a non-empty list of non-negative integers")
        expect = item.get("expect", "at_most")
        _need(expect in EXPECTS, f"{where}.expect", f"must be one of {', '.join(EXPECTS)}")
        unit = item.get("unit", "auto")
        _need(unit in UNITS, f"{where}.unit", f"must be one of {', '.join(UNITS)}")
        param = item.get("param")
        _need(isinstance(param, str) and bool(param), f"{where}.param", "must be a parameter name")
        tool = _name(item.get("tool"), f"{where}.tool")
        config.relations.append(BoundRelation(
            tool=tool, param=str(param), values=list(values or []), expect=expect,
            args=_mapping(item.get("args"), f"{where}.args"), unit=unit,
            id=str(item.get("id") or f"{tool}-{param}"),
        ))
    for i, raw in enumerate(data.get("agreements") or []):
        where = f"agreements[{i}]"
        item = _mapping(raw, where)
        expect = item.get("expect", "subset")
        _need(expect in AGREEMENTS, f"{where}.expect", f"must be one of {', '.join(AGREEMENTS)}")
        left, right = _call(item.get("left"), f"{where}.left"), _call(item.get("right"), f"{where}.right")
        config.agreements.append(Agreement(left, right, expect, str(item.get("id") or f"{left.tool}-{right.tool}")))
    for i, raw in enumerate(data.get("idempotent") or []):
        config.idempotent.append(_call(raw, f"idempotent[{i}]"))
    ignore = data.get("ignore") or []
    _need(isinstance(ignore, list), "ignore", "must be a list of RULE or RULE:TOOL entries")
    config.ignore = [parse_waiver(text, f"{source}: ignore[{i}]") for i, text in enumerate(ignore)]
    return config


def load_config(path: str | Path) -> ProbeConfig:
    return parse_config(read_document(path, "probe config"), str(path))
