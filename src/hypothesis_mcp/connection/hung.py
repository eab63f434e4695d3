"""What a server said on stderr while a call hung, beside what it says for every call it answers.

A hang says nothing of its cause but what the server wrote while it hung: a store's "waiting for
the lock", a client's "retrying the backend". Lines a server writes for every call (an SDK's
"Processing request of type CallToolRequest", a log of each tool called) are no cause: they are
learned from the calls it answered, with each call's own words masked (its tool's name, its
arguments' names and values, every word holding a digit), and left out of what a hang said. Before
the server answered a call, nothing tells its routine from a cause: a hang then said nothing.
"""

from __future__ import annotations

import json
import re
from typing import Any

WORD = re.compile(r"\w+")
MASK = "\u2026"
MOST_ROUTINE = 4096
"""Masked lines kept as routine at most: a server that logs a new line on every call stops being learned."""


def own_words(value: Any, into: set[str]) -> None:
    """The words of a call's own values (names, keys, texts), case-folded, as a message may quote
    them: as sent, as Python writes them (`'a\\nb'`) or as JSON does."""
    if isinstance(value, dict):
        for key, item in value.items():
            own_words(key, into)
            own_words(item, into)
    elif isinstance(value, list | tuple):
        for item in value:
            own_words(item, into)
    elif value is not None:
        for shown in (str(value), repr(value), json.dumps(value, default=str)):
            into.update(word.casefold() for word in WORD.findall(shown))


def mask_words(text: str, own: set[str]) -> str:
    """`text` with the call's own words and every word holding a digit (an id, a count) masked."""
    return WORD.sub(lambda m: MASK if m.group().casefold() in own or any(c.isdigit() for c in m.group())
                    else m.group(), text)


class StderrWords:
    """The lines a server writes for the calls it answers, masked; a hang's words are the others."""

    def __init__(self) -> None:
        self.routine: set[str] = set()
        self.answers = 0

    def answered(self, text: str, name: str, arguments: dict[str, Any]) -> None:
        self.answers += 1
        own: set[str] = set()
        own_words([name, arguments], own)
        if len(self.routine) < MOST_ROUTINE:
            self.routine.update(mask_words(line.strip(), own) for line in text.splitlines() if line.strip())

    def while_hung(self, text: str, name: str, arguments: dict[str, Any]) -> str:
        """The lines written while the call hung that no answered call wrote too."""
        if not self.answers:
            return ""
        own: set[str] = set()
        own_words([name, arguments], own)
        return "\n".join(line for line in text.splitlines()
                         if line.strip() and mask_words(line.strip(), own) not in self.routine)
