"""Open the configured panel; never raises: a panel that cannot start becomes touch only."""

from __future__ import annotations

import logging

from companion.i18n import _
from hardware.config import PanelConfig
from hardware.events import EventHandler
from hardware.gpio_panel import GPIOPanel, PanelUnavailable
from hardware.panel import Panel, TouchOnlyPanel
from hardware.serial_panel import SerialPanel

log = logging.getLogger(__name__)


def open_panel(config: PanelConfig, *, pin_factory: object | None = None,
               when_event: EventHandler | None = None) -> Panel:
    """The panel `config.kind` asks for; if it cannot start, a TouchOnlyPanel whose `problem`
    says why (a serial panel that is not plugged in yet keeps looking for it instead)."""
    if config.kind == "gpio":
        try:
            return GPIOPanel(config.gpio, hold_time=config.hold_time,
                             bounce_time=config.bounce_time, pin_factory=pin_factory,
                             when_event=when_event)
        except PanelUnavailable as error:
            return TouchOnlyPanel(problem=str(error))
        except Exception as error:  # an unexpected pin-library failure must not stop the app
            log.exception("GPIO panel failed to start")
            return TouchOnlyPanel(problem=_("GPIO panel unavailable ({error}). Going on with "
                                            "touch only.").format(error=error))
    if config.kind == "serial":
        return SerialPanel(config.serial, hold_time=config.hold_time, when_event=when_event)
    return TouchOnlyPanel()
