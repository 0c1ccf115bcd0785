"""Widgets every screen shares: finger-sized tagged buttons, labels and banners, the keypad, the
name and note keyboards, the status strip, and the app's colours. Layout in widgets.kv beside
this file.

Every widget a UI test needs to find carries a `tag` such as "key:7" or "status:strip".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, ClassVar

from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.properties import BooleanProperty, ColorProperty, OptionProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget
from kivy.utils import get_hex_from_color

from companion import i18n
from companion.i18n import N_, _
from companion.ui.kit.colors import letter_color
from companion.ui.kit.wording import LETTERS

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


def text_on(fill: tuple[float, ...]) -> tuple[float, float, float, float]:
    """Black or white text, whichever reads better on `fill` (every button's text colour)."""
    return (*letter_color(fill), 1)


# Text on a species' colour: black or white, whichever reads better (>= 4.5:1).
SPECIES_TEXT = {s: text_on(rgba) for s, rgba in SPECIES_RGBA.items()}
# Player colours: the fill of a player's name plate, and a text colour readable on it (>= 4.5:1).
PLAYER_RGBA = {
    "red": (0.80, 0.16, 0.16, 1),
    "blue": (0.16, 0.36, 0.80, 1),
    "yellow": (0.95, 0.80, 0.15, 1),
    "green": (0.15, 0.55, 0.25, 1),
}
PLAYER_TEXT = {c: text_on(rgba) for c, rgba in PLAYER_RGBA.items()}


def capital(char: str) -> str:
    """A character's capital ("ß" has none of its own: itself)."""
    return char.upper() if len(char.upper()) == 1 else char


# The letters of the on-screen keyboards (names and notes), by language: QWERTZ in German,
# QWERTY in English, with the letters German names need (ä ö ü ß) on both.
LETTER_ROWS = {"de": ("qwertzuiopü", "asdfghjklöä", "yxcvbnmß"),
               "en": ("qwertyuiopü", "asdfghjklöä", "zxcvbnmß")}


def letter_rows() -> tuple[str, ...]:
    """The keyboards' three rows of letters for the language spoken now."""
    return LETTER_ROWS.get(i18n.language(), LETTER_ROWS["en"])


def hex_color(rgba: tuple[float, ...]) -> str:
    """A colour as #rrggbb for label markup."""
    return get_hex_from_color(rgba)[:7]



FONT_PX = (16, 15, 14, 13, 12, 11, 10)  # the sizes tried for a label, largest first (times unit)


@lru_cache(maxsize=256)
def fitting_font(text: str, width: float, height: float, unit: float,
                 sizes: tuple[int, ...] = FONT_PX) -> float:
    """The largest of `sizes` (times `unit`) at which `text` wraps inside width x height with
    every word whole; the smallest when none does (remembered: a label is worded again and
    again, an Undo step as it is undone and redone)."""
    words = text.split()
    for px in sizes:
        label = CoreLabel(text=text, font_size=px * unit, text_size=(max(1.0, width), None),
                          halign="center", markup=True)
        label.refresh()
        laid_out = [w.text for line in label._cached_lines for w in line.words]
        if label.texture.height <= height and " ".join(laid_out).split() == words:
            return px * unit
    return sizes[-1] * unit


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
            self.message = _("Type a number first.")
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


class KeyboardPopup(ModalView):
    """An on-screen keyboard for a line of text (NamePopup, NotePopup); a USB keyboard types into
    it too (Enter is OK, Escape is Cancel) while it is open."""

    title = StringProperty("")
    display = StringProperty("")
    message = StringProperty("")
    LIMIT = 16  # characters

    def __init__(self, title: str, value: str, on_ok: Callable[[str], str | None],
                 **kwargs: Any) -> None:
        self._on_ok = on_ok
        self._fresh = True
        super().__init__(**kwargs)
        self.title, self.display = title, value

    def key(self, row: Widget, key: str, label: str = "", width: float = 1) -> TagButton:
        """A key on `row` that presses `key`: a character, tagged "key:" + its capital
        ("key:Q", "key:ß"), or a named key with its label ("key:space")."""
        button = TagButton(text=label or key, tag=f"key:{key if label else capital(key)}",
                           size_hint_x=width)
        button.bind(on_release=lambda _b: self.press(key))
        row.add_widget(button)
        return button

    def press(self, key: str) -> None:
        """A character, "space", "back" or "clear"; the first key but Delete and Space
        replaces the value the keyboard opened with."""
        self.message = ""
        text = "" if self._fresh and key not in ("back", "space") else self.display
        self._fresh = False
        if key == "back":
            text = text[:-1]
        elif key == "clear":
            text = ""
        elif key == "space":
            text = text + " " if text and not text.endswith(" ") else text
        elif len(text) < self.LIMIT:
            text += self.typed(text, key)
        self.display = text

    def typed(self, text: str, key: str) -> str:
        """What a key adds after `text`."""
        return key

    def accepts(self, char: str) -> bool:
        """True for a character a USB keyboard may type here."""
        return char.isalpha()

    def ok(self) -> None:
        """Hand the text to the caller; stay open with its message if refused."""
        problem = self._on_ok(self.display)
        if problem:
            self.message = problem
        else:
            self.dismiss()

    def on_pre_open(self) -> None:
        Window.bind(on_textinput=self._text_typed, on_key_down=self._key_down)

    def on_dismiss(self) -> None:
        Window.unbind(on_textinput=self._text_typed, on_key_down=self._key_down)

    def _text_typed(self, _window: Any, text: str) -> bool:
        for char in text:
            if char == " " or self.accepts(char):
                self.press("space" if char == " " else char)
        return True

    def _key_down(self, _window: Any, key: int, *_args: Any) -> bool:
        """Delete, Enter and Escape; every key stays here (not the button panel's) while open."""
        if key == 8:
            self.press("back")
        elif key in (13, 271):
            self.ok()
        elif key == 27:
            self.dismiss()
        return True


class NamePopup(KeyboardPopup):
    """A letter keyboard for a player's name (each word capitalised), the note keyboard's
    letters (letter_rows) and a hyphen; `names` offered above the keys are taken in one tap
    (a table that plays again: its players' names)."""

    def __init__(self, title: str, value: str, on_ok: Callable[[str], str | None],
                 names: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(title, value, on_ok, **kwargs)
        for name in names:
            button = TagButton(text=name, tag=f"key:name:{name}")
            button.bind(on_release=lambda _b, n=name: self.take(n))
            self.ids.names.add_widget(button)
        if not names:
            self.ids.names.parent.remove_widget(self.ids.names)
        *rows, last = letter_rows()
        for row, letters in zip((self.ids.row1, self.ids.row2, self.ids.row3),
                                (*rows, last + "-")):
            for letter in letters:
                self.key(row, capital(letter))

    def typed(self, text: str, key: str) -> str:
        return key.upper() if not text or text.endswith(" ") else key.lower()

    def take(self, name: str) -> None:
        """One of the names offered: as if typed, then OK."""
        self.display = name
        self.ok()

    def accepts(self, char: str) -> bool:
        return char.isalpha() or char == "-"


class NotePopup(KeyboardPopup):
    """A keyboard for a sentence (a note, an override's reason): letters with ä ö ü ß, digits,
    punctuation, Shift (once, then locked, then off; on for the first letter)."""

    shift = OptionProperty("once", options=["", "once", "lock"])
    DIGITS = "1234567890"
    BOTTOM = ("clear", *".,'-", "space", *"!?:()/")
    NAMED: ClassVar[dict[str, tuple[str, float]]] = {  # a named key's label (N_: translated
        "shift": (N_("Shift"), 1.6), "back": (N_("Delete"), 1.6),  # when shown) and width
        "clear": (N_("Clear"), 1.5), "space": (N_("Space"), 2.8)}
    PUNCTUATION = ".,!?-:'()/"
    LIMIT = 80

    def __init__(self, title: str, value: str, on_ok: Callable[[str], str | None],
                 **kwargs: Any) -> None:
        super().__init__(title, value, on_ok, **kwargs)
        self.shift = "" if value else "once"
        rows = self.ids.keyrows.children[::-1]
        first, second, third = letter_rows()
        layout = (self.DIGITS, first, second, ("shift", *third, "back"), self.BOTTOM)
        self._keys = {key: self.key(row, key, *self.named(key))
                      for row, keys in zip(rows, layout) for key in keys}
        self.on_shift(self, self.shift)

    def named(self, key: str) -> tuple[str, float]:
        """A key's label in the player's language ("" for a character) and its width."""
        label, width = self.NAMED.get(key, ("", 1))
        return (i18n._(label) if label else "", width)

    def on_shift(self, _popup: Any, shift: str) -> None:
        """Letters show the case they type; Shift lights up while on ("Caps" when locked)."""
        if not hasattr(self, "_keys"):
            return
        for key, button in self._keys.items():
            if len(key) == 1 and key.isalpha():
                button.text = capital(key) if shift else key
        self._keys["shift"].text = _("Caps") if shift == "lock" else _("Shift")
        self._keys["shift"].bg = SELECTED if shift else BUTTON

    def press(self, key: str) -> None:
        """As KeyboardPopup.press, plus "shift"; Clear starts a new sentence (Shift once)."""
        if key == "shift":
            self.shift = {"": "once", "once": "lock", "lock": ""}[self.shift]
            return
        super().press(key)
        if key == "clear":
            self.shift = "once"

    def typed(self, text: str, key: str) -> str:
        if not self.shift or not key.isalpha():
            return key
        if self.shift == "once":
            self.shift = ""
        return capital(key)

    def accepts(self, char: str) -> bool:
        return char.isalnum() or char in self.PUNCTUATION


class StatusStrip(Label):
    """A line at the bottom for what is wrong outside the game (a button panel unplugged, a bad
    config file, the game store); it takes no room when there is nothing to say."""

    tag = StringProperty("status:strip")

    def show(self, problems: list[str]) -> None:
        """Show these problems (none: the strip disappears)."""
        self.text = "  ".join(problems)
