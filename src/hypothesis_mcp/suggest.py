"""'Did you mean' for names the user typed: the closest valid names, for a usage error."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(name: str, valid: Iterable[str], *, noun: str = "") -> str:
    """'; closest: a, b' (or '; valid: …' when nothing is close), ready to end a message."""
    names = sorted(set(valid))
    near = nearest(name, names)
    if near:
        return f"; closest: {', '.join(near)}"
    if not names:
        return f"; there are no {noun or 'names'} to choose from"
    shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
    return f"; valid {noun or 'names'}: {shown}"


def nearest(name: str, valid: Iterable[str], *, n: int = 3) -> list[str]:
    """The valid names closest to `name`, closest first (none when nothing is close)."""
    return difflib.get_close_matches(name, sorted(set(valid)), n=n, cutoff=0.5)
