"""The table screen: whose turn, every player's counters and ships, the neutral ships, the supply
and the end status; Undo and Redo, Next, Income and the active player's Station. Every ship is in
view without scrolling (table_model.ship_grid lays each player's out in their row), and a ship
acts only on a tap that did not move (a swipe starts nothing). A long press on a counter corrects
it (adjust.py); the numbers that changed light up for a moment. What it shows comes from
table_model.py; a refresh updates the widgets in place (new ones only when a player's ships
change), so a touch is on screen within a frame or two."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
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
    ShipGrid,
    TableView,
    amount_markup,
    changed_numbers,
    ship_grid,
    table_view,
    trigger_condition,
)

LONG_PRESS_S = 0.6  # a finger held this long on a counter corrects it
NUMBER_PX = 20  # a counter's number (dp), its word smaller (table.kv)
AMOUNTS = ("gems", *RESOURCES, "points")  # the counters shown as a big number and a word
HIGHLIGHT_S = 2.0  # how long the numbers that changed stay lit
TRAVEL_PX = 20  # a touch that moved further is a swipe: no tap, no long press
NAME_PX, BADGE_PX = 15, 12  # a ship tile's name and its badge (the marker), at most (dp)
SMALLEST_NAME_PX = 13  # a whole name ("Construction L3") no smaller: the level goes below
PLATE_WIDTH = 180  # a player's name plate and counters beside their ships (dp, as in table.kv)


def moved(touch: Any) -> bool:
    """True when a touch travelled further than a tap does (a swipe)."""
    return abs(touch.x - touch.ox) >= TRAVEL_PX or abs(touch.y - touch.oy) >= TRAVEL_PX


@lru_cache(maxsize=512)
def text_width(text: str, bold: bool) -> float:
    """How wide `text` is at 100 px (widths grow with the font size)."""
    return float(CoreLabel(font_size=100, bold=bold).get_extents(text)[0])


def fitting_px(text: str, width: float, most: float, bold: bool = False) -> float:
    """The font size at which `text` fits `width` on one line, `most` at most."""
    wide = text_width(text, bold)
    return most if not wide else min(most, 100 * width / wide)


class TapOnly(ButtonBehavior):
    """A button that fires only for a tap: a touch that moved (a swipe) is let go without
    firing."""

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is self and moved(touch):
            touch.ungrab(self)
            self.state = "normal"
            return True
        return super().on_touch_up(touch)


def ship_words(button: ShipButton, level_below: bool = False) -> tuple[str, str]:
    """A ship tile's name ("Expedition L3", a neutral ship's type alone) and its badge: whose
    Action marker or Neutral Ship token is on it ("Bob's marker"), else "Neutral" or "".
    `level_below`: the level leads the badge ("L3 · Bob's marker"), the name is the type alone
    (a narrow tile)."""
    marker = _("{player}'s marker").format(player=button.marker) if button.marker else ""
    if button.token:
        marker = (_("{player}: marker+token").format(player=button.marker)
                  if button.token == button.marker
                  else _("{player}'s token").format(player=button.token))
    if button.level == NEUTRAL:
        return button.kind, marker or _("Neutral")
    if level_below:
        return button.kind, " · ".join(filter(None, (button.level, marker)))
    return f"{button.kind} {button.level}", marker


class ShipTile(TapOnly, TagButton):
    """A ship: its name and badge (ship_words), dim when it cannot be used now. Its name is
    `name_px` high, the size its whole grid shares; the badge shrinks to fit its width."""

    button = ObjectProperty(None, allownone=True)
    name_px = NumericProperty(dp(NAME_PX))
    level_below = BooleanProperty(False)  # its grid's tiles are narrow: the level in the badge

    def show(self, button: ShipButton) -> None:
        """Show this ship as it stands now."""
        name, badge = ship_words(button, self.level_below)
        small = fitting_px(badge, self.width - dp(6), min(self.name_px, dp(BADGE_PX)))
        self.font_size = self.name_px
        self.text = f"[b]{name}[/b]" + (f"\n[size={int(small)}]{badge}[/size]" if badge else "")
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
        return super().on_touch_down(touch)  # a tap goes on to the name plate around it

    def on_touch_up(self, touch: Any) -> bool:
        held = touch.ud.pop(self, None)
        if held is not None:
            held.cancel()
        return super().on_touch_up(touch)

    def _held(self, touch: Any) -> None:
        touch.ud.pop(self, None)
        if not moved(touch):
            touch.ud["long_pressed"] = True
            self.dispatch("on_long_press")

    def on_long_press(self) -> None:
        """Fired by a long press."""


class CountersRow(GridLayout):
    """A player's GEMs, food, water and metal, two by two; `text` reads them as one line."""

    tag = StringProperty("")
    text = StringProperty("")


class NamePlate(TapOnly, BoxLayout):
    """A player's name and points in their colour: a tap anywhere on it opens their station (a
    long press on the points corrects them instead)."""

    tag = StringProperty("")
    bg = ColorProperty((0, 0, 0, 1))

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is self and touch.ud.get("long_pressed"):  # the points corrected
            touch.ungrab(self)
            self.state = "normal"
            return True
        return super().on_touch_up(touch)


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
        big = round(dp(NUMBER_PX))
        self.shown = {counter: amount_markup(row.counters[counter], counter, big)
                      for counter in AMOUNTS}
        self.name, self.diplomacy, self.active, self.lit = (row.name, row.diplomacy, row.active,
                                                            lit)
        self.plate, self.plate_text = PLAYER_RGBA[row.color], PLAYER_TEXT[row.color]
        show_ships(self.ids.ships, row.ships, table)

    def ship_room(self, least_cols: int = 1) -> ShipGrid:
        """The grid of this player's ships in the room beside the name plate."""
        room = self.width - self.padding[0] - self.padding[2] - self.spacing - dp(PLATE_WIDTH)
        return ship_grid(len(self.ids.ships.children), room / dp(1), self.height / dp(1),
                         least_cols)

    def correct(self, counter: str) -> None:
        """Correct one of this player's counters (keypad, then a note)."""
        app = App.get_running_app()
        correct(self.name, counter, counter_label(self.name, counter), self.values[counter],
                lambda: app.open("table"))


