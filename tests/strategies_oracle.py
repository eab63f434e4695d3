"""The test oracle: a fresh `jsonschema` validator with format checking on, plus strict format checks.

jsonschema skips some formats unless optional packages are installed (date-time, time, uri,
hostname, duration); the strict checks here hold generated values to the RFCs either way.
"""

from __future__ import annotations

import datetime
import ipaddress
import re
from typing import Any

import jsonschema
from jsonschema.validators import validator_for

from hypothesis_mcp.strategies.ecma import ecma_class, pythonize

_HOST = re.compile(
    r"^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}"
    r"[A-Za-z0-9])?)*$"
)
_OFFSET = r"(Z|[+-]([01]\d|2[0-3]):[0-5]\d)"
_TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?" + _OFFSET + "$")
_DURATION = re.compile(r"^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$")
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$")


def _date_time(value: str) -> bool:
    date, sep, time = value.partition("T")
    return bool(sep) and _date(date) and bool(_TIME.match(time))


def _date(value: str) -> bool:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _email(value: str) -> bool:
    local, at, domain = value.rpartition("@")
    return bool(
        at
        and re.fullmatch(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*", local)
        and _HOST.match(domain)
        and "." in domain
    )


def _ip(version: int) -> Any:
    def check(value: str) -> bool:
        try:
            return ipaddress.ip_address(value).version == version
        except ValueError:
            return False

    return check


STRICT = {
    "date-time": _date_time,
    "date": _date,
    "time": lambda v: bool(_TIME.match(v)),
    "email": _email,
    "hostname": lambda v: bool(_HOST.match(v)),
    "uri": lambda v: bool(_URI.match(v)) and "://" in v,
    "uuid": lambda v: bool(re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", v)),
    "ipv4": _ip(4),
    "ipv6": _ip(6),
    "duration": lambda v: bool(_DURATION.match(v)),
}


def oracle(schema: Any) -> jsonschema.protocols.Validator:
    """jsonschema reading patterns as ECMA-262 (`\\p{Lu}`); test_strategies_unicode checks that reading."""
    cls = ecma_class(validator_for(schema, default=jsonschema.Draft202012Validator))
    return cls(pythonize(schema), format_checker=cls.FORMAT_CHECKER)


def strict_format_errors(schema: Any, value: Any) -> list[str]:
    """Formats in a flat string schema that the value breaks under a strict reading."""
    if not isinstance(schema, dict) or not isinstance(value, str):
        return []
    fmt = schema.get("format")
    check = STRICT.get(fmt)
    return [f"{value!r} is not a strict {fmt}"] if check and not check(value) else []
