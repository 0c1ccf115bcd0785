"""Answer buttons and asked values, as the action screen and the income screen's bonus pop-up
both show them: a panel's buttons in a grid (answers.kv gives their look), and a value the
engine asks for on the kit's value-entry component."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.rules.catalogue import Catalogue
from companion.rules.commands import CommandDict, Outcome
from companion.ui.kit.values import ask_value
from companion.ui.kit.values_model import ValueEntry
from companion.ui.kit.widgets import (
    BUTTON,
    PLAYER_RGBA,
    PLAYER_TEXT,
    SELECTED,
    TagButton,
    fitting_font,
)
from companion.ui.play.flows.abilities import Abilities
from companion.ui.play.flows.choices import Button, Panel

LAYOUT = str(Path(__file__).with_suffix(".kv"))
ROW_HEIGHT = 48  # a row of counts, and the other answers of its panel (px at 800x480: a finger)


class AnswerButton(TagButton):
    """A big answer button: its words as large as fit it whole (a long German transaction
    wraps smaller rather than being cut off)."""

    SIZES = (24, 22, 20, 18, 16, 14, 12)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._fit = Clock.create_trigger(self.fit)
        self.bind(size=self._fit, text=self._fit)

    def fit(self, *_args: Any) -> None:
        unit = App.get_running_app().unit
        self.font_size = fitting_font(self.text, self.width - 8 * unit, self.height - 4 * unit,
                                      unit, self.SIZES)


class CountRow(BoxLayout):
    """One choice as a row of counts: its name (a die face), then a button per count
    (ROW_HEIGHT high)."""

    tag = StringProperty("")
    name = StringProperty("")
    high = NumericProperty(ROW_HEIGHT)


def show_answers(grid: GridLayout, panel: Panel, press: Callable[[Button], None]) -> None:
    """A panel's buttons in `grid` (a player's in their colour, a chosen one lit, a disallowed
    one dimmed; the counts of a row - a die face's - on one line after its name), scrolled
    to the top: a new panel starts at its first answer."""
    grid.clear_widgets()
    rows: dict[str, CountRow] = {}
    counted = any(b.row for b in panel.buttons)
    grid.cols = 1 if counted else panel.cols
    grid.row_force_default = not counted  # the column of counts is as high as it needs
    place: Widget = grid
    if counted:  # one column lower than the grid's rows: its rows, then the other answers
        place = BoxLayout(orientation="vertical", size_hint_y=None, spacing=grid.spacing[1])
        place.bind(minimum_height=place.setter("height"))
        grid.add_widget(place)
    for button in panel.buttons:
        widget = AnswerButton(text=button.label, tag=button.tag,
                              bg=PLAYER_RGBA[button.color] if button.color
                              else SELECTED if button.on else BUTTON,
                              opacity=1 if button.allowed else 0.55)
        if button.color:
            widget.color = PLAYER_TEXT[button.color]
        widget.bind(on_release=lambda _w, b=button: press(b))
        if not button.row:
            if counted:  # as low as the rows of counts, so that all stay in view
                widget.size_hint_y = None
                widget.height = App.get_running_app().unit * ROW_HEIGHT
            place.add_widget(widget)
            continue
        if button.row not in rows:
            rows[button.row] = CountRow(name=button.row, tag=button.tag.rsplit(":", 1)[0])
            place.add_widget(rows[button.row])
        rows[button.row].add_widget(widget)
    scroll = grid.parent
    while scroll is not None and not isinstance(scroll, ScrollView):
        scroll = scroll.parent
    if isinstance(scroll, ScrollView):
        for effect in (scroll.effect_x, scroll.effect_y):
            if effect is not None:
                effect.velocity = 0
                effect.cancel()
        scroll.scroll_y = 1


def ask_first(abilities: Abilities, key: str, question: str, catalogue: Catalogue,
              done: Callable[[], None]) -> None:
    """A value the catalogue lacks that the engine needs before an income's bonus action,
    asked on the value-entry component; given, it goes with the command and `done` shows the
    bonus action, now offered where it fires. (A ship's flow is built again with the values
    given instead: action_model.ActionModel.give.)"""
    def given(command: CommandDict) -> str:
        abilities.values.update(command["catalogue"])
        done()
        return ""

    ask_missing(Outcome({"catalogue": dict(abilities.values)}, key=key, question=question),
                catalogue, given)


def ask_missing(outcome: Outcome, catalogue: Catalogue,
                resend: Callable[[CommandDict], str]) -> None:
    """The engine's question for a value the catalogue lacks, on the value-entry component (a
    number on the keypad; icons, objects by their parts); the command is sent again with it
    (`resend`: "" when done, else why not). The action and income screens both ask so."""
    entry = ValueEntry(outcome.key or "", catalogue, outcome.question or "",
                       outcome.command.get("catalogue"))
    ask_value(entry, lambda value: resend(outcome.answer(value)) or None)


if LAYOUT not in Builder.files:  # the answer buttons' look, with the module
    Builder.load_file(LAYOUT)