def show_ships(box: GridLayout, ships: list[ShipButton], table: TableScreen) -> None:
    """Fill `box` with one tile per ship, reusing the tiles when the ships are the same."""
    tiles = list(reversed(box.children))
    changed = [t.button.ship_id for t in tiles] != [s.ship_id for s in ships]
    if changed:
        box.clear_widgets()
        tiles = []
        for _ship in ships:
            tile = ShipTile()
            tile.bind(on_release=lambda t: table.tap_ship(t.button))
            box.add_widget(tile)
            tiles.append(tile)
    for tile, ship in zip(tiles, ships):
        tile.show(ship)
    if changed:
        table.lay_out_soon()


def place_tiles(box: GridLayout, grid: ShipGrid) -> None:
    """Size `box`'s ship tiles and columns as `grid` says (in dp); their names share the
    largest size at which every one of them fits its tile, the level moved below the type
    where a whole name would be smaller than SMALLEST_NAME_PX."""
    box.cols = grid.cols
    tiles = [tile for tile in box.children if tile.button is not None]
    room = dp(grid.width) - dp(6)

    def fitting(level_below: bool) -> float:
        return min((fitting_px(ship_words(t.button, level_below)[0], room, dp(NAME_PX), True)
                    for t in tiles), default=dp(NAME_PX))

    px, below = fitting(False), False
    if px < dp(SMALLEST_NAME_PX):
        px, below = fitting(True), True
    for tile in tiles:
        tile.size, tile.name_px, tile.level_below = (dp(grid.width), dp(grid.height)), px, below
        tile.show(tile.button)


class TableScreen(Screen):
    """The main screen of a game."""

    heading = StringProperty("")
    active = StringProperty("")
    active_plate = ColorProperty((0, 0, 0, 1))
    active_text = ColorProperty((1, 1, 1, 1))
    next_allowed = BooleanProperty(False)
    supply = StringProperty("")
    supply_lit = BooleanProperty(False)
    end = StringProperty("")
    message = StringProperty("")
    demo = BooleanProperty(False)
    phones = BooleanProperty(False)  # the players' phones can join (the Phones button)

    shown: TableView | None = None
    shown_game: object = None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._unlight = Clock.create_trigger(self.unlight, HIGHLIGHT_S)
        self.lay_out_soon = Clock.create_trigger(self.lay_out)  # once a frame, however many changes

    def view(self) -> TableView:
        """What to show, from the open game's state and options."""
        session = App.get_running_app().session
        steps = session.game.game.steps
        opts = session.options()
        condition = trigger_condition(steps) if opts["end"]["triggered_by"] else ""
        return table_view(session.state, opts, condition)

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
        self.heading, self.active = view.heading, view.active
        self.active_plate = PLAYER_RGBA[view.active_color]
        self.active_text = PLAYER_TEXT[view.active_color]
        self.next_allowed, self.supply, self.end = view.next_allowed, view.supply, view.end
        self.supply_lit = ("", "supply") in changed
        self.demo = session.is_demo
        self.phones = App.get_running_app().phones.serving
        players = self.ids.players
        strips = list(reversed(players.children))
        if [s.name for s in strips] != [row.name for row in view.players]:
            players.clear_widgets()
            strips = [PlayerStrip() for _row in view.players]
            for strip in strips:
                players.add_widget(strip)
                strip.bind(size=self.lay_out_soon)
        for strip, row in zip(strips, view.players):
            strip.show(row, [counter for who, counter in changed if who == row.name], self)
        show_ships(self.ids.neutral, view.neutral, self)
        if changed:
            self._unlight()

    def lay_out(self, *_args: Any) -> None:
        """Every player's ships in their row, all rows as many columns (the most any needs),
        and the neutral ships in the side column above the supply, Station and Income (every
        ship in view, none scrolled)."""
        strips = self.ids.players.children
        cols = max((strip.ship_room().cols for strip in strips), default=1)
        for strip in strips:
            place_tiles(strip.ids.ships, strip.ship_room(cols))
        side, neutral = self.ids.side, self.ids.neutral
        room = side.height - 2 * dp(48) - dp(46) - 3 * side.spacing  # Station, Income, supply
        place_tiles(neutral, ship_grid(len(neutral.children), side.width / dp(1), room / dp(1)))

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

    def open_phones(self) -> None:
        """Each player's QR code for their phone's page."""
        from companion.ui.play.phones import PhonesPopup  # its kv loads with it

        self.message = ""
        PhonesPopup().open()

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
        """The button panel's Undo (a long press of Next): the top bar's Undo."""
        self.ids.steps.step("undo")

    def run(self, command: CommandDict) -> None:
        """Send a command through the session, then show the table (and why it was refused)."""
        app = App.get_running_app()
        app.open("table", message=app.session.send(command).problem)
