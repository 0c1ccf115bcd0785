"""What the catalogue screen shows (plain Python, tested without Kivy): every Hub, Sector, ship
and Diplomacy level with each value and where it comes from (rulebook / inferred / entered /
unknown), and a player's corrections, kept in the user's overlay (`set_user_value`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.catalogue_files import load_catalogue, set_user_value
from companion.rules.actions import SHIP_VALUES
from companion.rules.catalogue import Catalogue, CatalogueError, check_entry
from companion.rules.words import SECTOR_COLORS, TRACK_NAMES
from companion.ui.values_model import ValueEntry, can_enter, words

KIND_NAMES = {"hubs": "Hubs", "sectors": "Sectors", "ships": "Ships", "diplomacy": "Diplomacy"}
SOURCE_WORDS = {"rulebook": "rulebook", "inferred": "inferred", "user": "entered",
                "unknown": "unknown"}
# A field as a player says it, by "kind/field" (ships: the engine's SHIP_VALUES words; a
# Diplomacy bonus and a Sector ability's quarter: field_words builds them).
FIELD_WORDS = {
    "hubs/game": "game (basic or advanced)",
    "hubs/theme": "theme",
    "hubs/income_gems_per_ship": "income: GEMs per ship",
    "hubs/income_fixed_gems": "income: fixed GEMs",
    "hubs/starting_gems": "starting GEMs",
    "hubs/starting_food": "starting food",
    "hubs/starting_water": "starting water",
    "hubs/starting_metal": "starting metal",
    "hubs/starting_diplomacy": "starting Diplomacy",
    "hubs/setup_free_sectors": "free Sectors at setup",
    "hubs/setup_private_sectors": "private Sectors at setup",
    "hubs/setup_ship_changes": "ship changes at setup",
    "hubs/setup_residents": "residents at setup",
    "hubs/living_quarters": "living quarters",
    "hubs/quarter_income": "income of each living quarter",
    "sectors/level": "level",
    "sectors/color": "colour",
    "sectors/cost": "cost (metal)",
    "sectors/quarters": "living quarters",
    "sectors/income_icons": "income icons",
    "sectors/income_icons_complete": "all income icons known",
    "sectors/first_game": "in the first game",
    "ships/type": "type",
    "ships/level": "level",
    "ships/count": "cards in the game",
    "ships/size": "cards in the deck",
    **{f"ships/{field}": words for field, words in SHIP_VALUES.items()},
    "diplomacy/lobbying_cost": "lobbying cost (GEMs)",
    "diplomacy/tracks": "tracks",
    "diplomacy/top_level": "top level",
}


def field_words(kind: str, field: str) -> str:
    """A catalogue field in words: "metal value", "Transport bonus", "ability 1's quarter"."""
    if field.startswith("bonus_"):
        return f"{TRACK_NAMES[field.removeprefix('bonus_')]} bonus"
    if field.startswith("abilities."):
        return f"living quarter of ability {int(field.split('.')[1]) + 1}"
    return FIELD_WORDS[f"{kind}/{field}"]


@dataclass(frozen=True)
class ValueRow:
    """One value: its key ("sectors/214/cost"), its field and what it is in words, where it
    comes from and why."""

    key: str
    name: str  # the field: "cost"
    words: str  # "cost (metal)"
    shown: str  # "9 · rulebook"
    note: str  # the rulebook's sentence, the reasoning, or ""
    source: str
    correctable: bool  # can be entered on screen
    colors: tuple[str, ...]  # a Sector's colour: corrected in one tap


@dataclass(frozen=True)
class RecordRow:
    """One component of a kind: its id, its label and how many values are still unknown."""

    record: str
    label: str
    unknown: int


class CatalogueBrowser:
    """The catalogue with the user's overlay: records by kind, their values, corrections."""

    def __init__(self, overlay: Path) -> None:
        self.overlay = overlay
        self.catalogue: Catalogue = load_catalogue(overlay=overlay)
        self.message = ""

    def records(self, kind: str) -> list[RecordRow]:
        """The components of `kind` ("sectors"), in the catalogue's order."""
        rows = []
        for record in self.catalogue.records(kind):
            values = self.values(kind, str(record))
            rows.append(RecordRow(str(record), self.label(kind, str(record)),
                                  sum(v.source == "unknown" for v in values)))
        return rows

    def label(self, kind: str, record: str) -> str:
        """"Sector 214 · Level 2 pink", "Hub B-1", "ship L2-farm", "Diplomacy level-1"."""
        if kind == "sectors":
            sector = self.catalogue.sectors[int(record)]
            return f"Sector {record} · Level {sector.level} {sector.color or ''}".rstrip()
        return {"hubs": "Hub", "ships": "ship", "diplomacy": "Diplomacy"}[kind] + f" {record}"

    def values(self, kind: str, record: str) -> list[ValueRow]:
        """Every value of one component, Sector ability links included."""
        rows = []
        for k, r, name, field in self.catalogue.iter_fields():
            if k != kind or r != record:
                continue
            key = f"{kind}/{record}/{name}"
            source = SOURCE_WORDS[field.source]
            shown = "?" if not field.known else words(field.value)
            colors = SECTOR_COLORS if kind == "sectors" and name == "color" else ()
            rows.append(ValueRow(key, name, field_words(kind, name), f"{shown} · {source}",
                                 field.note or "", field.source, can_enter(key, self.catalogue),
                                 colors))
        return rows

    def entry(self, row: ValueRow) -> ValueEntry:
        """How a value is corrected (values_model.py)."""
        kind, record = row.key.split("/")[:2]
        return ValueEntry(row.key, self.catalogue, f"{self.label(kind, record)}: "
                                                   f"{row.words}, as printed on your copy")

    def correct(self, key: str, value: Any) -> bool:
        """Keep `value` for `key` in the overlay (for all later games); False: `message`."""
        try:
            kind, record, field = check_entry(key, value, self.catalogue.shipped).split("/")
            set_user_value(self.overlay, kind, record, field, value)
        except (CatalogueError, OSError) as error:
            self.message = str(error)
            return False
        self.message = ""
        self.catalogue = load_catalogue(overlay=self.overlay)
        return True
