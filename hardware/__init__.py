"""Input panels (GPIO, USB serial, keyboard) that report button names and show LED colours.

Knows nothing of the game: panels report `PanelEvent`s named next_turn, undo, confirm and
read_dice (plus panel_problem / panel_ready status) and take LED colours. See docs/panel.md.
"""

from hardware.config import GPIOConfig, PanelConfig, PanelConfigError, SerialConfig
from hardware.events import (
    BUTTON_EVENTS,
    CONFIRM,
    NEXT_TURN,
    PANEL_PROBLEM,
    PANEL_READY,
    READ_DICE,
    UNDO,
    PanelEvent,
)
from hardware.factory import open_panel
from hardware.gpio_panel import GPIOPanel, PanelUnavailable
from hardware.keyboard import KeyboardPanel
from hardware.lights import Lights, LightState
from hardware.panel import Panel, TouchOnlyPanel
from hardware.serial_panel import SerialPanel

__all__ = [
    "BUTTON_EVENTS",
    "CONFIRM",
    "NEXT_TURN",
    "PANEL_PROBLEM",
    "PANEL_READY",
    "READ_DICE",
    "UNDO",
    "GPIOConfig",
    "GPIOPanel",
    "KeyboardPanel",
    "LightState",
    "Lights",
    "Panel",
    "PanelConfig",
    "PanelConfigError",
    "PanelEvent",
    "PanelUnavailable",
    "SerialConfig",
    "SerialPanel",
    "TouchOnlyPanel",
    "open_panel",
]
