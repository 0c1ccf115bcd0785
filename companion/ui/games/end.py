"""The end screen: the final score sheet as in the rulebook's table, the totals and the winner
large, any tie-breaker, the score over time (chart.py), the play for BG Stats on a phone (qr.py);
Undo steps back into the game. What it shows comes from end_model.py."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.i18n import _
from companion.rules import commands
from companion.ui.games.chart import ChartPopup
from companion.ui.games.end_model import end_sheet
from companion.ui.games.past_game_model import game_history
from companion.ui.games.qr import show_bgstats_link
from companion.ui.kit.widgets import PANEL, PLAYER_RGBA, PLAYER_TEXT, TagLabel


class EndScreen(Screen):
    """A finished game's score sheet."""

    winner = StringProperty("")
    tiebreak = StringProperty("")
    message = StringProperty("")

    def refresh(self) -> None:
        """The open game's sheet (the game must be over)."""
        session = App.get_running_app().session
        if session.game is None or session.state["phase"] != "over":
            return
        sheet = end_sheet(session.state, session.game.catalogue)
        self.winner = sheet.winner
        self.tiebreak = (_("Tie-breaker: {rule}").format(rule=sheet.tiebreak) if sheet.tiebreak
                         else "")
        unit = App.get_running_app().unit
        grid = self.ids.sheet
        grid.clear_widgets()
        grid.cols = len(sheet.names) + 1
        grid.add_widget(TagLabel(text=_("Category"), bold=True, halign="left"))
        for name, color in zip(sheet.names, sheet.colors):
            grid.add_widget(TagLabel(text=name, tag=f"end:name:{name}", bold=True,
                                     bg=PLAYER_RGBA[color], color=PLAYER_TEXT[color]))
        for row, (label, values) in enumerate(sheet.rows):
            total = row == len(sheet.rows) - 1  # TOTAL, in whichever language
            size = unit * (30 if total else 17)
            look = {"bold": total, "bg": PANEL if row % 2 else (0, 0, 0, 0),
                    "size_hint_y": None if total else 1, "height": unit * 46}
            cells = [TagLabel(text=label, halign="left", **look)]
            cells += [TagLabel(text=str(value), tag=f"end:{'total' if total else row}:{name}",
                               **look) for name, value in zip(sheet.names, values)]
            for cell in cells:
                cell.font_size = size  # after the TagLabel rule's own size
                grid.add_widget(cell)

    def chart(self) -> None:
        """The score over time, every player's points by turn, the final tally last."""
        seen = game_history(App.get_running_app().session.game)
        ChartPopup(_("The score over time"), seen.series, seen.final).open()

    def bgstats(self) -> None:
        """The play as BG Stats' createPlay link, a QR code for a phone."""
        self.message = show_bgstats_link(App.get_running_app().session.game.id)

    def undo(self) -> None:
        """Take back the last step: the game goes on."""
        app = App.get_running_app()
        self.message = app.session.send(commands.undo()).problem
        if not self.message:
            app.open("table")
