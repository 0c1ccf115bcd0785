"""Statistics across the finished games: each player's games, wins and average score, and the
Hubs played most. What it shows comes from stats_model.py."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.i18n import N_, _, ngettext
from companion.ui.games.stats_model import store_statistics
from companion.ui.kit.widgets import PANEL, TagLabel

PLAYER_COLUMNS = (N_("Player"), N_("Games"), N_("Wins"), N_("Average"))
HUB_COLUMNS = (N_("Hub"), N_("Played"))


class StatsScreen(Screen):
    """The players' table and the Hubs' table, read from the store when shown."""

    info = StringProperty("")

    def refresh(self) -> None:
        """Read every finished game again."""
        try:
            stats = store_statistics(App.get_running_app().session.store)
        except Exception as error:  # a damaged game: say so, home stays usable
            self.info = _("The statistics cannot be shown: {error}").format(error=error)
            return
        self.info = (ngettext("{count} finished game", "{count} finished games", stats.games)
                     .format(count=stats.games) if stats.games
                     else _("No finished games yet: finish a game to see statistics here."))
        fill(self.ids.players, PLAYER_COLUMNS,
             [(p.name, [p.name, p.games, p.wins, p.average_text()]) for p in stats.players],
             ("player", "games", "wins", "average"))
        fill(self.ids.hubs, HUB_COLUMNS, [(hub, [hub, count]) for hub, count in stats.hubs],
             ("hub", "played"))


def fill(grid: GridLayout, header: tuple[str, ...], rows: list[tuple[str, list]],
         fields: tuple[str, ...]) -> None:
    """A table: the header (marked texts, said in the language spoken now), then one row per
    (key, values), every cell tagged `stats:<field>:<key>`, the rows striped."""
    grid.clear_widgets()
    grid.cols = len(header)
    for text in header:
        grid.add_widget(TagLabel(text=_(text), bold=True))
    for number, (key, values) in enumerate(rows):
        look = {"bg": PANEL if number % 2 == 0 else (0, 0, 0, 0)}
        for field, value in zip(fields, values, strict=True):
            grid.add_widget(TagLabel(text=str(value), tag=f"stats:{field}:{key}", **look))
