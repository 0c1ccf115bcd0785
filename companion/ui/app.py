"""Start the touchscreen app: set up Kivy (before it is imported), load the catalogue, run.

Kivy reads its environment and configuration when first imported, so this module imports it only
inside functions, after `configure_kivy` has run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

REFERENCE_SIZE = (800, 480)  # the official 7" Raspberry Pi display
EXAMPLE_POSITION = Path(__file__).resolve().parent.parent / "data" / "examples" / "rulebook-3p.json"


def configure_kivy(*, fullscreen: bool = False, size: tuple[int, int] = REFERENCE_SIZE) -> None:
    """Set Kivy's environment and config for a touchscreen kiosk; call before importing Kivy."""
    os.environ["KIVY_NO_ARGS"] = "1"  # our own CLI owns sys.argv
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    # KIVY_HOME is left alone when set (tests point it at a temporary folder).
    from kivy.config import Config

    Config.set("kivy", "exit_on_escape", "0")
    Config.set("kivy", "keyboard_mode", "system")
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    if not fullscreen:
        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))
    # A mouse must not leave red multitouch dots on right-click; touch screens are unaffected.
    Config.set("input", "mouse", "mouse,multitouch_on_demand")


def build_app(*, demo: bool = False, overlay: Path | None = None,
              config: Path | None = None) -> Any:
    """The Kivy App object, ready to `run()` (Kivy must already be configured)."""
    from companion.ui.calculator import CompanionApp

    return CompanionApp(demo=demo, overlay=overlay, config=config)


def run_app(*, fullscreen: bool = False, demo: bool = False, overlay: Path | None = None,
            config: Path | None = None) -> None:
    """Run the touchscreen app until its window closes (the CLI's default command)."""
    configure_kivy(fullscreen=fullscreen)
    build_app(demo=demo, overlay=overlay, config=config).run()
