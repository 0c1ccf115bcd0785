"""The keyboard panel for a desktop: space = next turn, u = undo, enter = confirm, d = dice."""

from __future__ import annotations

import threading
from collections.abc import Mapping

from hardware.events import CONFIRM, NEXT_TURN, READ_DICE, UNDO, EventHandler
from hardware.panel import Panel

DEFAULT_KEYMAP: dict[str, str] = {
    "spacebar": NEXT_TURN,
    "space": NEXT_TURN,
    " ": NEXT_TURN,
    "u": UNDO,
    "enter": CONFIRM,
    "return": CONFIRM,
    "numpadenter": CONFIRM,
    "d": READ_DICE,
}

# Key codes as Kivy's Window.on_key_down gives them (kivy.core.window.Keyboard.keycodes).
KEYCODE_NAMES: dict[int, str] = {32: "spacebar", 13: "enter", 271: "numpadenter", 117: "u",
                                 100: "d"}


class KeyboardPanel(Panel):
    """Turns key presses fed to it (by the UI, which owns the window) into panel events.

    A key held down reports once: auto-repeat presses are ignored until `key_released`.
    """

    kind = "keyboard"

    def __init__(self, keymap: Mapping[str, str] | None = None, *,
                 when_event: EventHandler | None = None) -> None:
        super().__init__(description="keyboard", when_event=when_event)
        self.keymap = dict(DEFAULT_KEYMAP if keymap is None else keymap)
        self._down: set[str] = set()
        self._lock = threading.Lock()
        self._set_ready("keyboard: space = next turn, u = undo, enter = confirm, d = read dice")

    def key_pressed(self, key: str | int) -> bool:
        """Report a key press by name ("spacebar", "u") or Kivy key code; True if it is mapped."""
        name = _key_name(key)
        event = self.keymap.get(name)
        if event is None:
            return False
        with self._lock:
            if name in self._down:
                return True
            self._down.add(name)
        self._emit(event)
        return True

    def key_released(self, key: str | int) -> None:
        """Report a key release, so the next press of that key counts again."""
        with self._lock:
            self._down.discard(_key_name(key))


def _key_name(key: str | int) -> str:
    if isinstance(key, int):
        return KEYCODE_NAMES.get(key, chr(key) if 32 < key < 127 else str(key))
    return key if key == " " else key.lower()
