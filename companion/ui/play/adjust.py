"""Correcting a counter (the table is the truth): the keypad for the new value, then a note
(required), then the engine's `adjust` command through the session. Used from the station view
and by a long press on a counter of the table."""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App

from companion.i18n import _
from companion.rules.commands import CommandError, adjust
from companion.ui.kit.widgets import KeypadPopup, NotePopup
from companion.ui.kit.wording import word


def counter_label(who: str, counter: str) -> str:
    """A counter as the correction names it: "Ann's gems", "the supply's teal"."""
    name = {"gems": _("gems"), "points": _("points")}.get(counter) or word(counter)
    if who == "supply":
        return _("the supply's {counter}").format(counter=name)
    return _("{player}'s {counter}").format(player=who, counter=name)


def correct(who: str, counter: str, label: str, value: int, done: Callable[[], None]) -> None:
    """Ask the new value of `who`'s `counter` (a player's name or "supply"), then a note; then
    adjust it and call `done`."""

    def noted(new: int) -> None:
        def send(note: str) -> str | None:
            try:
                command = adjust(who, counter, note, value=new)
            except CommandError as error:
                return str(error)
            problem = App.get_running_app().session.send(command).problem
            if not problem:
                done()
            return problem or None

        NotePopup(_("Why {counter}: {value} -> {new}?").format(counter=label, value=value,
                                                                new=new), "", send).open()

    def typed(new: int) -> str | None:
        if new == value:
            return _("{counter} is already {value}.").format(counter=label, value=value)
        noted(new)
        return None

    KeypadPopup(_("Correct {counter}").format(counter=label), value, typed,
                hint=_("Now {value}. Type the number on the table; a note follows.").format(
                    value=value)).open()
