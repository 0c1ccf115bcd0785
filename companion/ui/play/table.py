"""The table screen: whose turn, every player's counters and ships, the neutral ships, the supply
and the end status; Undo, Next, Income and the active player's Station. A long press on a counter
corrects it (adjust.py); the numbers that changed light up for a moment. What it shows comes from
table_model.py; a refresh updates the widgets in place (new ones only when a player's ships
change), so a touch is on screen within a frame or two."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    DictProperty,
    ListProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.i18n import _
from companion.rules import commands
from companion.rules.commands import CommandDict
from companion.rules.words import RESOURCES, amount
from companion.ui.kit.widgets import PLAYER_RGBA, PLAYER_TEXT, TagButton, TagLabel
from companion.ui.play.adjust import correct, counter_label
from companion.ui.play.table_model import (
    COUNTER_NAMES,
    NEUTRAL,
    PlayerRow,
    ShipButton,
    TableView,
    amount_markup,
    changed_numbers,
    table_view,
    trigger_condition,
)

LONG_PRESS_S = 0.6  # a finger held this long on a counter corrects it
NUMBER_PX = 24  # a counter's number (at 800x480; times app.unit), its word smaller (table.kv)
AMOUNTS = ("gems", *RESOURCES)  # the counters beside the name plate
HIGHLIGHT_S = 2.0  # how long the numbers that changed stay lit
TRAVEL_PX = 20  # a touch that moved further is a scroll, not a long press


class ShipTile(TagButton):
    """A ship: dim when it cannot be used now; shows whose Action marker is on it."""

    button = ObjectProperty(None, allownone=True)

    def show(self, button: ShipButton) -> None:
        """Show this ship as it stands now."""
        marker = _("{player}'s marker").format(player=button.marker) if button.marker else ""
        if button.token:
            marker = (_("{player}: marker+token").format(player=button.marker)
                      if button.token == button.marker
                      else _("{player}'s token").format(player=button.token))
        level = ("" if marker else _("Neutral")) if button.level == NEUTRAL else button.level
        small = int(App.get_running_app().unit * 13)
        self.text = (f"[b]{button.kind}[/b]\n"
                     f"[size={small}]{' · '.join(filter(None, (level, marker)))}[/size]")
        self.tag, self.opacity, self.button = (f"ship:{button.ship_id}",
                                               1 if button.usable else 0.55, button)


class CounterLabel(TagLabel):
    """A player's counter; held down for LONG_PRESS_S it fires `on_long_press`."""

    counter = StringProperty("")
    __events__ = ("on_long_press",)

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        touch.ud[self] = Clock.schedule_once(lambda _dt: self._held(touch), LONG_PRESS_S)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        held = touch.ud.pop(self, None)
        if held is not None:
            held.cancel()
        return super().on_touch_up(touch)

    def _held(self, touch: Any) -> None:
        touch.ud.pop(self, None)
        if abs(touch.x - touch.ox) < TRAVEL_PX and abs(touch.y - touch.oy) < TRAVEL_PX:
            self.dispatch("on_long_press")

    def on_long_press(self) -> None:
        """Fired by a long press."""


class CountersRow(BoxLayout):
    """A player's GEMs, food, water and metal side by side; `text` reads them as one line."""

    tag = StringProperty("")
    text = StringProperty("")


class PlayerStrip(BoxLayout):
    """One player's name plate, counters, Diplomacy levels and ships."""

    name = StringProperty("")
    gems = StringProperty("")
    food = StringProperty("")
    water = StringProperty("")
    metal = StringProperty("")
    shown = DictProperty({})  # AMOUNTS as their labels show them: the number big, the word not
    points = StringProperty("")
    diplomacy = StringProperty("")
    plate = ColorProperty((0, 0, 0, 1))
    plate_text = ColorProperty((1, 1, 1, 1))
    active = BooleanProperty(False)
    lit = ListProperty([])  # the counters (and "diplomacy") that just changed
    values: dict[str, int]

    def show(self, row: PlayerRow, lit: list[str], table: TableScreen) -> None:
        """Show the player's row; ship tiles are made again only when the ships changed."""
        self.values = row.counters
        for counter, _word in COUNTER_NAMES:
            setattr(self, counter, amount(counter, row.counters[counter]))
        big = round(App.get_running_app().unit * NUMBER_PX)
        self.shown = {counter: amount_markup(row.counters[counter], counter, big)
                      for counter in AMOUNTS}
        self.name, self.diplomacy, self.active, self.lit = (row.name, row.diplomacy, row.active,
                                                            lit)
        self.plate, self.plate_text = PLAYER_RGBA[row.color], PLAYER_TEXT[row.color]
        show_ships(self.ids.ships, row.ships, table)

    def correct(self, counter: str) -> None:
        """Correct one of this player's counters (keypad, then a note)."""
        app = App.get_running_app()
        correct(self.name, counter, counter_label(self.name, counter), self.values[counter],
                lambda: app.open("table"))


