"""What the catalogue screen shows (plain Python, tested without Kivy): every Hub, Sector, ship
and Diplomacy level with each value and where it comes from (rulebook / inferred / entered /
unknown), and a player's corrections, kept in the user's overlay (`set_user_value`). A rulebook
quote stays the rulebook's English; in German, the German summary's words are shown beside it
where they say the same (`quote_words`, companion/i18n/de/quotes.po)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import i18n
from companion.catalogue_files import load_catalogue, set_user_value
from companion.i18n import _
from companion.rules.actions import SHIP_VALUES
from companion.rules.catalogue import Catalogue, CatalogueError, Field, check_entry
from companion.rules.words import SECTOR_COLORS, color_name, track_name
from companion.ui.kit.values_model import ValueEntry, can_enter, words

KIND_NAMES = ("hubs", "sectors", "ships", "diplomacy")  # the kinds, as tabs (`kind_name`)


def kind_name(kind: str) -> str:
    """A kind of component (one of KIND_NAMES) as its tab says it now."""
    return {"hubs": _("Hubs"), "sectors": _("Sectors"), "ships": _("Ships"),
            "diplomacy": _("Diplomacy")}[kind]


def source_word(source: str) -> str:
    """Where a value comes from, in words: rulebook / inferred / entered / unknown."""
    return {"rulebook": _("rulebook"), "inferred": _("inferred"), "user": _("entered"),
            "unknown": _("unknown")}[source]


def _field_words() -> dict[str, str]:
    """A field as a player says it now, by "kind/field" (ships: the engine's SHIP_VALUES
    words; a Diplomacy bonus and a Sector ability's quarter: field_words builds them)."""
    return {
        "hubs/game": _("game (basic or advanced)"),
        "hubs/theme": _("theme"),
        "hubs/income_gems_per_ship": _("income: GEMs per ship"),
        "hubs/income_fixed_gems": _("income: fixed GEMs"),
        "hubs/starting_gems": _("starting GEMs"),
        "hubs/starting_food": _("starting food"),
        "hubs/starting_water": _("starting water"),
        "hubs/starting_metal": _("starting metal"),
        "hubs/starting_diplomacy": _("starting Diplomacy"),
        "hubs/setup_free_sectors": _("free Sectors at setup"),
        "hubs/setup_private_sectors": _("private Sectors at setup"),
        "hubs/setup_ship_changes": _("ship changes at setup"),
        "hubs/setup_residents": _("residents at setup"),
        "hubs/living_quarters": _("living quarters"),
        "hubs/quarter_income": _("income of each living quarter"),
        "sectors/level": _("level"),
        "sectors/color": _("colour"),
        "sectors/cost": _("cost (metal)"),
        "sectors/quarters": _("living quarters"),
        "sectors/income_icons": _("income icons"),
        "sectors/income_icons_complete": _("all income icons known"),
        "sectors/first_game": _("in the first game"),
        "ships/type": _("type"),
        "ships/level": _("level"),
        "ships/count": _("cards in the game"),
        "ships/size": _("cards in the deck"),
        **{f"ships/{field}": i18n._(words) for field, words in SHIP_VALUES.items()},
        "diplomacy/lobbying_cost": _("lobbying cost (GEMs)"),
        "diplomacy/tracks": _("tracks"),
        "diplomacy/top_level": _("top level"),
    }


def field_words(kind: str, field: str) -> str:
    """A catalogue field in words: "metal value", "Transport bonus", "ability 1's quarter"."""
    if field.startswith("bonus_"):
        return _("{track} bonus").format(track=track_name(field.removeprefix("bonus_")))
    if field.startswith("abilities."):
        return _("living quarter of ability {number}").format(
            number=int(field.split(".")[1]) + 1)
    return _field_words()[f"{kind}/{field}"]


def quote_words(field: Field) -> tuple[str, str]:
    """A value's note as shown, and the rendering beside it: a rulebook quote in quotation
    marks (the rulebook's English, whatever the language) with, where the language spoken has
    one, its rendering ("Deutsch: ..."); an inferred value's reasoning as it is; else ""."""
    if not field.note:
        return "", ""
    if field.source != "rulebook":
        return field.note, ""
    rendering = i18n.quote_rendering(field.note)
    shown = f"\u201c{field.note}\u201d"
    if rendering is None:
        return shown, ""
    return shown, f"{i18n.LANGUAGES[i18n.language()]}: {rendering}"


@dataclass(frozen=True)
class ValueRow:
    """One value: its key ("sectors/214/cost"), its field and what it is in words, where it
    comes from and why."""

    key: str
    name: str  # the field: "cost"
    words: str  # "cost (metal)"
    shown: str  # "9 · rulebook"
    note: str  # the rulebook's sentence (in quotation marks), the reasoning, or ""
    rendering: str  # beside a rulebook quote: "Deutsch: ..." (German summary's words), or ""
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
            return _("Sector {number} · Level {level} {color}").format(
                number=record, level=sector.level,
                color=color_name(sector.color) if sector.color else "").rstrip()
        return {"hubs": _("Hub {record}"), "ships": _("ship {record}"),
                "diplomacy": _("Diplomacy {record}")}[kind].format(record=record)

    def values(self, kind: str, record: str) -> list[ValueRow]:
        """Every value of one component, Sector ability links included."""
        rows = []
        for k, r, name, field in self.catalogue.iter_fields():
            if k != kind or r != record:
                continue
            key = f"{kind}/{record}/{name}"
            source = source_word(field.source)
            shown = "?" if not field.known else words(field.value)
            colors = SECTOR_COLORS if kind == "sectors" and name == "color" else ()
            note, rendering = quote_words(field)
            rows.append(ValueRow(key, name, field_words(kind, name), f"{shown} · {source}",
                                 note, rendering, field.source, can_enter(key, self.catalogue),
                                 colors))
        return rows

    def entry(self, row: ValueRow) -> ValueEntry:
        """How a value is corrected (values_model.py)."""
        kind, record = row.key.split("/")[:2]
        return ValueEntry(row.key, self.catalogue,
                          _("{component}: {field}, as printed on your copy").format(
                              component=self.label(kind, record), field=row.words))

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
