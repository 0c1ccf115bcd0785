"""The table screen: whose turn, every player's counters and ships, the neutral ships, the supply
and the end status; Undo, Next and Income. What it shows comes from table_model.py."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.ui.end_model import trigger_condition
from companion.ui.table_model import PlayerRow, ShipButton, TableView, amount, table_view
from companion.ui.widgets import PLAYER_RGBA, PLAYER_TEXT, TagButton


class ShipTile(TagButton):
    """A ship: dim when it cannot be used now; shows whose Action marker is on it."""


class PlayerStrip(BoxLayout):
    """One player's name plate, counters, Diplomacy levels and ships."""

    name = StringProperty("")
    counters = StringProperty("")
    diplomacy = StringProperty("")
    points = StringProperty("")
    plate = ColorProperty((0, 0, 0, 1))
    plate_text = ColorProperty((1, 1, 1, 1))
    active = BooleanProperty(False)


def ship_tile(button: ShipButton, table: TableScreen) -> ShipTile:
    """A ship button that asks the table what to do when tapped."""
    marker = f"{button.marker}'s marker" if button.marker else ""
    if button.token:
        marker = (f"{button.marker}: marker+token" if button.token == button.marker
                  else f"{button.token}'s token")
    level = "" if button.level == "Neutral" and marker else button.level
    small = int(App.get_running_app().unit * 13)
    text = f"[b]{button.kind}[/b]\n[size={small}]{' · '.join(filter(None, (level, marker)))}[/size]"
    tile = ShipTile(text=text, tag=f"ship:{button.ship_id}",
                    opacity=1 if button.usable else 0.55)
    tile.bind(on_release=lambda _t: table.tap_ship(button))
    return tile


class TableScreen(Screen):
    """The main screen of a game."""

    heading = StringProperty("")
    active = StringProperty("")
    active_plate = ColorProperty((0, 0, 0, 1))
    active_text = ColorProperty((1, 1, 1, 1))
    undo = StringProperty("")
    next_allowed = BooleanProperty(False)
    supply = StringProperty("")
    end = StringProperty("")
    message = StringProperty("")
    demo = BooleanProperty(False)

    def view(self) -> TableView:
        """What to show, from the open game's state and options."""
        session = App.get_running_app().session
        steps = session.game.game.steps
        opts = session.options()
        condition = trigger_condition(steps) if opts["end"]["triggered_by"] else ""
        return table_view(session.state, opts, steps[-1].events if steps else [], condition)

    def refresh(self) -> None:
        """Show the game as it stands now."""
        session = App.get_running_app().session
        if session.game is None or session.state["phase"] != "play":
            return
        view = self.view()
        self.heading = view.heading
        self.active = view.active
        self.active_plate = PLAYER_RGBA[view.active_color]
        self.active_text = PLAYER_TEXT[view.active_color]
        self.undo = view.undo
        self.next_allowed = view.next_allowed
        self.supply = view.supply
        self.end = view.end
        self.demo = session.is_demo
        players = self.ids.players
        players.clear_widgets()
        for row in view.players:
            players.add_widget(self.player_strip(row))
        neutral = self.ids.neutral
        neutral.clear_widgets()
        for button in view.neutral:
            neutral.add_widget(ship_tile(button, self))

    def player_strip(self, row: PlayerRow) -> PlayerStrip:
        """One player's strip, their ships as tiles."""
        strip = PlayerStrip(
            name=row.name, points=amount(row.counters["points"], "points"), active=row.active,
            counters="  ".join(amount(row.counters[c], c) for c in ("gems", "food", "water",
                                                                    "metal")),
            diplomacy=row.diplomacy,
            plate=PLAYER_RGBA[row.color], plate_text=PLAYER_TEXT[row.color])
        for button in row.ships:
            strip.ids.ships.add_widget(ship_tile(button, self))
        return strip

    def tap_ship(self, button: ShipButton) -> None:
        """A usable ship opens its action; another says why it cannot be used now."""
        if not button.usable:
            self.message = button.reason
            return
        self.message = ""
        app = App.get_running_app()
        app.screens.get_screen("action").ship = button.ship_id
        app.show("action")

    def take_income(self) -> None:
        """Income: its screen (the receipt, the powers, relocations; or why not and an
        override)."""
        self.message = ""
        App.get_running_app().show("income")

    def next_turn(self) -> None:
        """End the turn (when the engine allows it)."""
        view = self.view()
        if not view.next_allowed:
            self.message = view.next_reason
            return
        self.run({"cmd": "end_turn"})

    def confirm(self) -> None:
        """The panel's Confirm: the table's primary action, Next."""
        self.next_turn()

    def undo_step(self) -> None:
        """Take back the last step."""
        self.run({"cmd": "undo"})

    def run(self, command: dict) -> None:
        """Execute and commit a command, then show the result (or the reason it was refused)."""
        app = App.get_running_app()
        problem = app.session.execute(command)
        app.show("table")
        self.message = problem
