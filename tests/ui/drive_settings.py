"""Driver: the settings screen, run in the real app under Xvfb by tests/ui/test_settings_ui.py.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_settings.py change --size 800x480

prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Robot, Steps, run

from companion.ui.kit.colors import contrast


def to_settings(robot: Robot) -> Steps:
    """From home to the settings screen."""
    yield from robot.tap("home:settings")
    yield from robot.wait_for(lambda: robot.find("settings:back") is not None, "settings")
    yield from robot.frames(2)


def chosen(robot: Robot, name: str) -> list[str]:
    """The values of the toggles of a group that are down ("settings:kind:gpio" -> "gpio")."""
    prefix = f"settings:{name}:"
    return [w.tag[len(prefix):] for w in robot.all(lambda t: t.startswith(prefix))
            if w.state == "down"]


def read_settings(robot: Robot) -> dict[str, Any]:
    """Everything the settings screen shows now."""
    return {
        "kind": chosen(robot, "kind"),
        "camera": chosen(robot, "camera"),
        "dice": chosen(robot, "dice"),
        "calibration": robot.text("settings:calibration"),
        "display": chosen(robot, "display"),
        "size": chosen(robot, "size"),
        "brightness": robot.text("settings:brightness"),
        "level": chosen(robot, "brightness"),
        "pins": {w.tag.split(":")[-1]: robot.text(w.tag)
                 for w in robot.all(lambda t: t.startswith("settings:pin:"))},
        "hold": robot.text("settings:hold"),
        "port": robot.text("settings:port"),
        "paths": {w.tag.split(":")[-1]: robot.text(w.tag)
                  for w in robot.all(lambda t: t.startswith("settings:path:"))},
        "message": robot.text("settings:message"),
        "problems": robot.text("settings:problems"),
        "status": robot.text("status:strip"),
    }


def fill(widget: Any) -> tuple[float, ...]:
    """The colour behind a widget's text."""
    from companion.ui.kit.widgets import BACKGROUND  # Kivy only once the app has configured it

    if hasattr(widget, "background_color"):
        return tuple(widget.background_color)
    if hasattr(widget, "tone"):
        return tuple(c * 0.55 for c in widget.tone[:3])
    if hasattr(widget, "bg") and widget.bg[3] > 0:
        return tuple(widget.bg)
    return BACKGROUND


def legibility(robot: Robot) -> dict[str, Any]:
    """The lowest text contrast and the smallest touch target on the settings screen."""
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label

    screen = robot.app.screens.get_screen("settings")
    labels = [w for w in robot._walk(screen) if isinstance(w, Label) and w.text
              and robot._visible(w)]
    ratios = sorted((contrast(w.color[:3], fill(w)[:3]), w.text) for w in labels)
    targets = sorted((w.height, w.text) for w in labels if isinstance(w, ButtonBehavior))
    return {"contrast": ratios[0], "target": targets[0]}


