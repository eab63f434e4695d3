"""'Did you mean' for names the user typed: the closest valid names, for a usage error."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(name: str, valid: Iterable[str], *, noun: str = "") -> str:
    """'; closest: a, b' (or '; valid: …' when nothing is close), ready to end a message."""
    names = sorted(set(valid))
    near = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    if near:
        return f"; closest: {', '.join(near)}"
    if not names:
        return f"; there are no {noun or 'names'} to choose from"
    shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
    return f"; valid {noun or 'names'}: {shown}"
