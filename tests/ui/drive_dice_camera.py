"""Driver: an Expedition's dice read by the camera, in the real app under Xvfb, run by
tests/ui/test_expedition_camera.py on the 3-player draft example replayed into --db up to Cat's turn
30, with a config file whose `[camera] source` is a folder of recorded frames (a real photo of
six pip dice, 1 1 2 2 5 6: four food, a metal, a Human with the standard face map).

    DISPLAY=:99 .venv/bin/python tests/ui/drive_dice_camera.py read --db G --config C

Cat taps her Expedition L1 ship (roll 6, keep 4); the camera's picture appears beside the face
buttons and is taken once the dice have settled; a tap on the Human die turns it into food (the
next face... after Human: taken away, so a tap on an empty spot adds it back as food); the
camera's six dice are used; the kept-dice panel shows what was read, every die kept.

`lost`: once the camera's picture is seen, its folder of frames is renamed away (the camera
unplugged): the status strip and the line under the picture say so, the count buttons still
work; renamed back (plugged in again), the problem goes and fresh pictures come.

`panel`: the button panel's Dice button (the keyboard panel's "d" key, through the panel bridge
as every panel event: `panel_bridge.press(app, "read_dice")`) holds the live picture before the
dice have lain still for the settle time, and its dice are read then; a second press takes the
camera's six dice; the kept-dice panel shows them.
Prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_action import dim, lit, read_panel
from drive_table import read_table, shot
from harness import DriverError, Robot, Steps, run

DICE_KEY = 100  # "d": the keyboard panel's Dice button (hardware/keyboard.py KEYCODE_NAMES)
LIVE = "Camera: the dice are read once they lie still"  # the picture before they are read
PICTURE = (LIVE, "Camera sees", "Read:")  # the line under a picture from the camera


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
    yield from robot.wait_for(lambda: camera_view(robot).taken, "the camera's reading taken")
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
    yield from robot.frames(2)
    result["kept"] = read_panel(robot)
    result["kept_lit"] = lit(robot, "keep:")
    result["keep_these_dim"] = dim(robot, "action:kept")
    result["camera_shown"] = robot.app.screens.get_screen("action").camera
    result["answers_left"] = answers_left(robot)
    return result


def answers_left(robot: Robot) -> float:
    """Where the panel's answers begin, as a share of the window's width (the camera's box
    let go: near 0, not where the picture was)."""
    from kivy.core.window import Window

    return min(w.to_window(*w.pos)[0] for w in robot.all(
        lambda t: t.startswith("keep:"))) / Window.width


def camera_state(robot: Robot) -> dict:
    """What the screen says of the camera: the line under the picture, the status strip, the
    problem behind them, whether the picture is shown."""
    view = camera_view(robot)
    return {"line": robot.text("dice:camera-line"), "strip": robot.text("status:strip"),
            "problem": view.problem, "shown": robot.app.screens.get_screen("action").camera}


def shows_problem(robot: Robot) -> bool:
    """The camera's problem is on screen: in the status strip and the line under the picture
    (the same problem in both)."""
    problem = camera_view(robot).problem
    return bool(problem) and f"Dice camera: {problem}" in robot.text("status:strip") \
        and robot.text("dice:camera-line") == f"Camera: {problem}. Tap the faces in instead."


def waiting(robot: Robot, condition: Callable[[], object], what: str) -> Steps:
    """robot.wait_for, its time-out saying what the screen said of the camera then."""
    try:
        yield from robot.wait_for(condition, what)
    except DriverError as error:
        raise DriverError(f"{error}; the camera then: {camera_state(robot)}") from None


def lost(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """The camera (a folder of frames) unplugged once its picture is seen, then plugged in."""
    result = robot.result
    frames = Path(robot.app.settings.camera.source)
    away = frames.with_name(frames.name + "-unplugged")
    view = camera_view(robot)
    yield from read_table(robot)
    yield from robot.tap("ship:Cat:L1-expedition")
    yield from robot.wait_for(
        lambda: robot.text("dice:camera-line").startswith(PICTURE), "the camera's picture")
    result["seen"] = camera_state(robot)
    frames.rename(away)  # unplugged: the next frame cannot be read, nor the camera reopened
    try:
        yield from waiting(robot, lambda: shows_problem(robot), "the camera's problem on screen")
        result["lost"] = camera_state(robot)
        yield from shot(robot, shots, "action-dice-camera-lost", size)
        # the face buttons are the way in meanwhile
        yield from robot.tap("die:food:1")
        yield from robot.frames(2)
        result["fallback"] = {"food": lit(robot, "die:food:"), **camera_state(robot)}
    finally:
        if away.exists():
            away.rename(frames)  # plugged in again (also when the scenario failed)
    back_at = time.monotonic()

    def fresh() -> bool:
        latest = view.watcher.latest() if view.watcher is not None else None
        return latest is not None and latest.seen_at > back_at

    yield from waiting(
        robot, lambda: view.problem is None and robot.app.camera_trouble is None
        and not robot.text("status:strip") and fresh()
        and robot.text("dice:camera-line").startswith(PICTURE),
        "the camera to come back with fresh pictures")
    yield from robot.frames(3)
    result["back"] = {"food": lit(robot, "die:food:"), **camera_state(robot)}
    yield from shot(robot, shots, "action-dice-camera-back", size)
    return result


def dice_button(robot: Robot) -> Steps:
    """The panel's Dice button, pressed and released: the keyboard panel's "d" key, which the
    panel bridge delivers on the main thread to the app's on_panel_event, as any panel's
    press (panel_bridge.press(app, "read_dice") -> the screen's read_dice())."""
    from kivy.core.window import Window

    bridge = robot.app.bridge
    delivered: list[str] = []
    app_event = bridge.on_event

    def seen(event) -> None:  # the app's own handler, noting that the event reached it
        delivered.append(event.name)
        app_event(event)

    bridge.on_event = seen
    try:
        Window.dispatch("on_key_down", DICE_KEY, 0, "d", [])
        Window.dispatch("on_key_up", DICE_KEY, 0)
        yield from robot.wait_for(lambda: "read_dice" in delivered,
                                  "the Dice button's event to reach the app")
    finally:
        bridge.on_event = app_event
    yield from robot.frames(2)


def panel(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """The live picture held by the panel's Dice button (the config's long settle keeps it
    live and unread until then) and read, then its reading taken by a second press."""
    result = robot.result
    view = camera_view(robot)
    yield from read_table(robot)
    yield from robot.tap("ship:Cat:L1-expedition")
    yield from robot.wait_for(lambda: robot.text("dice:camera-line").startswith(LIVE),
                              "the camera's live picture, its dice not read yet")
    result["live"] = {"line": robot.text("dice:camera-line"), "taken": view.taken}
    yield from dice_button(robot)
    yield from robot.wait_for(lambda: robot.text("dice:camera-line").startswith("Read:"),
                              "the picture to be held")
    yield from robot.frames(3)
    result["held"] = {"line": robot.text("dice:camera-line"), "taken": view.taken,
                      "faces": sorted(view.seen.faces), "panel": read_panel(robot),
                      "message": robot.text("action:message")}
    yield from dice_button(robot)
    yield from robot.wait_for(lambda: robot.find("action:kept") is not None, "the kept dice")
    yield from robot.frames(2)
    result["kept"] = read_panel(robot)
    result["kept_lit"] = lit(robot, "keep:")
    result["keep_these_dim"] = dim(robot, "action:kept")
    result["message"] = robot.text("action:message")
    result["camera_shown"] = robot.app.screens.get_screen("action").camera
    yield from shot(robot, shots, "action-dice-camera-panel", size)
    return result


if __name__ == "__main__":
    sys.exit(run({"read": read, "lost": lost, "panel": panel}))
