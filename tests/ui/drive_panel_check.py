"""Driver: the button panel's live test (companion/ui/panel_check.py), run in the real app under
Xvfb by tests/ui/test_panel_check.py with GPIOZERO_PIN_FACTORY=mock and a config whose GPIO panel
has one LED per player colour (as tests/ui/drive_panel.py).

    GPIOZERO_PIN_FACTORY=mock DISPLAY=:99 .venv/bin/python tests/ui/drive_panel_check.py \
        live --demo --config CONFIG

prints `DRIVER-RESULT {...}` (what was read on screen and on the LED pins) as its last line.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_panel import leds, press_next
from harness import Robot, Steps, run

BUTTONS = ("next_turn", "undo", "confirm", "read_dice")
LONG_PRESS = 0.6  # seconds: longer than the test config's hold_time (0.3)
LIGHT_CHANGES = 4  # steps of the light cycle watched (one every 2 s)


def to_settings(robot: Robot) -> Steps:
    """From home to the settings screen."""
    yield from robot.tap("home:settings")
    yield from robot.wait_for(lambda: robot.find("settings:back") is not None, "settings")
    yield from robot.frames(2)


def open_check(robot: Robot) -> Steps:
    """Open the live test: the settings screen's button where it has one, else as it would."""
    if robot.find("settings:panel-test") is not None:
        yield from robot.tap("settings:panel-test")
        robot.result["opened_by"] = "button"
    else:
        from companion.ui.settings.panel_check import check_panel

        check_panel()
        robot.result.setdefault("opened_by", "check_panel()")
    yield from robot.wait_for(lambda: robot.find("panel-check:close") is not None, "the test")
    yield from robot.frames(2)


def close_check(robot: Robot) -> Steps:
    """Close the live test."""
    yield from robot.tap("panel-check:close")
    yield from robot.wait_for(lambda: robot.popup() is None, "the test to close")
    yield from robot.frames(2)


def read_check(robot: Robot) -> dict[str, Any]:
    """What the live test shows: its state, each button's line (and which is highlighted),
    the lights' line."""
    lines = {}
    for name in BUTTONS:
        widget = robot.find(f"panel-check:{name}")
        lines[name] = {"text": robot.text(f"panel-check:{name}"),
                       "last": bool(widget is not None and widget.last)}
    return {"status": robot.text("panel-check:status"), "lines": lines,
            "lights": robot.text("panel-check:lights")}


def wait_line(robot: Robot, name: str, text: str) -> Steps:
    """Wait until a button's line says `text` (the press has reached the screen)."""
    yield from robot.wait_for(lambda: robot.text(f"panel-check:{name}") == text,
                              f"{name} to read {text!r}")


def turn(robot: Robot) -> str:
    """Whose turn it is in the game (the table's active player)."""
    return robot.app.session.options()["turn"]["player"]


def watch_lights(robot: Robot, changes: int) -> Steps:
    """Record what the lights' line says and which LED pins are lit, at the start and at each
    of the next `changes` steps of the cycle."""
    seen = [{"line": robot.text("panel-check:lights"), **leds(robot)}]
    for _ in range(changes):
        before = seen[-1]["line"]
        yield from robot.wait_for(lambda b=before: robot.text("panel-check:lights") != b,
                                  "the lights' next step")
        seen.append({"line": robot.text("panel-check:lights"), **leds(robot)})
    robot.result["cycle"] = seen


def live(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """--demo: Cat's turn on the table (her LED lit); Settings → the live test: NEXT and a long
    press are shown, not played, the LEDs cycle; closed, the lights are as before. Back on the
    table, the test opened there: NEXT does not end Cat's turn; closed, her LED is lit again
    and NEXT ends her turn."""
    result = robot.result
    yield from robot.wait_for(lambda: robot.find("bonus:0") is not None, "Bob's bonus prompt")
    yield from robot.tap("bonus:0")
    yield from robot.wait_for(lambda: robot.text("table:active") == "Cat", "Cat's turn")
    result["table_before"] = {"turn": turn(robot), "lights": leds(robot)}
    yield from robot.tap("table:home")
    yield from to_settings(robot)
    result["settings_lights"] = leds(robot)
    yield from open_check(robot)
    result["opened"] = read_check(robot)
    yield from watch_lights(robot, LIGHT_CHANGES)
    yield from press_next(robot)
    yield from wait_line(robot, "next_turn", "Next turn: pressed 1 time")
    yield from press_next(robot)
    yield from wait_line(robot, "next_turn", "Next turn: pressed 2 times")
    result["after_next"] = read_check(robot)
    yield from press_next(robot, seconds=LONG_PRESS)
    yield from wait_line(robot, "undo", "Undo, or Next turn held: pressed 1 time")
    result["after_long_press"] = read_check(robot)
    result["turn_during_test"] = turn(robot)
    if shots is not None:
        yield from robot.screenshot(shots / f"settings-panel-test-{size[0]}x{size[1]}.png")
    yield from close_check(robot)
    result["settings_lights_after"] = leds(robot)
    yield from robot.tap("settings:back")
    yield from robot.tap("home:resume")
    yield from robot.wait_for(lambda: robot.text("table:active") != "", "the table")
    result["table_after_settings"] = {"active": robot.text("table:active"),
                                      "lights": leds(robot)}

    from companion.ui.settings.panel_check import check_panel  # on the table, where NEXT would play

    check_panel()
    yield from robot.wait_for(lambda: robot.find("panel-check:close") is not None, "the test")
    yield from press_next(robot)
    yield from wait_line(robot, "next_turn", "Next turn: pressed 1 time")
    yield from robot.frames(5)
    result["turn_during_table_test"] = turn(robot)
    yield from close_check(robot)
    result["table_closed"] = {"active": robot.text("table:active"), "lights": leds(robot)}
    yield from press_next(robot)
    yield from robot.wait_for(lambda: robot.text("table:active") != "Cat", "the next turn")
    result["after_close_next"] = {"active": robot.text("table:active"), "lights": leds(robot)}


def german(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """[display] language = "de": Settings → the live test, NEXT pressed; its words read and
    its screenshot (named "-de")."""
    yield from to_settings(robot)
    yield from open_check(robot)
    yield from press_next(robot)
    yield from wait_line(robot, "next_turn", "Nächster Zug: 1-mal gedrückt")
    robot.result["check"] = read_check(robot)
    if shots is not None:
        yield from robot.screenshot(shots / f"settings-panel-test-de-{size[0]}x{size[1]}.png")
    yield from close_check(robot)


def touch_only(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """No panel in the config: the live test says so and what to do."""
    yield from to_settings(robot)
    yield from open_check(robot)
    robot.result["check"] = read_check(robot)
    yield from close_check(robot)


SCENARIOS = {"live": live, "german": german, "touch-only": touch_only}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
