"""The station view (read-only, per player): the Hub and its residents, the Sectors by wing and
level with their living quarters and residents drawn as outlined dots with a letter, which
abilities are active and which not yet; each counter (and the supply's) can be corrected with a
note. What it shows comes from station_model.py."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import ColorProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.i18n import _
from companion.ui.kit.colors import letter_color
from companion.ui.kit.widgets import (
    PANEL,
    PLAYER_RGBA,
    PLAYER_TEXT,
    SPECIES_RGBA,
    ResidentDot,
    TagButton,
    TagLabel,
    resident_dot,
)
from companion.ui.kit.wording import word
from companion.ui.play.adjust import correct, counter_label
from companion.ui.play.station_model import Dot, SectorCard, station_view, supply_counters


class SectorRow(BoxLayout):
    """A Sector: its number and level, its quarters, its abilities."""

    title = StringProperty("")
    abilities = StringProperty("")


def dot(data: Dot, tag: str) -> ResidentDot:
    """A resident's dot, its letter in black or white, whichever reads better."""
    return resident_dot(data.species, tag, data.active)


class StationScreen(Screen):
    """One player's station."""

    player = StringProperty("")
    title = StringProperty("")
    plate = ColorProperty(PANEL)
    plate_text = ColorProperty((1, 1, 1, 1))

    def refresh(self) -> None:
        """Draw the station as it stands now."""
        session = App.get_running_app().session
        if session.game is None or not self.player:
            return
        view = station_view(session.state, session.game.catalogue, self.player)
        self.title = _("{player}'s station ({color}) · {hub}").format(
            player=view.name, color=word(view.color), hub=view.hub)
        self.plate, self.plate_text = PLAYER_RGBA[view.color], PLAYER_TEXT[view.color]
        counters = self.ids.counters
        counters.clear_widgets()
        for who, entries in ((view.name, view.counters),
                             ("supply", supply_counters(session.state))):
            counters.add_widget(TagLabel(text=_("Supply") if who == "supply" else who,
                                         bold=True))
            for counter, value, words in entries:
                button = TagButton(text=words, tag=f"adjust:{who}:{counter}")
                label = counter_label(who, counter)
                button.bind(on_release=lambda _b, w=who, c=counter, v=value, t=label:
                            correct(w, c, t, v, self.refresh))
                counters.add_widget(button)
        rows = self.ids.rows
        rows.clear_widgets()
        rows.add_widget(TagLabel(text=_("White ring: counts now · orange ring: placed this "
                                        "turn"),
                                 halign="left", color=(0.75, 0.78, 0.85, 1)))
        hub = SectorRow(title=view.hub, abilities=_("Always active"))
        for index, quarter in enumerate(view.hub_quarters):
            hub.ids.quarters.add_widget(dot(quarter, f"resident:hub:{index}"))
        rows.add_widget(hub)
        for wing, cards in view.wings.items():
            rows.add_widget(TagLabel(text=_("{color} wing").format(color=word(wing)),
                                     tag=f"wing:{wing}", bold=True,
                                     halign="left", bg=SPECIES_RGBA.get(wing, PANEL),
                                     color=(*letter_color(SPECIES_RGBA.get(wing, PANEL)), 1)))
            for card in cards:
                rows.add_widget(self.sector_row(card))

    def sector_row(self, card: SectorCard) -> SectorRow:
        """A Sector's row with its residents' dots."""
        row = SectorRow(title=_("Sector {number} · L{level}").format(number=card.number,
                                                                     level=card.level),
                        abilities="\n".join(card.abilities) or _("no ability in play"))
        for index, quarter in enumerate(card.quarters):
            row.ids.quarters.add_widget(dot(quarter, f"resident:{card.number}:{index}"))
        return row
