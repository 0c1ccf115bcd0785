"""Widgets every screen shares: finger-sized tagged buttons, labels and banners, the keypad and
the name keyboard, the status strip, and the app's colours. Layout in widgets.kv beside this file.

Every widget a UI test needs to find carries a `tag` such as "key:7" or "status:strip".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget
from kivy.utils import get_hex_from_color

from companion.ui.station_model import LETTERS, letter_color

SYMBOL_FONT = "PhoenixSymbols"

BACKGROUND = (0.07, 0.08, 0.11, 1)
PANEL = (0.13, 0.15, 0.20, 1)
BUTTON = (0.22, 0.26, 0.34, 1)
ACCENT = (0.91, 0.53, 0.17, 1)
DANGER = (0.62, 0.18, 0.18, 1)
ERROR = (0.95, 0.33, 0.30, 1)
NOTICE = (0.20, 0.70, 0.35, 1)  # the tone of a banner that says something went well
SPECIES_RGBA = {
    "teal": (0.05, 0.62, 0.62, 1),
    "pink": (0.90, 0.40, 0.62, 1),
    "brown": (0.58, 0.38, 0.22, 1),
    "gold": (0.93, 0.74, 0.18, 1),
    "human": (0.88, 0.88, 0.85, 1),
}
SELECTED = (0.36, 0.44, 0.60, 1)
# Text on a species' colour: black or white, whichever reads better (>= 4.5:1).
SPECIES_TEXT = {s: (*letter_color(rgba), 1) for s, rgba in SPECIES_RGBA.items()}
# Player colours: the fill of a player's name plate, and a text colour readable on it (>= 4.5:1).
PLAYER_RGBA = {
    "red": (0.80, 0.16, 0.16, 1),
    "blue": (0.16, 0.36, 0.80, 1),
    "yellow": (0.95, 0.80, 0.15, 1),
    "green": (0.15, 0.55, 0.25, 1),
}
PLAYER_TEXT = {"red": (1, 1, 1, 1), "blue": (1, 1, 1, 1), "yellow": (0.1, 0.1, 0.1, 1),
               "green": (1, 1, 1, 1)}


def hex_color(rgba: tuple[float, ...]) -> str:
    """A colour as #rrggbb for label markup."""
    return get_hex_from_color(rgba)[:7]


class TagButton(Button):
    """A flat, finger-sized button with a tag the UI tests find it by."""

    tag = StringProperty("")
    bg = ColorProperty(BUTTON)
    error = BooleanProperty(False)


class TagToggle(ToggleButton):
    """A toggle button with a tag (player tabs, Yes/No answers)."""

    tag = StringProperty("")
    bg = ColorProperty(BUTTON)
    error = BooleanProperty(False)


class Banner(Label):
    """A plain-words message (red for problems, NOTICE for success); takes no room when empty,
    unless `reserve` keeps two lines' room so that the layout does not move when it shows."""

    tag = StringProperty("")
    tone = ColorProperty(ERROR)
    reserve = BooleanProperty(False)


class TagLabel(Label):
    """A label with a tag, e.g. the cells of the score table."""

    tag = StringProperty("")
    bg = ColorProperty((0, 0, 0, 0))


class ResidentDot(Widget):
    """A living quarter: a filled, outlined dot with its resident's letter (hollow when empty,
    an orange ring when the resident was placed this turn)."""

    tag = StringProperty("")
    letter = StringProperty("")
    fill = ColorProperty(PANEL)
    ink = ColorProperty((1, 1, 1, 1))
    active = BooleanProperty(True)


def resident_dot(species: str, tag: str = "", active: bool = True) -> ResidentDot:
    """A resident's dot ("" species: a free quarter), its letter in black or white, whichever
    reads better on the resident's colour."""
    fill = SPECIES_RGBA[species] if species else PANEL
    return ResidentDot(tag=tag, letter=LETTERS.get(species, ""), fill=fill,
                       ink=(*letter_color(fill), 1), active=active or not species)


