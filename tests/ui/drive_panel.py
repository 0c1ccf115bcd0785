"""Driver: the button panel drives the table app (GPIO buttons on gpiozero's mock pins, the
keyboard), run in the real app under Xvfb by tests/ui/test_panel.py with
GPIOZERO_PIN_FACTORY=mock and a config whose panel has one LED per player colour.

    GPIOZERO_PIN_FACTORY=mock DISPLAY=:99 .venv/bin/python tests/ui/drive_panel.py \
        next-button --demo --config CONFIG

prints `DRIVER-RESULT {...}` (what was read on screen and on the LED pins) as its last line.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Robot, Steps, run

NEXT_PIN = 17
LED_PINS = {"red": 5, "yellow": 6, "green": 13, "blue": 26}  # docs/panel.md's defaults
ENTER = 13
LONG_PRESS = 0.6  # seconds: longer than the test config's hold_time (0.3)


def leds(robot: Robot) -> dict:
    """What the lights were told, and which player LEDs are lit now."""
    from gpiozero import Device

    state = robot.app.bridge.lights.state
    lit = sorted(c for c, pin in LED_PINS.items() if Device.pin_factory.pin(pin).state)
    return {"mode": state.mode, "colour": state.colour, "lit": lit}


def press_next(robot: Robot, seconds: float = 0.0) -> Steps:
    """Press the NEXT button on its pin (held for `seconds`: a long press), then release it."""
    from gpiozero import Device

    pin = Device.pin_factory.pin(NEXT_PIN)
    pin.drive_low()
    held_until = time.monotonic() + seconds + 0.05
    yield from robot.wait_for(lambda: time.monotonic() > held_until, "the press")
    pin.drive_high()
    yield from robot.frames(2)


def next_button(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """--demo: Bob's bonus blinks his colour; on the table the LED is Cat's; NEXT ends her turn;
    NEXT again says why not; a long press undoes; the keyboard's Enter confirms (Next)."""
    result = robot.result
    yield from robot.wait_for(lambda: robot.find("bonus:0") is not None, "Bob's bonus prompt")
    result["prompt_lights"] = leds(robot)
    yield from press_next(robot)
    result["prompt_message"] = yield from robot.read("action:message")
    yield from robot.tap("bonus:0")
    yield from robot.wait_for(lambda: robot.text("table:active") == "Cat", "Cat's turn")
    result["cat_lights"] = leds(robot)
    yield from press_next(robot)
    yield from robot.wait_for(lambda: robot.text("table:active") != "Cat", "the next turn")
    result["after_next"] = {"active": robot.text("table:active"), "lights": leds(robot)}
    yield from press_next(robot)
    result["refused"] = yield from robot.read("table:message")
    yield from press_next(robot, seconds=LONG_PRESS)
    yield from robot.wait_for(lambda: robot.text("table:active") == "Cat", "the undo")
    result["after_undo"] = {"active": robot.text("table:active"), "lights": leds(robot)}
    from kivy.core.window import Window

    Window.dispatch("on_key_down", ENTER, 0, None, [])
    Window.dispatch("on_key_up", ENTER, 0)
    yield from robot.wait_for(lambda: robot.text("table:active") != "Cat", "Enter (confirm)")
    result["after_enter"] = {"active": robot.text("table:active"), "lights": leds(robot)}


SCENARIOS = {"next-button": next_button}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
