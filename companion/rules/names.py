"""Players' names as a table can read them: normalised, and refused where two could not be told
apart or one could not be read.

A name is normalised (`normal_name`): NFC, invisible zero-width characters (U+200B, U+2060,
U+FEFF, U+00AD, U+180E) taken out, every run of white space one space, trimmed. It is refused
(`name_refusal`) when it holds a character that turns the writing direction (U+200E/F,
U+202A-U+202E, U+2066-U+2069, U+061C), or nothing readable (no letter, digit, punctuation or
symbol: only format, control or space characters). Two names are the same player
(`name_key`) when they are equal after NFKC, case folding and a small map of Cyrillic and Greek
letters that look like Latin ones ("Аnn" with a Cyrillic А is "Ann"); uniqueness is checked on
the normalised names, so "Ann" and "Ann " are one name.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from companion.i18n import _
from companion.text import name_problem

BIDI_CONTROLS = frozenset("\u200e\u200f\u061c" + "".join(map(chr, range(0x202A, 0x202F)))
                          + "".join(map(chr, range(0x2066, 0x206A))))
"""Characters that turn the writing direction of what follows (a name would reorder the line)."""

_DROPPED = dict.fromkeys(map(ord, "\u200b\u2060\ufeff\u00ad\u180e"))
"""Invisible characters with no meaning in a name, taken out."""

_SPACE = re.compile(r"\s+")

_READABLE = ("L", "N", "P", "S")  # the categories a table can read: letters, numbers, ...

# Cyrillic and Greek letters (after case folding) that look like a Latin letter.
LOOK_ALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "һ": "h",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ь": "b", "г": "r", "п": "n", "ѵ": "v",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j", "γ": "y", "ω": "w",
    # Latin letters that read as another (dotless i, long s)
    "ı": "i", "ſ": "s",
})


def normal_name(name: str) -> str:
    """`name` as it is kept: NFC, invisible zero-width characters out, white space collapsed to
    single spaces, trimmed."""
    name = unicodedata.normalize("NFC", name).translate(_DROPPED)
    return _SPACE.sub(" ", name).strip()


def name_key(name: str) -> str:
    """What a table sees of a name: two names with the same key cannot be told apart."""
    folded = unicodedata.normalize("NFKC", normal_name(name)).casefold()
    folded = unicodedata.normalize("NFKC", folded)
    folded = "".join(c for c in folded if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFC", folded.translate(LOOK_ALIKES))


def name_refusal(name: str, what: str) -> str | None:
    """Why `name` (normalised or not) cannot be a name a table reads (None: it can). `what`
    names it in the message ("player 2's name")."""
    if any(c in BIDI_CONTROLS for c in name):
        return _("{what} contains a character that turns the writing direction (U+{code:04X}); "
                 "type the name without it").format(
                     what=what, code=ord(next(c for c in name if c in BIDI_CONTROLS)))
    if not any(unicodedata.category(c)[0] in _READABLE for c in name):
        return _("{what} has no letter or digit a table could read (only invisible, space or "
                 "control characters); type a name").format(what=what)
    return None


def twins(names: Sequence[str]) -> tuple[int, int] | None:
    """The places of the first two names a table could not tell apart, or None."""
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        key = name_key(name)
        if key in seen:
            return seen[key], index
        seen[key] = index
    return None


def twins_refusal(first: str, second: str) -> str:
    """The refusal for two names a table could not tell apart."""
    if first == second:
        return _("two players are called {name}; names must differ: give each player a name of "
                 "their own").format(name=repr(first))
    return _("{first} and {second} look the same at the table; names must differ so that "
             "they can be told apart (add an initial, say)").format(
                 first=repr(first), second=repr(second))


def player_name_problem(name: object, what: str) -> str | None:
    """Why `name` cannot be a player's name (None: it can), as every door checks it: text of
    at most MAX_NAME characters without control characters, readable once normalised. `what`
    names it in the message ("player 2's name")."""
    problem = name_problem(name, what)
    if problem is None:
        normal = normal_name(str(name))
        problem = name_refusal(normal, what) or name_problem(normal, what)
    return problem
