"""Start the touchscreen app: read the config file, configure Kivy's window and input from it,
and only then import Kivy and the app (Kivy reads its configuration when first imported)."""

from __future__ import annotations

from pathlib import Path

from companion.config import LoggingConfig, load_config
from companion.logs import setup_logging
from companion.ui.shell.window import configure_kivy


def run_app(*, fullscreen: bool = False, size: tuple[int, int] | None = None,
            kiosk: bool = False, demo: bool = False, start: str | None = None,
            db: Path | None = None, overlay: Path | None = None,
            config: Path | None = None) -> None:
    """Run the touchscreen app until its window closes (the CLI's default command); the
    config file's [display] opens the window unless --fullscreen / --size say otherwise, and
    its [logging] level goes to stderr (the journal under systemd)."""
    setup_logging(LoggingConfig.level)  # the config file's own problems are logged so too
    settings = load_config(config)
    setup_logging(settings.logging.level)
    display = settings.display
    fullscreen, size = display.window(fullscreen, size)
    configure_kivy(fullscreen=fullscreen, size=size, kiosk=kiosk, touch=display.touch,
                   rotation=display.rotation)
    from companion.ui.shell.app import CompanionApp

    CompanionApp(demo=demo, start=start, db=db, overlay=overlay, config=config,
              settings=settings).run()
