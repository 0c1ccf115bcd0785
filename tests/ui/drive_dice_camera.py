"""Driver: an Expedition's dice read by the camera, in the real app under Xvfb, run by
tests/ui/test_dice_camera.py on the 3-player draft example replayed into --db up to Cat's turn
30, with a config file whose `[camera] source` is a folder of recorded frames (a real photo of
six pip dice, 1 1 2 2 5 6: four food, a metal, a Human with the standard face map).

    DISPLAY=:99 .venv/bin/python tests/ui/drive_dice_camera.py read --db G --config C

Cat taps her Expedition L1 ship (roll 6, keep 4); the camera's picture appears beside the face
buttons and is taken once the dice have settled; a tap on the Human die turns it into food (the
next face... after Human: taken away, so a tap on an empty spot adds it back as food); the
camera's six dice are used; the kept-dice panel shows what was read.
Prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_action import read_panel
from drive_table import read_table, shot
from harness import Robot, Steps, run


def camera_view(robot: Robot):
    return robot.app.screens.get_screen("action").ids.camera


def tap_frame(robot: Robot, x: float, y: float) -> Steps:
    """A finger on the camera picture at frame pixel (x, y)."""
    from kivy.tests.common import UnitTestTouch

    view = camera_view(robot)
    shown_w, shown_h = view.norm_image_size
    height, width = view.frame.shape[:2]
    wx = view.center_x - shown_w / 2 + x / width * shown_w
    wy = view.center_y - shown_h / 2 + (1 - y / height) * shown_h
    touch = UnitTestTouch(*view.to_window(wx, wy))
    touch.touch_down()
    touch.touch_up()
    yield from robot.frames(2)


def read(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    result = robot.result
    yield from read_table(robot)
    yield from robot.tap("ship:Cat:L1-expedition")
    yield from robot.wait_for(lambda: robot.text("dice:camera-line").startswith("Read:"),
                              "the camera's reading to be taken")
    yield from robot.frames(3)
    view = camera_view(robot)
    result["taken"] = {"line": robot.text("dice:camera-line"), "faces": sorted(view.seen.faces),
                       "panel": read_panel(robot)}
    yield from shot(robot, shots, "action-dice-camera", size)
    # the Human die: a tap turns it to the next face (after the last: not a die)
    [human] = [d for d in view.seen.dice if d.face == "human"]
    x0, y0, x1, y1 = human.box
    yield from tap_frame(robot, (x0 + x1) / 2, (y0 + y1) / 2)
    result["tapped_human"] = {"faces": sorted(view.seen.faces),
                              "line": robot.text("dice:camera-line"),
                              "button": robot.text("action:camera-dice")}
    # a tap where no die is adds one there (food first): six dice again
    yield from tap_frame(robot, (x0 + x1) / 2, (y0 + y1) / 2)
    result["added"] = {"faces": sorted(view.seen.faces),
                       "button": robot.text("action:camera-dice")}
    yield from robot.tap("action:camera-dice")
    yield from robot.wait_for(lambda: robot.find("action:kept") is not None, "the kept dice")
    result["kept"] = read_panel(robot)
    result["camera_shown"] = robot.app.screens.get_screen("action").camera
    return result


if __name__ == "__main__":
    sys.exit(run({"read": read}))
