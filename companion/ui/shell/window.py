"""Kivy's window and input, set before Kivy is imported: Kivy reads its environment and
configuration when first imported, so `configure_kivy` runs first and this module imports Kivy
only inside its functions."""

from __future__ import annotations

import os
import shutil

from companion.config import WINDOW_SIZES

REFERENCE_SIZE = WINDOW_SIZES[0]  # the official 7" Raspberry Pi display, 800x480


def kivy_settings(*, fullscreen: bool = False, size: tuple[int, int] = REFERENCE_SIZE,
                  kiosk: bool = False, touch: str = "auto",
                  rotation: int = 0) -> dict[tuple[str, str], str]:
    """Kivy's config for the window and the input: (section, key) -> value; the `[input]`
    section holds every input provider (the ones Kivy's own config.ini lists are dropped).

    `kiosk` (no desktop: SDL on KMS/DRM) fills the screen and hides the cursor; there touches
    ("auto" = "hidinput") are read from the kernel's multitouch devices (probesysfs, with the
    hidinput or mtdev provider) and the mouse provider is kept for a real mouse but stands aside
    while a touch is down (disable_on_activity), so one finger is never two touches. "mouse"
    (a desktop: touches arrive as pointer events) uses the mouse provider alone. `rotation`
    turns the picture and every touch with it (Touch Display 2 is portrait-native: 90)."""
    fullscreen = fullscreen or kiosk
    source = ("hidinput" if kiosk else "mouse") if touch == "auto" else touch
    settings = {
        ("kivy", "exit_on_escape"): "0",
        ("kivy", "keyboard_mode"): "system",
        ("graphics", "resizable"): "1",
        ("graphics", "fullscreen"): "auto" if fullscreen else "0",
        ("graphics", "borderless"): "1" if fullscreen else "0",
        ("graphics", "width"): str(size[0]),
        ("graphics", "height"): str(size[1]),
        ("graphics", "rotation"): str(rotation),
        ("graphics", "show_cursor"): "0" if kiosk else "1",
    }
    if source == "mouse":
        # A mouse must not leave red multitouch dots on right-click.
        settings[("input", "mouse")] = "mouse,multitouch_on_demand"
    else:
        settings[("input", "mouse")] = "mouse,multitouch_on_demand,disable_on_activity"
        settings[("input", "%(name)s")] = f"probesysfs,provider={source}"
    return settings


def configure_kivy(*, fullscreen: bool = False, size: tuple[int, int] = REFERENCE_SIZE,
                   kiosk: bool = False, touch: str = "auto", rotation: int = 0) -> None:
    """Set Kivy's environment and config (kivy_settings); call before importing Kivy.

    Full screen is SDL's desktop full screen ('auto'): the window takes the display's size, with
    or without a window manager. In the kiosk SDL is told not to turn touches into mouse events
    (the input devices are read directly)."""
    os.environ["KIVY_NO_ARGS"] = "1"  # our own CLI owns sys.argv
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    if kiosk:
        os.environ.setdefault("SDL_TOUCH_MOUSE_EVENTS", "0")
    # KIVY_HOME is left alone when set (tests point it at a temporary folder).
    from kivy.config import Config

    for option in Config.options("input"):
        Config.remove_option("input", option)
    for (section, key), value in kivy_settings(fullscreen=fullscreen, size=size, kiosk=kiosk,
                                                touch=touch, rotation=rotation).items():
        Config.set(section, key, value)


class AppClipboard:
    """Copy and paste between the app's own text fields. Kivy's text fields use it where the
    system has no clipboard tool Kivy can drive (xclip or xsel: the kiosk on KMS/DRM, Raspberry
    Pi OS Lite); there Kivy would look for an X11 cut buffer at the first text field and log
    CRITICAL errors with tracebacks into the journal."""

    def __init__(self) -> None:
        self._text = ""

    def copy(self, data: str = "") -> None:
        self._text = data

    def paste(self) -> str:
        return self._text


def use_app_clipboard() -> bool:
    """Give Kivy's text fields an AppClipboard where neither xclip nor xsel is installed (call
    after configure_kivy); True when it did."""
    if shutil.which("xclip") or shutil.which("xsel"):
        return False
    from kivy.uix import textinput

    textinput.Clipboard = AppClipboard()  # Kivy's own clipboard search is never started
    return True
