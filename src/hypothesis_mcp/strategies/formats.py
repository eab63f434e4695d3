"""Values for `format`, valid under a strict reading of each RFC, and values that break them.

`jsonschema` only enforces some formats unless optional packages are installed (date-time needs
rfc3339-validator, uri needs rfc3986-validator, hostname needs fqdn). Generated values are valid
for those checkers anyway, so a server that does enforce them accepts every value we send.
"""

from __future__ import annotations

import datetime
import ipaddress
import re
import uuid
from collections.abc import Callable

from hypothesis import strategies as st

from hypothesis_mcp.strategies.fastregex import regex_text

_LABEL = regex_text(r"[a-z]([a-z0-9-]{0,10}[a-z0-9])?")
_TLD = st.sampled_from(["com", "org", "net", "io", "dev"])
_HOSTNAME = st.builds(lambda labels, tld: ".".join([*labels, tld]), st.lists(_LABEL, min_size=1, max_size=3), _TLD)
_ATOM = regex_text(r"[a-z0-9_+-]{1,12}")
_EMAIL = st.builds(lambda atoms, host: ".".join(atoms) + "@" + host, st.lists(_ATOM, min_size=1, max_size=2), _HOSTNAME)
_SEGMENT = regex_text(r"[A-Za-z0-9._~-]{1,10}")
_PATH = st.lists(_SEGMENT, max_size=3).map(lambda parts: "".join("/" + p for p in parts))
_QUERY = st.one_of(st.just(""), regex_text(r"\?[a-z]{1,6}=[A-Za-z0-9]{0,8}"))
_URI = st.builds(
    lambda scheme, host, path, query: f"{scheme}://{host}{path}{query}",
    st.sampled_from(["https", "http"]),
    _HOSTNAME,
    _PATH,
    _QUERY,
)
_RELATIVE = st.builds(lambda parts, query: "/".join(parts) + query, st.lists(_SEGMENT, min_size=1, max_size=3), _QUERY)
_OFFSET = st.one_of(
    st.just("Z"),
    st.integers(-23 * 60 - 59, 23 * 60 + 59).map(
        lambda m: f"{'+' if m >= 0 else '-'}{abs(m) // 60:02d}:{abs(m) % 60:02d}"
    ),
)
_TIME = st.builds(lambda t, off: t.isoformat() + off, st.times(), _OFFSET)
_DATE = st.dates().map(lambda d: d.isoformat())
_DATE_TIME = st.builds(lambda dt, off: dt.isoformat() + off, st.datetimes(), _OFFSET)
_N = st.integers(0, 999).map(str)


def _duration(parts: tuple[str | None, ...]) -> str:
    y, mo, d, h, mi, s = parts
    date = "".join(f"{v}{u}" for v, u in ((y, "Y"), (mo, "M"), (d, "D")) if v)
    time = "".join(f"{v}{u}" for v, u in ((h, "H"), (mi, "M"), (s, "S")) if v)
    if not date and not time:
        date = "0D"
    return "P" + date + ("T" + time if time else "")


_DURATION = st.tuples(*[st.none() | _N for _ in range(6)]).map(_duration)
_POINTER_TOKEN = st.text(st.characters(codec="utf-8", exclude_characters="~/"), max_size=6) | st.sampled_from(
    ["~0", "~1", "a~1b"]
)
_POINTER = st.lists(_POINTER_TOKEN, max_size=3).map(lambda toks: "".join("/" + t for t in toks))

FORMATS: dict[str, st.SearchStrategy[str]] = {
    "date-time": _DATE_TIME,
    "date": _DATE,
    "time": _TIME,
    "duration": _DURATION,
    "email": _EMAIL,
    "idn-email": _EMAIL,
    "hostname": _HOSTNAME,
    "idn-hostname": _HOSTNAME,
    "ipv4": st.ip_addresses(v=4).map(str),
    "ipv6": st.ip_addresses(v=6).map(str),
    "uri": _URI,
    "iri": _URI,
    "uri-reference": _URI | _RELATIVE,
    "iri-reference": _URI | _RELATIVE,
    "uri-template": st.builds(lambda u, v: f"{u}/{{{v}}}", _URI, regex_text(r"[a-z]{1,6}")),
    "uuid": st.uuids().map(str),
    "regex": st.sampled_from(["^[a-z]+$", "[0-9]{2,4}", "a|b", ".*", "^$"]),
    "json-pointer": _POINTER,
    "relative-json-pointer": st.builds(lambda n, p: f"{n}{p}", st.integers(0, 9), _POINTER | st.just("#")),
}

