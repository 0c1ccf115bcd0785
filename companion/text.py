"""Names and text shown to people: how long a name may be, and printing without letting a name
(or a path) send escape codes or control characters to a terminal."""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 40
"""The longest player or game name, in characters."""

_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def printable(text: str) -> str:
    """`text` with control characters (except newline and tab), escape codes and lone
    surrogates shown as escapes (\\x1b, \\ud800), safe to print to any terminal."""
    return _UNSAFE.sub(lambda found: ascii(found.group())[1:-1], text)


def name_problem(name: object, what: str = "a name") -> str | None:
    """Why `name` cannot be a player's or game's name (None: it can): it must be text, not
    empty, at most MAX_NAME characters, without control characters."""
    if not isinstance(name, str) or not name.strip():
        return f"{what} cannot be empty"
    if len(name.strip()) > MAX_NAME:
        return (f"{what} is {len(name.strip())} characters long; at most {MAX_NAME} are "
                "allowed")
    if _UNSAFE.search(name) or any(unicodedata.category(c) == "Cc" for c in name):
        return f"{what} cannot contain control characters ({printable(name)})"
    return None
