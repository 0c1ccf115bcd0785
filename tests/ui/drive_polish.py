"""Driver: the note keyboard and the primary buttons' contrast, run in the real app under Xvfb
by tests/ui/test_polish_ui.py.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_polish.py note-and-contrast --demo --size 800x480

prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_game import long_press
from drive_table import read_table, shot
from harness import Robot, Steps, run

from companion.ui.kit.colors import contrast


def button_contrast(robot: Robot, tag: str) -> dict[str, Any]:
    """A button's text colour, its background and their contrast ratio."""
    button = robot.find(tag)
    return {"text": list(button.color), "background": list(button.bg),
            "ratio": contrast(button.color, button.bg)}


def usb_text(text: str) -> None:
    """A USB keyboard typing `text` (the window's on_textinput, as SDL sends it)."""
    from kivy.core.window import Window

    Window.dispatch("on_textinput", text)


def usb_key(code: int) -> None:
    """A USB keyboard's key without text (8 Backspace, 13 Enter, 32 the space bar)."""
    from kivy.core.window import Window

    Window.dispatch("on_key_down", code, 0, None, [])


def note_and_contrast(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """`--demo`: Next's contrast; Cat's GEMs corrected by a long press on the table with a note
    typed by taps (punctuation, Shift, ü, ß) and a USB keyboard (the space bar, the panel's
    Next, types; Enter confirms); Resume's contrast."""
    yield from robot.tap("bonus:0")
    yield from read_table(robot)
    contrasts = {"table:next": button_contrast(robot, "table:next")}
    yield from long_press(robot, "counter:Cat:gems")
    yield from robot.wait_for(lambda: robot.popup() is not None, "the keypad")
    yield from robot.tap_keys("5")
    contrasts["keypad OK"] = button_contrast(robot, "key:ok")
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: "Why" in str(getattr(robot.popup(), "title", "")),
                              "the note keyboard")
    popup = robot.popup()
    robot.result["note_title"] = popup.title
    robot.result["key_heights"] = sorted({round(w.height) for w in robot.all(
        lambda t: t.startswith("key:") and t not in ("key:display",))})
    contrasts["note OK"] = button_contrast(robot, "key:ok")
    usb_text("x" * 100)  # longer than a note may be: cut at 80, wrapped in the display
    yield from robot.frames(3)
    display = robot.find("key:display")
    robot.result["long"] = {"length": len(popup.display), "lines": display.texture_size[1]
                            // display.font_size, "fits": display.texture_size[0]
                            <= display.width and display.texture_size[1] <= display.height}
    yield from robot.tap("key:clear")
    yield from robot.tap_keys("Gem under board: 2 (seen late)! ")
    yield from robot.tap("key:shift")
    robot.result["shifted_key"] = robot.text("key:Q")
    yield from robot.tap_keys("sü")
    yield from robot.tap("key:ß")
    usb_text(" Ja.")
    usb_key(8)  # Backspace: the full stop goes
    usb_key(32)  # the space bar is the keyboard panel's Next, but not while typing
    yield from robot.frames(5)
    robot.result["typed"] = popup.display
    yield from shot(robot, shots, "note", size)
    usb_key(13)  # Enter: OK
    yield from robot.wait_for(lambda: robot.popup() is None, "the table")
    yield from read_table(robot)
    robot.result["log"] = robot.app.session.game.game.steps[-1].events[-1]["text"]
    yield from robot.tap("table:home")
    yield from robot.wait_for(lambda: robot.find("home:resume") is not None, "home")
    contrasts["home:resume"] = button_contrast(robot, "home:resume")
    robot.result["contrast"] = contrasts


SCENARIOS = {"note-and-contrast": note_and_contrast}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
