"""Wording every area shares (plain Python): game words in the language spoken now, amounts,
Diplomacy tracks' abbreviations and the residents' letters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.i18n import _, ability_text
from companion.rules.words import color_name

ALIEN_LETTERS = {"teal": "T", "pink": "P", "brown": "B", "gold": "G"}
LETTERS = {**ALIEN_LETTERS, "human": "H"}


def word(key: Any) -> str:
    """A colour, resource or die face in the language spoken now ("teal", "food", "human";
    rules.words.color_name); anything else (a Sector number, "hub", a name) as it is."""
    if not isinstance(key, str):
        return str(key)
    return _("unknown") if key == "unknown" else color_name(key)


def words(keys: Sequence[Any]) -> str:
    """Several keys as words, with commas: "food, water, human"."""
    return ", ".join(word(key) for key in keys)


def track_short(track: str) -> str:
    """A Diplomacy track's abbreviation on the table ("Con"), in the language spoken now."""
    return {"dismantle": _("Dis"), "construction": _("Con"), "transport": _("Tra"),
            "expedition": _("Exp")}.get(track, track)




def source_name(source: Any) -> str:
    """Where an ability is printed, as the table names it: "Hub A-3", "Sector 321"."""
    if isinstance(source, str) and "-" in source:
        return _("Hub {hub}").format(hub=source)
    return _("Sector {number}").format(number=source)


def ability_line(source: Any, text: str) -> str:
    """An ability as a player reads it: where it is printed, then its rule in the language
    spoken now ("Sector 321: When using an Expedition ship, gain 1 food and 1 water.")."""
    return f"{source_name(source)}: {ability_text(text)}"
