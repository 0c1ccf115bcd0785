"""The kiosk's window and touch input as Kivy is configured (companion.ui.shell.window:
kivy_settings and configure_kivy): one input provider per touchscreen, the mouse provider
standing aside while a finger is down, the cursor hidden, the picture and touches rotated
together."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from companion.ui.shell.window import kivy_settings

TOUCHSCREEN = "probesysfs,provider=hidinput"
MOUSE_ASIDE = "mouse,multitouch_on_demand,disable_on_activity"


def inputs(settings: dict[tuple[str, str], str]) -> dict[str, str]:
    return {key: value for (section, key), value in settings.items() if section == "input"}


def test_a_desktop_window_takes_touches_as_pointer_events_only():
    settings = kivy_settings(size=(1024, 600))
    assert inputs(settings) == {"mouse": "mouse,multitouch_on_demand"}
    assert settings[("graphics", "fullscreen")] == "0"
    assert settings[("graphics", "show_cursor")] == "1"
    assert (settings[("graphics", "width")], settings[("graphics", "height")]) == ("1024", "600")


def test_the_kiosk_fills_the_screen_hides_the_cursor_and_reads_the_touchscreen():
    settings = kivy_settings(kiosk=True)
    assert settings[("graphics", "fullscreen")] == "auto"
    assert settings[("graphics", "borderless")] == "1"
    assert settings[("graphics", "show_cursor")] == "0"
    assert inputs(settings) == {"mouse": MOUSE_ASIDE, "%(name)s": TOUCHSCREEN}


@pytest.mark.parametrize(("kiosk", "touch", "expected"), [
    (True, "mtdev", {"mouse": MOUSE_ASIDE, "%(name)s": "probesysfs,provider=mtdev"}),
    (True, "mouse", {"mouse": "mouse,multitouch_on_demand"}),
    (False, "hidinput", {"mouse": MOUSE_ASIDE, "%(name)s": TOUCHSCREEN}),
])
def test_the_touch_setting_chooses_the_provider(kiosk, touch, expected):
    assert inputs(kivy_settings(kiosk=kiosk, touch=touch)) == expected


def test_rotation_turns_the_window_and_with_it_every_touch():
    assert kivy_settings(kiosk=True, rotation=90)[("graphics", "rotation")] == "90"


CONFIGURE = """
import json, os, sys
from companion.ui.shell.window import configure_kivy
configure_kivy(kiosk=sys.argv[1] == "kiosk", rotation=270)
from kivy.config import Config
print(json.dumps({"input": dict(Config.items("input")),
                  "rotation": Config.get("graphics", "rotation"),
                  "cursor": Config.get("graphics", "show_cursor"),
                  "sdl_touch_mouse": os.environ.get("SDL_TOUCH_MOUSE_EVENTS")}))
"""


def configured(tmp_path, mode: str) -> dict:
    """Kivy's config after configure_kivy, in a fresh process whose Kivy config.ini (as Kivy
    writes it on Linux) also lists a touchscreen provider of its own."""
    home = tmp_path / "kivy"
    home.mkdir(exist_ok=True)
    (home / "config.ini").write_text("[kivy]\n[graphics]\n[input]\nmouse = mouse\n"
                                     "%(name)s = probesysfs\nwacom = probesysfs,match=E3\n")
    env = {**os.environ, "KIVY_HOME": str(home)}
    env.pop("SDL_TOUCH_MOUSE_EVENTS", None)
    done = subprocess.run([sys.executable, "-c", CONFIGURE, mode], capture_output=True,
                          text=True, env=env, timeout=60, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_kivy_keeps_only_our_providers_and_sdl_sends_no_mouse_for_a_touch(tmp_path):
    kiosk = configured(tmp_path, "kiosk")
    assert kiosk == {"input": {"mouse": MOUSE_ASIDE, "%(name)s": TOUCHSCREEN},
                     "rotation": "270", "cursor": "0", "sdl_touch_mouse": "0"}
    desktop = configured(tmp_path, "desktop")
    assert desktop["input"] == {"mouse": "mouse,multitouch_on_demand"}
    assert desktop["sdl_touch_mouse"] is None and desktop["cursor"] == "1"
