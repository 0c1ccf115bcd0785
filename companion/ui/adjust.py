"""Correcting a counter (the table is the truth): the keypad for the new value, then a note
(required), then the engine's `adjust` command through the session. Used from the station view
and by a long press on a counter of the table."""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App

from companion.ui.flows import FlowError, adjust
from companion.ui.widgets import KeypadPopup, NotePopup


def correct(who: str, counter: str, label: str, value: int, done: Callable[[], None]) -> None:
    """Ask the new value of `who`'s `counter` (a player's name or "supply"), then a note; then
    adjust it and call `done`."""

    def noted(new: int) -> None:
        def send(note: str) -> str | None:
            try:
                command = adjust(who, counter, note, value=new)
            except FlowError as error:
                return str(error)
            problem = App.get_running_app().session.execute(command)
            if not problem:
                done()
            return problem or None

        NotePopup(f"Why {label}: {value} -> {new}?", "", send).open()

    def typed(new: int) -> str | None:
        if new == value:
            return f"{label} is already {value}."
        noted(new)
        return None

    KeypadPopup(f"Correct {label}", value, typed,
                hint=f"Now {value}. Type the number on the table; a note follows.").open()