class TagGrid(GridLayout):
    """A grid with a tag (the score table)."""

    tag = StringProperty("")


# --------------------------------------------------------------------------------------------
# Pop-ups


class KeypadPopup(ModalView):
    """A big numeric keypad: the only way to type numbers on the touchscreen."""

    title = StringProperty("")
    hint = StringProperty("")
    display = StringProperty("")
    message = StringProperty("")
    allow_negative = BooleanProperty(False)

    def __init__(self, title: str, value: int | None, on_ok: Callable[[int], str | None],
                 allow_negative: bool = False, hint: str = "", **kwargs: Any) -> None:
        self._on_ok = on_ok
        self._fresh = True
        super().__init__(**kwargs)
        self.title, self.hint, self.allow_negative = title, hint, allow_negative
        self.display = "" if value is None else str(value)

    def press(self, key: str) -> None:
        """Handle one key: a digit, "sign", "back" or "clear"."""
        self.message = ""
        text = "" if self._fresh and key not in ("sign", "back") else self.display
        self._fresh = False
        if key == "back":
            text = text[:-1]
        elif key == "clear":
            text = ""
        elif key == "sign":
            text = text[1:] if text.startswith("-") else "-" + text
        elif key.isdigit():
            sign = "-" if text.startswith("-") else ""
            digits = text.lstrip("-")
            digits = "" if digits == "0" else digits
            if len(digits) < 4:
                digits += key
            text = sign + digits
        self.display = text

    def ok(self) -> None:
        """Hand the number to the caller; stay open with its message if refused."""
        if self.display in ("", "-"):
            self.message = "Type a number first."
            return
        problem = self._on_ok(int(self.display))
        if problem:
            self.message = problem
        else:
            self.dismiss()


class ConfirmPopup(ModalView):
    """A question before something is replaced or deleted: Yes does it, No leaves it."""

    question = StringProperty("")

    def __init__(self, question: str, on_yes: Callable[[], None], **kwargs: Any) -> None:
        self._on_yes = on_yes
        super().__init__(**kwargs)
        self.question = question

    def yes(self) -> None:
        """Close, then do it."""
        self.dismiss()
        self._on_yes()


class NamePopup(ModalView):
    """An on-screen letter keyboard for a player's name."""

    title = StringProperty("")
    display = StringProperty("")
    message = StringProperty("")
    ROWS = ("QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM-")

    def __init__(self, title: str, value: str, on_ok: Callable[[str], str | None],
                 **kwargs: Any) -> None:
        self._on_ok = on_ok
        self._fresh = True
        super().__init__(**kwargs)
        self.title, self.display = title, value
        for row, letters in zip((self.ids.row1, self.ids.row2, self.ids.row3), self.ROWS):
            for letter in letters:
                button = TagButton(text=letter, tag=f"key:{letter}")
                button.bind(on_release=lambda b: self.press(b.text))
                row.add_widget(button)

    def press(self, key: str) -> None:
        """Type a letter (capitalised at the start of a word), "space", "back" or "clear"."""
        self.message = ""
        text = "" if self._fresh and key not in ("back", "space") else self.display
        self._fresh = False
        if key == "back":
            text = text[:-1]
        elif key == "clear":
            text = ""
        elif key == "space":
            text = text + " " if text and not text.endswith(" ") else text
        elif len(text) < 16:
            text += key.upper() if not text or text.endswith(" ") else key.lower()
        self.display = text

    def ok(self) -> None:
        """Hand the name to the caller; stay open with its message if refused."""
        problem = self._on_ok(self.display)
        if problem:
            self.message = problem
        else:
            self.dismiss()


class StatusStrip(Label):
    """A line at the bottom for what is wrong outside the game (a button panel unplugged, a bad
    config file, the game store); it takes no room when there is nothing to say."""

    tag = StringProperty("status:strip")

    def show(self, problems: list[str]) -> None:
        """Show these problems (none: the strip disappears)."""
        self.text = "  ".join(problems)
