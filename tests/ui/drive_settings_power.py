"""Driver: Shut down and Restart on the settings screen, run in the real app under Xvfb by
tests/ui/test_settings_power.py, with a fake systemctl first on PATH (tests/hardware/
fake_systemctl.py, its folder in $PHOENIX_TEST_SYSTEMCTL).

    DISPLAY=:99 .venv/bin/python tests/ui/drive_settings_power.py power --size 800x480

prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardware"))

from drive_settings import to_settings
from fake_systemctl import calls
from harness import Robot, Steps, run


def systemctl_calls() -> list[str]:
    """What the fake systemctl was asked so far."""
    return calls(Path(os.environ["PHOENIX_TEST_SYSTEMCTL"]))


def section(robot: Robot) -> dict[str, Any]:
    """The Switch off section as shown: its line, and its buttons' words and whether each
    fits inside the window with its text unshortened."""
    from kivy.core.window import Window

    buttons = robot.all(lambda tag: tag.startswith("settings:power:"))
    return {"note": robot.text("settings:power-note"),
            "buttons": {b.tag.split(":")[-1]: b.text for b in buttons},
            "fit": all(b.x >= 0 and b.right <= Window.width and b.texture_size[0] <= b.width
                       for b in buttons)}


def popup(robot: Robot) -> dict[str, Any]:
    """The pop-up as shown: its text (and whether it fits), its buttons."""
    label = robot.find("power:text")
    return {"text": robot.text("power:text"),
            "fits": label.texture_size[1] <= label.height,
            "buttons": {b.tag: robot.text(b.tag)
                        for b in robot.all(lambda tag: tag in ("power:cancel", "power:confirm"))}}


def close(robot: Robot) -> Steps:
    """Cancel (or Close) the pop-up and let the screen settle."""
    yield from robot.tap("power:cancel")
    yield from robot.wait_for(lambda: robot.popup() is None, "the pop-up to close")
    yield from robot.frames(2)


def going(robot: Robot, action: str, verb: str) -> Steps:
    """Tap `action`, confirm it, and read what the screen says until systemctl was asked."""
    asked = len(systemctl_calls())
    yield from robot.tap(f"settings:power:{action}")
    yield from robot.tap("power:confirm")
    yield from robot.wait_for(lambda: len(systemctl_calls()) > asked, f"systemctl {verb}")
    yield from robot.frames(3)
    return popup(robot)


def power(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Shut down asked, then Cancel (nothing run); Shut down confirmed (the screen says the Pi
    goes down, systemctl poweroff asked); the pop-up closed by the test as if the Pi had gone
    down; then Restart confirmed."""
    yield from to_settings(robot)
    robot.result["section"] = section(robot)
    yield from robot.tap("settings:power:shutdown")
    robot.result["question"] = popup(robot)
    if shots is not None:
        yield from robot.screenshot(shots / f"settings-power-{size[0]}x{size[1]}.png")
    yield from close(robot)
    robot.result["after_cancel"] = systemctl_calls()
    robot.result["shutdown"] = yield from going(robot, "shutdown", "poweroff")
    robot.result["after_shutdown"] = systemctl_calls()
    if shots is not None:
        yield from robot.screenshot(shots / f"settings-power-going-{size[0]}x{size[1]}.png")
    robot.popup().dismiss()  # the Pi would be going down now; the test carries on
    yield from robot.wait_for(lambda: robot.popup() is None, "the pop-up to close")
    yield from robot.tap("settings:power:restart")
    robot.result["restart_question"] = popup(robot)
    yield from close(robot)
    robot.result["restart"] = yield from going(robot, "restart", "reboot")
    robot.result["calls"] = systemctl_calls()


def refused(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Shut down confirmed and refused (no polkit rule): the reason in the pop-up, Close; the
    reason stays on the message line and the app carries on (Back to home)."""
    yield from to_settings(robot)
    yield from going(robot, "shutdown", "poweroff")
    yield from robot.wait_for(lambda: robot.find("power:cancel") is not None, "the refusal")
    yield from robot.frames(2)
    robot.result["refusal"] = popup(robot)
    if shots is not None:
        yield from robot.screenshot(shots / f"settings-power-refused-{size[0]}x{size[1]}.png")
    yield from close(robot)
    robot.result["message"] = robot.text("settings:message")
    robot.result["calls"] = systemctl_calls()
    yield from robot.tap("settings:back")
    yield from robot.wait_for(lambda: robot.find("home:new") is not None, "home")


def not_offered(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Where systemd does not run the computer: no buttons, the reason in words."""
    yield from to_settings(robot)
    robot.result["section"] = section(robot)


SCENARIOS = {"power": power, "refused": refused, "not-offered": not_offered}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
