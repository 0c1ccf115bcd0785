"""Undo and Redo side by side, each naming its step ("Undo: Bob builds Sector 214"), at the top
right of every screen of a game (the table, a ship's action, income, a station). One widget for
all of them: it reads the open game from the app's session, sends `undo` / `redo` through the one
door (`GameSession.send`), and follows the game as it moves (the session tells it after every
command, and i18n after a change of language). Its words shrink to fit its place, never cut off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion import i18n
from companion.i18n import _
from companion.rules import commands
from companion.ui.kit.undo_redo_model import redo_text, undo_text
from companion.ui.kit.widgets import TagButton, fitting_font


class UndoRedo(BoxLayout):
    """Undo (the last step named) and Redo (the last undone step named; dim with its place kept
    when there is none). `place` prefixes the buttons' tags ("table" -> "table:undo",
    "table:redo"); `done` is called with the refusal's words ("" when taken) after a tap, by
    default the table is shown with them. `scale`: the screen's unit (its sizes' multiple)."""

    place = StringProperty("")
    scale = NumericProperty(1.0)
    done: Callable[[str], None] | None = ObjectProperty(None, allownone=True)
    undo = StringProperty("")
    redo = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.undo_button = TagButton(shorten=False, on_release=lambda _b: self.step("undo"))
        self.redo_button = TagButton(shorten=False, on_release=lambda _b: self.step("redo"))
        for button in (self.undo_button, self.redo_button):
            self.add_widget(button)
            button.bind(size=self._refit)
        self.bind(place=self._show, undo=self._show, redo=self._show, scale=self._refit)
        self._fit = Clock.create_trigger(self.fit)
        app = App.get_running_app()
        app.session.watch(self.follow)
        i18n.on_change(self.follow)
        self.follow()

    def follow(self) -> None:
        """Name the steps as the open game stands now."""
        session = App.get_running_app().session
        if session.game is None:
            self.undo = self.redo = ""
            return
        last, undone = session.step_to_undo(), session.step_to_redo()
        self.undo = undo_text(last.events if last else None)
        self.redo = redo_text(undone.events if undone else None)

    def _show(self, *_args: Any) -> None:
        undo, redo = self.undo_button, self.redo_button
        undo.tag, redo.tag = f"{self.place}:undo", f"{self.place}:redo"
        undo.text = self.undo or _("Nothing to undo")
        redo.text = self.redo or _("Nothing to redo")
        undo.disabled, redo.disabled = not self.undo, not self.redo
        undo.opacity, redo.opacity = (1 if self.undo else 0.5), (1 if self.redo else 0.5)
        self._fit()

    def _refit(self, *_args: Any) -> None:
        self._fit()

    def fit(self, *_args: Any) -> None:
        """Each button's words as large as fit it whole (at 800x480 in every language too)."""
        unit = self.scale
        for button in (self.undo_button, self.redo_button):
            button.text_size = (button.width - 8 * unit, button.height)
            button.font_size = fitting_font(button.text, button.width - 8 * unit,
                                            button.height - 4 * unit, unit)

    def step(self, command: str) -> None:
        """Undo or Redo one step through the session, then `done` (or the table) with the
        refusal's words."""
        app = App.get_running_app()
        problem = app.session.send(commands.undo() if command == "undo"
                                   else commands.redo()).problem
        if self.done is not None:
            self.done(problem)
        else:
            app.open("table", message=problem)
