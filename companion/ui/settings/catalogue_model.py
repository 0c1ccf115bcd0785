"""What the catalogue screen shows (plain Python, tested without Kivy): every Hub, Sector, ship
and Diplomacy level with each value and where it comes from (rulebook / inferred / entered /
unknown), and a player's corrections, kept in the user's overlay (`set_user_value`). A rulebook
quote stays the rulebook's English; in German, the German summary's words are shown beside it
where they say the same (`quote_words`, companion/i18n/de/quotes.po); an inferred value's
reasoning is worded in the language spoken (companion/i18n/de/reasons.po)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import i18n
from companion.catalogue_files import load_catalogue, set_user_value
from companion.i18n import _
from companion.rules.catalogue import Catalogue, CatalogueError, Field, check_entry
from companion.rules.message import say
from companion.rules.words import SECTOR_COLORS, color_name, component_message, field_name
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


def quote_words(field: Field) -> tuple[str, str]:
    """A value's note as shown, and the rendering beside it: a rulebook quote in quotation
    marks (the rulebook's English, whatever the language) with, where the language spoken has
    one, its rendering ("Deutsch: ..."); an inferred value's reasoning in the language spoken
    (the rulebook's sentences quoted in it in English); else ""."""
    if not field.note:
        return "", ""
    if field.source != "rulebook":
        return i18n.reason_text(field.note), ""
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
        """"Sector 214 · Level 2 pink", "Hub B-1", "ship Farm L2", "Diplomacy level 1"."""
        if kind == "sectors":
            sector = self.catalogue.sectors[int(record)]
            return _("Sector {number} · Level {level} {color}").format(
                number=record, level=sector.level,
                color=color_name(sector.color) if sector.color else "").rstrip()
        if kind == "ships":
            return _("ship {record}").format(record=say(component_message(kind, record)))
        return say(component_message(kind, record))

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
            rows.append(ValueRow(key, name, field_name(kind, name), f"{shown} · {source}",
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
