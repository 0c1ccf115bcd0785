"""The GPIO panel: push buttons and player LEDs wired straight to the Pi's header (gpiozero)."""

from __future__ import annotations

import logging

from companion.i18n import _
from hardware.buttons import PanelButton
from hardware.config import GPIOConfig
from hardware.events import NEXT_TURN, UNDO, EventHandler
from hardware.lights import Lights, PlayerLights, RGBLights
from hardware.panel import Panel

log = logging.getLogger(__name__)


class PanelUnavailable(RuntimeError):
    """A panel could not start (no GPIO, a pin in use, no such port); the message says why."""


class GPIOPanel(Panel):
    """Buttons (pull-up, debounced, long press of next_turn = undo) and LEDs on BCM pins.

    Raises PanelUnavailable if a button cannot be set up. LEDs that cannot be set up leave the
    buttons working, with `problem` saying what is wrong with the LEDs.
    """

    kind = "gpio"

    def __init__(self, config: GPIOConfig | None = None, *, hold_time: float = 1.0,
                 bounce_time: float = 0.05, pin_factory: object | None = None,
                 when_event: EventHandler | None = None) -> None:
        config = config or GPIOConfig()
        self.config = config
        self.buttons: dict[str, PanelButton] = {}
        pins = config.button_pins()
        super().__init__(description="GPIO panel (buttons on " + ", ".join(
            f"{name} GPIO{pin}" for name, pin in pins.items()) + ")", when_event=when_event)
        for name, pin in pins.items():
            try:
                self.buttons[name] = PanelButton(
                    pin, name=name, on_event=self._emit, pin_factory=pin_factory,
                    held_name=UNDO if name == NEXT_TURN else None,
                    hold_time=hold_time, bounce_time=bounce_time)
            except Exception as error:
                self._close_buttons()
                raise PanelUnavailable(_(
                    "GPIO panel unavailable: the {button} button on GPIO{pin} cannot be used "
                    "({reason}). Going on with touch only.").format(
                        button=name, pin=pin, reason=_reason(error))) from error
        lights_problem = None
        try:
            self.lights = _make_lights(config, pin_factory)
        except Exception as error:
            lights_problem = _("GPIO panel LEDs unavailable ({reason}); the buttons "
                               "work.").format(reason=_reason(error))
        self._set_ready(self.description)
        if lights_problem:
            self._problem = lights_problem
            log.warning("%s", lights_problem)

    def close(self) -> None:
        """Release every pin."""
        super().close()
        self._close_buttons()

    def _close_buttons(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()


def _make_lights(config: GPIOConfig, pin_factory: object | None) -> Lights:
    if config.leds == "rgb":
        return RGBLights(config.rgb, common_anode=config.common_anode, pwm=config.pwm,
                         pin_factory=pin_factory)
    if config.leds == "players":
        return PlayerLights(config.players, pin_factory=pin_factory)
    return Lights()


def _reason(error: BaseException) -> str:
    """A one-line reason from a gpiozero / lgpio error, with a hint for the usual causes."""
    name = type(error).__name__
    text = str(error) or name
    if name == "GPIOPinInUse" or "busy" in text.lower():
        return _("{error}; is another program or device using that pin?").format(error=text)
    if name in ("BadPinFactory", "PinFactoryFallback") or "pin factory" in text.lower():
        return _("no GPIO on this machine: {error}").format(error=text)
    return text