# Values that break each format under every checker we know of.
BROKEN: dict[str, tuple[str, ...]] = {
    "date-time": ("not-a-date-time", "2021-13-45T25:61:00Z", "2021-01-01 10:00"),
    "date": ("not-a-date", "2021-13-45", "20210101", "2021-02-30"),
    "time": ("not-a-time", "25:61:00Z", "10:00"),
    "duration": ("not-a-duration", "P", "PT", "1D"),
    "email": ("not-an-email", "", "no.at.sign"),
    "idn-email": ("not-an-email", "", "no.at.sign"),
    "hostname": ("-bad-.host-", "a..b", "under_score.com", ""),
    "idn-hostname": ("-bad-.host-", "a..b", ""),
    "ipv4": ("999.1.1.1", "1.2.3", "not-an-ip", "01.02.03.04"),
    "ipv6": ("::g", "1:2:3", "not-an-ip", "12345::"),
    "uri": ("not a uri", "//no-scheme", "http://exa mple.com"),
    "iri": ("not a uri", "//no-scheme"),
    "uri-reference": ("http://exa mple.com", "\\\\bad"),
    "iri-reference": ("http://exa mple.com",),
    "uri-template": ("{unclosed",),
    "uuid": ("not-a-uuid", "1234", "00000000-0000-0000-0000-0000000000000"),
    "regex": ("(unclosed", "[", "*"),
    "json-pointer": ("no-slash", "/bad~2"),
    "relative-json-pointer": ("-1", "x/y"),
}

# Lengths every value of a format has (fewest, most); a length bound outside them is a contradiction.
LENGTHS: dict[str, tuple[int, int | None]] = {
    "date": (10, 10),
    "uuid": (36, 36),
    "ipv4": (7, 15),
    "time": (9, None),
    "date-time": (20, None),
}

# A few valid values of each format: where a value that also matches a pattern is looked for first.
EXAMPLES: dict[str, tuple[str, ...]] = {
    "date-time": ("2021-06-01T12:30:00Z", "1999-12-31T23:59:59+01:00", "2030-02-28T08:00:00.5-05:30"),
    "date": ("2021-06-01", "1999-12-31", "2030-02-28"),
    "time": ("12:30:00Z", "23:59:59+01:00", "08:00:00.5-05:30"),
    "duration": ("P1D", "PT2H30M", "P1Y2M3DT4H5M6S"),
    "email": ("user@example.com", "first.last+tag@mail.example.org", "x_1@host.io"),
    "hostname": ("example.com", "api.service.example.org", "a-1.io"),
    "ipv4": ("192.168.1.10", "10.0.0.1", "8.8.4.4"),
    "ipv6": ("::1", "2001:db8::8a2e:370:7334", "fe80::1"),
    "uri": ("https://example.com/path?q=1", "http://host.io", "https://api.example.org/v1/items"),
    "uri-reference": ("https://example.com/path?q=1", "docs/page", "/abs/path"),
    "uri-template": ("https://example.com/{id}", "http://host.io/items/{name}"),
    "uuid": ("123e4567-e89b-12d3-a456-426614174000", "f47ac10b-58cc-4372-a567-0e02b2c3d479"),
    "json-pointer": ("", "/a/b", "/items/0"),
    "relative-json-pointer": ("0", "1/a", "2#"),
    "regex": ("^[a-z]+$", "[0-9]{2,4}", "a|b"),
}
for _plain, _international in (("email", "idn-email"), ("hostname", "idn-hostname"), ("uri", "iri")):
    EXAMPLES[_international] = EXAMPLES[_plain]
EXAMPLES["iri-reference"] = EXAMPLES["uri-reference"]

_LABEL_TEXT = r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = re.compile(f"(?=.{{1,253}}\\Z){_LABEL_TEXT}(\\.{_LABEL_TEXT})*")
_OFFSET_TEXT = r"(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
_TIME_TEXT = r"([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?" + _OFFSET_TEXT
_DURATION_TEXT = r"P(?!\Z)([0-9]+Y)?([0-9]+M)?([0-9]+W)?([0-9]+D)?(T(?=[0-9])([0-9]+H)?([0-9]+M)?([0-9]+S)?)?"
_ATOM_TEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"


def _date(value: str) -> bool:
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _email(value: str) -> bool:
    local, at, domain = value.rpartition("@")
    return bool(
        at and re.fullmatch(f"{_ATOM_TEXT}(\\.{_ATOM_TEXT})*", local) and _HOST.fullmatch(domain) and "." in domain
    )


def _ip(version: int) -> Callable[[str], bool]:
    def check(value: str) -> bool:
        try:
            return ipaddress.ip_address(value).version == version
        except ValueError:
            return False

    return check


def _uuid(value: str) -> bool:
    try:
        return str(uuid.UUID(value)) == value.lower() and len(value) == 36
    except ValueError:
        return False


# Strict checks, for values not drawn from FORMATS (a pattern's strings kept when they are valid
# formats): the format checker of `jsonschema` skips some formats without optional packages.
STRICT: dict[str, Callable[[str], bool]] = {
    "date-time": lambda v: (
        len(v) > 11 and v[10] in "Tt" and _date(v[:10]) and bool(re.fullmatch(_TIME_TEXT, v[11:]))
    ),
    "date": _date,
    "time": lambda v: bool(re.fullmatch(_TIME_TEXT, v)),
    "duration": lambda v: bool(re.fullmatch(_DURATION_TEXT, v)),
    "email": _email,
    "idn-email": _email,
    "hostname": lambda v: bool(_HOST.fullmatch(v)),
    "ipv4": _ip(4),
    "ipv6": _ip(6),
    "uuid": _uuid,
    "uri": lambda v: bool(re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s\\\\<>\"{}|^`]+", v)),
}
