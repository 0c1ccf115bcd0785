"""The home screen: resume the unfinished game, start a new one, open a past game's score sheet
or its details (past_game.py), the statistics across games (stats.py), or open the score
calculator, the catalogue or the settings. What it shows comes from home_model.py."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.i18n import _
from companion.ui.games.home_model import home_rows, resume_text
from companion.ui.kit.widgets import TagButton


class HomeScreen(Screen):
    """Resume, new game, past games, score calculator."""

    resume = StringProperty("")
    message = StringProperty("")

    def refresh(self) -> None:
        """Read the game list again."""
        session = App.get_running_app().session
        store = session.store
        games = store.games() if store is not None else []
        unfinished = store.last_unfinished() if store is not None else None
        self.resume = resume_text(next((g for g in games if g.id == unfinished), None))
        listing = self.ids.games
        listing.clear_widgets()
        for row in home_rows(games):
            line = BoxLayout(spacing=App.get_running_app().unit * 6)
            button = TagButton(text=f"[b]{row.title}[/b]\n{row.detail} · {row.summary}",
                               tag=f"game:{row.game_id}", shorten=False, halign="left")
            button.bind(on_release=lambda _b, game_id=row.game_id: self.open_game(game_id))
            more = TagButton(text=_("Details"), tag=f"past:{row.game_id}", size_hint_x=None,
                             width=App.get_running_app().unit * 110)
            more.bind(on_release=lambda _b, game_id=row.game_id: self.details(game_id))
            line.add_widget(button)
            line.add_widget(more)
            listing.add_widget(line)
        if not games:
            self.message = _("No games yet: start a new game, or try `phoenix-companion "
                             "--demo`.")

    def details(self, game_id: int) -> None:
        """A game's chart, log and players; rename, delete, export."""
        App.get_running_app().open("past_game", game_id=game_id, message="")

    def resume_game(self) -> None:
        """Back to the unfinished game, on the screen it was on."""
        app = App.get_running_app()
        unfinished = app.session.store.last_unfinished()
        self.open_game(unfinished)

    def new_game(self) -> None:
        """Start a new game: the setup wizard."""
        app = App.get_running_app()
        problem = app.session.new_game()
        if problem:
            self.message = problem
            return
        app.open("setup")

    def open_game(self, game_id: int) -> None:
        """A finished game shows its final score sheet; an unfinished one is resumed."""
        self.message = App.get_running_app().open_game(game_id)

    def on_kv_post(self, base_widget: Any) -> None:
        """Fill the list when first built."""
        self.refresh()
