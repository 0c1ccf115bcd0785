"""Entering one catalogue value read off a physical copy (values_model.py): a plain number on the
shared keypad, anything else in the value pop-up, one simple question at a time as big buttons
(its numbers on the keypad). Used by the setup wizard's values step, the action screen's missing
value and the catalogue screen. Layout in values.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.modalview import ModalView

from companion.i18n import _
from companion.ui.kit.values_model import Number, ValueEntry, choice_id
from companion.ui.kit.widgets import KeypadPopup, TagButton

LAYOUT = str(Path(__file__).with_suffix(".kv"))
Take = Callable[[Any], str | None]  # the finished value: None when taken, else why not


def ask_value(entry: ValueEntry, take: Take) -> None:
    """Ask `entry`'s value: the keypad alone for a plain number, else the value pop-up."""
    if isinstance(entry.part, Number):
        prompt = entry.prompt
        KeypadPopup(entry.question or prompt.title, None,
                    lambda n: _finish(entry, n, take), hint=prompt.hint).open()
    else:
        if LAYOUT not in Builder.files:
            Builder.load_file(LAYOUT)
        ValuePopup(entry, take).open()


def _finish(entry: ValueEntry, answer: Any, take: Take) -> str | None:
    """Give one answer; a finished value goes to `take`. A refusal takes the answer back."""
    problem = (entry.message if not entry.answer(answer)
               else take(entry.value) if entry.complete else None)
    if problem:
        entry.back()
        entry.message = problem
    return problem


class ValuePopup(ModalView):
    """One value built from simple answers: the question, what is entered so far, the next
    question's buttons (a number: the keypad), Back (takes the last answer) and Cancel."""

    question = StringProperty("")
    so_far = StringProperty("")
    prompt = StringProperty("")
    message = StringProperty("")

    def __init__(self, entry: ValueEntry, take: Take, **kwargs: Any) -> None:
        self.entry, self.take = entry, take
        super().__init__(**kwargs)
        self.question = entry.question or entry.key
        self.refresh()

    def refresh(self) -> None:
        """Show the next question (a finished value closes the pop-up)."""
        entry = self.entry
        if entry.accepted:
            self.dismiss()
            return
        prompt = entry.prompt
        self.so_far = _("So far: {value}").format(value=entry.so_far) if entry.so_far else ""
        self.message = entry.message
        self.prompt = prompt.title if prompt else ""
        grid = self.ids.choices
        grid.clear_widgets()
        if prompt is None:
            return
        unit = App.get_running_app().unit
        if prompt.number:
            button = TagButton(text=_("Type the number"), tag="values:keypad",
                               font_size=unit * 22)
            button.bind(on_release=lambda _b: self.keypad())
            grid.add_widget(button)
            Clock.schedule_once(lambda _dt: self.keypad(), 0)
            return
        for label, value in prompt.choices:
            button = TagButton(text=label, tag=f"values:choice:{choice_id(value)}",
                               font_size=unit * 20)
            button.bind(on_release=lambda _b, v=value: self.answer(v))
            grid.add_widget(button)

    def keypad(self) -> None:
        prompt = self.entry.prompt
        if prompt is None or not prompt.number:
            return

        def typed(number: int) -> str | None:
            problem = _finish(self.entry, number, self.take)
            if not problem:
                Clock.schedule_once(lambda _dt: self.refresh(), 0)
            return problem

        KeypadPopup(prompt.title, None, typed, hint=prompt.hint).open()

    def answer(self, value: Any) -> None:
        _finish(self.entry, value, self.take)
        self.refresh()

    def back(self) -> None:
        """Take back the last answer (none given: close)."""
        if not self.entry.answers:
            self.dismiss()
            return
        self.entry.back()
        self.refresh()
