"""A stored game afterwards: the score over time, its whole log in the engine's words, what each
player did; rename, delete (asked first), export, a finished game's play for BG Stats on a phone
(qr.py), and open its score sheet or resume it. What it shows comes from past_game_model.py; the
exports from companion.export."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion import export, i18n
from companion.i18n import _
from companion.text import name_problem
from companion.ui.games.home_model import game_row
from companion.ui.games.past_game_model import game_history, minutes
from companion.ui.games.qr import show_bgstats_link
from companion.ui.kit.widgets import ERROR, NOTICE, ConfirmPopup, NotePopup

TABS = ("chart", "log", "players")


class LogLine(Label):
    """A line of the log or the players' summary, as tall as its wrapped text."""

    tag = StringProperty("")


class PastGameScreen(Screen):
    """One game of home's list (route past_game, given its game_id)."""

    game_id = NumericProperty(0)
    title = StringProperty("")
    info = StringProperty("")
    message = StringProperty("")
    tone = ColorProperty(ERROR)
    open_text = StringProperty("")
    tab = StringProperty("chart")
    finished = BooleanProperty(False)

    def refresh(self) -> None:
        """Read the game again from the store."""
        store = App.get_running_app().session.store
        try:
            info = store.game_info(self.game_id)
            played = store.open_game(self.game_id)
            played.game.retell()  # its log in the language spoken now, not the one it was played in
            self.history = game_history(played)
        except Exception as error:  # a damaged game: say so, the list stays usable
            self.say(_("This game cannot be shown: {error}").format(error=error))
            return
        row = game_row(info)
        self.title = info.name
        self.info = _("{title} · {turns} turns · {minutes} min").format(
            title=row.title, turns=self.history.turns,
            minutes=minutes(info.created, info.updated))
        self.open_text = _("Score sheet") if info.finished else _("Resume")
        self.finished = info.finished
        self._chart.final = self.history.final
        self._chart.series = self.history.series
        self._chart.ids.plot.redraw()  # the same series in another language: "Final" again
        self.show_tab(self.tab)

    def show_tab(self, tab: str) -> None:
        """The chart, the log or the players' summary."""
        self.tab = tab
        for name in TABS:
            self.ids[f"tab_{name}"].state = "down" if name == tab else "normal"
        body = self.ids.body
        body.clear_widgets()
        if tab == "chart":
            body.add_widget(self._chart)
            return
        body.add_widget(self._scroll)
        lines = self._scroll.children[0]
        lines.clear_widgets()
        texts = self.history.log if tab == "log" else [s.text() for s in self.history.summaries]
        for number, text in enumerate(texts):
            lines.add_widget(LogLine(text=text, tag=f"past:{tab}:{number}"))
        self._scroll.scroll_y = 1

    def say(self, text: str, done: bool = False) -> None:
        """A message in the banner: a problem (red) or what was done (green)."""
        self.message, self.tone = text, NOTICE if done else ERROR

    def open_game(self) -> None:
        """A finished game's score sheet, or the unfinished game resumed."""
        self.say(App.get_running_app().open_game(self.game_id))

    def rename(self) -> None:
        """The game's name on the keyboard."""
        NotePopup(_("Rename the game"), self.title, self._renamed).open()

    def _renamed(self, name: str) -> str | None:
        problem = name_problem(name.strip(), _("The name"))
        if problem:
            return problem
        try:
            App.get_running_app().session.store.rename_game(self.game_id, name.strip())
        except Exception as error:
            return str(error)
        self.refresh()
        self.say(_("Renamed to {name}.").format(name=name.strip()), done=True)
        return None

    def delete(self) -> None:
        """Delete the game after asking; no other game is touched."""
        ConfirmPopup(_("Delete {game} ({info})? Its whole log is deleted; other games stay as "
                       "they are.").format(game=self.title, info=self.info), self._delete).open()

    def _delete(self) -> None:
        app = App.get_running_app()
        session = app.session
        try:
            session.store.delete_game(self.game_id)
        except Exception as error:
            self.say(_("The game was not deleted: {error}").format(error=error))
            return
        if session.game is not None and session.game.id == self.game_id:
            session.game = None
        app.open("home", message=_("{game} was deleted.").format(game=self.title))

    def export(self, kind: str) -> None:
        """Save an export on the USB stick, else in the data folder; say where."""
        app = App.get_running_app()
        store = app.session.store
        folder = export.target_folder(Path(store.path).parent, export.usb_mounts())
        try:
            path = export.save_export(store, self.game_id, kind, folder,
                                      app.settings.bgstats.bgg_id)
        except Exception as error:  # the games stay as they are
            self.say(_("Nothing was exported: {error}").format(error=error))
            return
        self.say(_("Saved the {kind}: {path}").format(kind=i18n._(export.KINDS[kind]), path=path),
                 done=True)

    def bgstats(self) -> None:
        """The finished game's play as BG Stats' createPlay link, a QR code for a phone."""
        problem = show_bgstats_link(self.game_id)
        if problem:
            self.say(problem)

    def on_kv_post(self, base_widget: Any) -> None:
        """Hold the chart and the log's scroller (the body shows one at a time)."""
        self._chart, self._scroll = self.ids.chart.__self__, self.ids.scroll.__self__
        self.ids.body.remove_widget(self._scroll)