def change(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Home -> Settings: a GPIO panel, Undo on GPIO24 typed on the keypad, a long press of
    30 ms refused with its message, full screen on; the screenshot; Back to home."""
    yield from to_settings(robot)
    robot.result["before"] = read_settings(robot)
    yield from robot.tap("settings:kind:gpio")
    yield from robot.tap("settings:pin:undo")
    yield from robot.tap_keys("24")
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: robot.popup() is None, "the keypad to close")
    yield from robot.tap("settings:hold")
    yield from robot.tap_keys("30")
    yield from robot.tap("key:ok")
    robot.result["refused"] = yield from robot.read("keypad:message")
    yield from robot.tap("key:cancel")
    yield from robot.wait_for(lambda: robot.popup() is None, "the keypad to close")
    yield from robot.tap("settings:display:fullscreen")
    yield from robot.frames(2)
    robot.result["after"] = read_settings(robot)
    robot.result["legibility"] = legibility(robot)
    if shots is not None:
        robot.app.screens.get_screen("settings").ids.scroller.scroll_y = 1  # from the top
        yield from robot.screenshot(shots / f"settings-{size[0]}x{size[1]}.png")
    yield from robot.tap("settings:back")
    yield from robot.wait_for(lambda: robot.find("home:new") is not None, "home")


def camera(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """The dice camera named in the config file: its picture with the dice it reads, shown
    and closed; the calibration improved from the readings kept; then no camera."""
    yield from to_settings(robot)
    robot.result["before"] = read_settings(robot)
    yield from robot.tap("settings:camera-show")
    yield from robot.wait_for(lambda: robot.popup() is not None
                              and robot.popup().ids.camera.seen is not None
                              and robot.popup().ids.camera.seen.dice, "the camera's picture")
    yield from robot.frames(3)
    robot.result["preview"] = robot.text("preview:line")
    # a calibration run: Hold the picture, tap a die to set its number, Keep, Calibrate
    yield from robot.tap("preview:hold")
    view = robot.popup().ids.camera
    index, first = next((i, d) for i, d in enumerate(view.seen.dice) if d.value < 6)
    robot.result["held"] = {"hold": robot.text("preview:hold"),
                            "first": [first.value, first.face]}
    yield from tap_frame(robot, view, (first.box[0] + first.box[2]) / 2,
                         (first.box[1] + first.box[3]) / 2)
    changed = view.seen.dice[index]
    robot.result["tapped"] = [changed.value, changed.face]
    if shots is not None:
        yield from robot.screenshot(shots / f"settings-camera-{size[0]}x{size[1]}.png")
    yield from robot.tap("preview:keep")
    yield from robot.frames(2)
    robot.result["kept"] = robot.text("preview:progress")
    yield from robot.tap("preview:calibrate")
    # Calibrate closes the pop-up and says "Calibrating…" until the profile is made
    yield from robot.wait_for(lambda: robot.popup() is None
                              and "…" not in robot.text("settings:message"), "the calibration")
    yield from robot.frames(2)
    robot.result["calibrated"] = read_settings(robot)
    yield from robot.tap("settings:camera:none")
    yield from robot.frames(2)
    robot.result["after"] = read_settings(robot)


def language(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """German chosen: the screen speaks it at once; then English again."""
    yield from to_settings(robot)
    robot.result["before"] = {"back": robot.text("settings:back"),
                              "language": chosen(robot, "language")}
    yield from robot.tap("settings:language:de")
    yield from robot.frames(2)
    robot.result["german"] = {"back": robot.text("settings:back"),
                              "language": chosen(robot, "language"),
                              "message": robot.text("settings:message")}
    if shots is not None:
        yield from robot.screenshot(shots / f"settings-de-{size[0]}x{size[1]}.png")


def dice_kinds(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Pip dice's face map turned by touch; then icon dice chosen and taught from the camera,
    one face turned up on every die at a time (the test's renders: 1 food die, 2 water dice,
    3 metal, 4 Human), and read with what was taught."""
    import os
    import shutil

    renders = Path(os.environ["PHOENIX_TEST_RENDERS"])  # <face>.png, made by the test
    camera = Path(os.environ["PHOENIX_TEST_CAMERA"])  # the folder the config's camera plays
    yield from to_settings(robot)
    robot.result["faces"] = faces(robot)
    yield from robot.tap("settings:face:3")
    yield from robot.frames(2)
    robot.result["turned"] = faces(robot)
    yield from robot.tap("settings:dice:icons")
    yield from robot.frames(2)
    robot.result["icons"] = {"dice": chosen(robot, "dice"), "faces": faces(robot),
                             "calibration": robot.text("settings:calibration"),
                             "show": robot.text("settings:camera-show")}
    yield from robot.tap("settings:camera-show")
    yield from robot.wait_for(lambda: robot.popup() is not None, "the camera's pop-up")
    view = robot.popup().ids.camera
    taught = []
    for count, face in enumerate(("food", "water", "metal", "human"), start=1):
        # the face chosen, then the dice turned over: a picture of the dice before is read
        # as this face too, but has a die fewer than the one waited for
        yield from robot.tap(f"settings:turned:{face}")
        shutil.copy(renders / f"{face}.png", camera / "tray.png.new")
        os.replace(camera / "tray.png.new", camera / "tray.png")
        yield from robot.wait_for(lambda n=count: view.seen is not None
                                  and len(view.seen.dice) == n, f"{count} dice showing {face}")
        yield from robot.tap("preview:hold")
        if shots is not None and face == "metal":
            yield from robot.screenshot(shots / f"settings-teach-icons-{size[0]}x{size[1]}.png")
        taught.append(sorted(d.face for d in view.seen.dice))
        yield from robot.tap("preview:keep")
        yield from robot.frames(2)
    robot.result["taught"] = taught
    robot.result["progress"] = robot.text("preview:progress")
    robot.result["teach"] = robot.text("preview:calibrate")
    yield from robot.tap("preview:calibrate")
    # Teach closes the pop-up and says "Calibrating…" until the profile is made
    yield from robot.wait_for(lambda: robot.popup() is None
                              and "…" not in robot.text("settings:message"), "the teaching")
    yield from robot.frames(2)
    robot.result["learned"] = {"message": robot.text("settings:message"),
                               "calibration": robot.text("settings:calibration")}
    # read with what was taught: the 4 Human dice still in the tray
    yield from robot.tap("settings:camera-show")
    yield from robot.wait_for(lambda: robot.popup() is not None, "the camera's pop-up")
    view = robot.popup().ids.camera
    yield from robot.wait_for(lambda: chosen(robot, "turned"), "the faces to turn up")
    robot.result["read_mode"] = chosen(robot, "turned")
    yield from robot.wait_for(lambda: view.seen is not None and len(view.seen.dice) == 4,
                              "the Human dice read")
    robot.result["read"] = sorted(d.face for d in view.seen.dice)
    yield from robot.tap("preview:close")
    yield from robot.wait_for(lambda: robot.popup() is None, "the picture to close")


def brightness(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """The backlight (a fake one, $PHOENIX_BACKLIGHT_ROOT) set to 50 % by touch."""
    yield from to_settings(robot)
    robot.result["before"] = read_settings(robot)
    yield from robot.tap("settings:brightness:50")
    yield from robot.frames(2)
    robot.result["after"] = read_settings(robot)


def faces(robot: Robot) -> dict[str, str]:
    """The face map's buttons as shown: pips -> the words on them."""
    return {w.tag.split(":")[-1]: robot.text(w.tag)
            for w in robot.all(lambda t: t.startswith("settings:face:"))}


def tap_frame(robot: Robot, view: Any, x: float, y: float) -> Steps:
    """A finger on a camera picture at frame pixel (x, y)."""
    from kivy.tests.common import UnitTestTouch

    shown_w, shown_h = view.norm_image_size
    height, width = view.frame.shape[:2]
    touch = UnitTestTouch(*view.to_window(view.center_x - shown_w / 2 + x / width * shown_w,
                                          view.center_y - shown_h / 2
                                          + (1 - y / height) * shown_h))
    touch.touch_down()
    touch.touch_up()
    yield from robot.frames(2)


def reopened(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """After a restart on the same data folder: the settings as the screen shows them."""
    yield from to_settings(robot)
    robot.result["settings"] = read_settings(robot)
    robot.result["settings"]["back"] = robot.text("settings:back")


def bad_file(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """A config file that cannot be read: its problem shown; a change asks before replacing
    it - No keeps the file, Yes replaces it."""
    yield from to_settings(robot)
    robot.result["before"] = read_settings(robot)
    answers = []
    for answer in ("no", "yes"):
        yield from robot.tap("settings:display:fullscreen")
        answers.append((yield from robot.read("confirm:question")))
        yield from robot.tap(f"confirm:{answer}")
        yield from robot.wait_for(lambda: robot.popup() is None, "the question to close")
        yield from robot.frames(3)
        answers.append(read_settings(robot))
    robot.result["answers"] = answers


def serial_port(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """A serial panel whose port is typed on the note keyboard (Shift off first)."""
    yield from to_settings(robot)
    yield from robot.tap("settings:kind:serial")
    robot.result["by_usb"] = yield from robot.read("settings:port")
    yield from robot.tap("settings:port-type")
    yield from robot.tap("key:shift")
    yield from robot.tap("key:shift")
    yield from robot.tap_keys("/dev/serial0")
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: robot.popup() is None, "the keyboard to close")
    yield from robot.frames(2)
    robot.result["typed"] = read_settings(robot)


SCENARIOS = {"change": change, "reopened": reopened, "bad-file": bad_file, "camera": camera,
             "language": language, "dice-kinds": dice_kinds,
             "brightness": brightness,
             "serial-port": serial_port}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