def show_ships(box: BoxLayout, ships: list[ShipButton], table: TableScreen) -> None:
    """Fill `box` with one tile per ship, reusing the tiles when the ships are the same."""
    tiles = list(reversed(box.children))
    if [t.button.ship_id for t in tiles] != [s.ship_id for s in ships]:
        box.clear_widgets()
        tiles = []
        for _ship in ships:
            tile = ShipTile()
            tile.bind(on_release=lambda t: table.tap_ship(t.button))
            box.add_widget(tile)
            tiles.append(tile)
    for tile, ship in zip(tiles, ships):
        tile.show(ship)


class TableScreen(Screen):
    """The main screen of a game."""

    heading = StringProperty("")
    active = StringProperty("")
    active_plate = ColorProperty((0, 0, 0, 1))
    active_text = ColorProperty((1, 1, 1, 1))
    undo = StringProperty("")
    next_allowed = BooleanProperty(False)
    supply = StringProperty("")
    supply_lit = BooleanProperty(False)
    end = StringProperty("")
    message = StringProperty("")
    demo = BooleanProperty(False)

    shown: TableView | None = None
    shown_game: object = None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._unlight = Clock.create_trigger(self.unlight, HIGHLIGHT_S)

    def view(self) -> TableView:
        """What to show, from the open game's state and options."""
        session = App.get_running_app().session
        steps = session.game.game.steps
        opts = session.options()
        condition = trigger_condition(steps) if opts["end"]["triggered_by"] else ""
        return table_view(session.state, opts, steps[-1].events if steps else [], condition)

    def refresh(self) -> None:
        """Show the game as it stands now, lighting up the numbers that changed."""
        session = App.get_running_app().session
        if session.game is None or session.state["phase"] != "play":
            return
        view = self.view()
        same_game = self.shown_game is session.game
        if not same_game:  # another game (or the same opened again): no message from the last
            self.message = ""
        changed = changed_numbers(self.shown if same_game else None, view)
        self.shown, self.shown_game = view, session.game
        self.heading, self.active, self.undo = view.heading, view.active, view.undo
        self.active_plate = PLAYER_RGBA[view.active_color]
        self.active_text = PLAYER_TEXT[view.active_color]
        self.next_allowed, self.supply, self.end = view.next_allowed, view.supply, view.end
        self.supply_lit = ("", "supply") in changed
        self.demo = session.is_demo
        players = self.ids.players
        strips = list(reversed(players.children))
        if [s.name for s in strips] != [row.name for row in view.players]:
            players.clear_widgets()
            strips = [PlayerStrip() for _row in view.players]
            for strip in strips:
                players.add_widget(strip)
        for strip, row in zip(strips, view.players):
            strip.show(row, [counter for who, counter in changed if who == row.name], self)
        show_ships(self.ids.neutral, view.neutral, self)
        if changed:
            self._unlight()

    def unlight(self, *_args: Any) -> None:
        """The changed numbers look like the others again."""
        self.supply_lit = False
        for strip in self.ids.players.children:
            strip.lit = []

    def tap_ship(self, button: ShipButton) -> None:
        """A usable ship opens its action; another says why it cannot be used now."""
        if not button.usable:
            self.message = button.reason
            return
        self.message = ""
        App.get_running_app().open("action", ship=button.ship_id)

    def take_income(self) -> None:
        """Income: its screen (the receipt, the powers, relocations; or why not and an
        override)."""
        self.message = ""
        App.get_running_app().open("income")

    def open_station(self) -> None:
        """The active player's station."""
        self.message = ""
        App.get_running_app().open("station", player=self.active)

    def next_turn(self) -> None:
        """End the turn (when the engine allows it)."""
        app = App.get_running_app()
        allowed = app.session.options()["end_turn"]
        if not allowed["allowed"]:
            app.say(allowed["reason"] or "")  # the panel's Next: on the screen shown
            return
        self.run(commands.end_turn())

    def confirm(self) -> None:
        """The panel's Confirm: the table's primary action, Next."""
        self.next_turn()

    def undo_step(self) -> None:
        """Take back the last step."""
        self.run(commands.undo())

    def run(self, command: CommandDict) -> None:
        """Send a command through the session, then show the table (and why it was refused)."""
        app = App.get_running_app()
        app.open("table", message=app.session.send(command).problem)
