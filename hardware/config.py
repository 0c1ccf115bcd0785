"""Panel settings (the `[panel]` table of the app's TOML config) as plain, validated data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.i18n import _
from hardware.colours import parse_colour
from hardware.events import CONFIRM, NEXT_TURN, READ_DICE, UNDO

PANEL_KINDS = ("gpio", "serial", "none")
LED_KINDS = ("rgb", "players", "none")
PICO_MICROPYTHON_USB = "2e8a:0005"
MIN_BAUDRATE, MAX_BAUDRATE = 50, 4_000_000  # the rates serial ports and USB adapters offer


class SettingError(ValueError):
    """A value in a config table that cannot be used; `key` names it (e.g. panel.gpio.undo) and
    `message` says what is wrong with it."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


class PanelConfigError(SettingError):
    """A value in the `[panel]` table that cannot be used."""


@dataclass(frozen=True)
class GPIOConfig:
    """BCM pin numbers of the buttons (None = not wired) and of the LEDs."""

    next_turn: int | None = 17
    undo: int | None = 27
    confirm: int | None = 22
    read_dice: int | None = 23
    leds: str = "rgb"
    rgb: tuple[int, int, int] = (5, 6, 13)
    common_anode: bool = False
    pwm: bool = True
    players: tuple[tuple[str, int], ...] = (("red", 5), ("yellow", 6), ("green", 13), ("blue", 26))

    def button_pins(self) -> dict[str, int]:
        """The wired buttons: event name -> BCM pin."""
        pins = {NEXT_TURN: self.next_turn, UNDO: self.undo, CONFIRM: self.confirm,
                READ_DICE: self.read_dice}
        return {name: pin for name, pin in pins.items() if pin is not None}


@dataclass(frozen=True)
class SerialConfig:
    """Where the USB-serial panel is: a device path, else the first port with this USB VID:PID."""

    port: str | None = None
    usb: str | None = PICO_MICROPYTHON_USB
    baudrate: int = 115200


@dataclass(frozen=True)
class PanelConfig:
    """Which panel to use and how presses are read (all times in seconds)."""

    kind: str = "none"
    keyboard: bool = True
    hold_time: float = 1.0
    bounce_time: float = 0.05
    gpio: GPIOConfig = field(default_factory=GPIOConfig)
    serial: SerialConfig = field(default_factory=SerialConfig)


_TOP_KEYS = {"kind", "keyboard", "hold_time", "bounce_time", "gpio", "serial"}
_GPIO_KEYS = {"next_turn", "undo", "confirm", "read_dice", "leds", "rgb", "common_anode", "pwm",
              "players"}
_SERIAL_KEYS = {"port", "usb", "baudrate"}


def panel_config_from_toml(table: Mapping[str, Any], prefix: str = "panel") -> PanelConfig:
    """Validate a parsed `[panel]` table; PanelConfigError names the first bad key."""
    _no_unknown_keys(table, _TOP_KEYS, prefix)
    kind = _choice(table, "kind", PANEL_KINDS, PanelConfig.kind, prefix)
    keyboard = _boolean(table, "keyboard", PanelConfig.keyboard, prefix)
    hold_time = _seconds(table, "hold_time", PanelConfig.hold_time, prefix, minimum=0.05)
    bounce_time = _seconds(table, "bounce_time", PanelConfig.bounce_time, prefix, minimum=0.0)
    gpio = _gpio(_table(table, "gpio", prefix), f"{prefix}.gpio")
    serial = _serial(_table(table, "serial", prefix), f"{prefix}.serial")
    return PanelConfig(kind=kind, keyboard=keyboard, hold_time=hold_time,
                       bounce_time=bounce_time, gpio=gpio, serial=serial)


def _gpio(table: Mapping[str, Any], prefix: str) -> GPIOConfig:
    _no_unknown_keys(table, _GPIO_KEYS, prefix)
    defaults = GPIOConfig()
    buttons = {name: _pin_or_false(table, name, getattr(defaults, name), prefix)
               for name in (NEXT_TURN, UNDO, CONFIRM, READ_DICE)}
    if buttons[NEXT_TURN] is None and buttons[UNDO] is None and buttons[CONFIRM] is None \
            and buttons[READ_DICE] is None:
        raise PanelConfigError(f"{prefix}.next_turn", _("no button is wired (all are false)"))
    leds = _choice(table, "leds", LED_KINDS, defaults.leds, prefix)
    rgb = defaults.rgb
    if "rgb" in table:
        value = table["rgb"]
        if not (isinstance(value, list) and len(value) == 3):
            raise PanelConfigError(f"{prefix}.rgb", _("must be three pins [red, green, blue], "
                                                      "got {value}").format(value=repr(value)))
        rgb = tuple(_check_pin(pin, f"{prefix}.rgb") for pin in value)  # type: ignore[assignment]
    players = defaults.players
    if "players" in table:
        value = table["players"]
        if not isinstance(value, Mapping) or not 1 <= len(value) <= 4:
            raise PanelConfigError(f"{prefix}.players", _("must be a table of one to four "
                                                          "colour = pin entries, got {value}")
                                   .format(value=repr(value)))
        for colour in value:
            try:
                parse_colour(colour)
            except ValueError as error:
                raise PanelConfigError(f"{prefix}.players.{colour}", str(error)) from None
        players = tuple((str(colour), _check_pin(pin, f"{prefix}.players.{colour}"))
                        for colour, pin in value.items())
    used: dict[int, str] = {}
    for name, pin in buttons.items():
        if pin is None:
            continue
        if pin in used:
            raise PanelConfigError(f"{prefix}.{name}", _("GPIO{pin} is already given to "
                                                         "{key}").format(pin=pin, key=used[pin]))
        used[pin] = f"{prefix}.{name}"
    led_pins = list(rgb) if leds == "rgb" else [pin for _c, pin in players] if leds == "players" \
        else []
    for pin in led_pins:
        if pin in used:
            key = "rgb" if leds == "rgb" else "players"
            raise PanelConfigError(f"{prefix}.{key}", _("GPIO{pin} is already given to "
                                                        "{key}").format(pin=pin, key=used[pin]))
    return GPIOConfig(**buttons, leds=leds, rgb=rgb,
                      common_anode=_boolean(table, "common_anode", defaults.common_anode, prefix),
                      pwm=_boolean(table, "pwm", defaults.pwm, prefix), players=players)


def _serial(table: Mapping[str, Any], prefix: str) -> SerialConfig:
    _no_unknown_keys(table, _SERIAL_KEYS, prefix)
    defaults = SerialConfig()
    port = _text(table, "port", defaults.port, prefix)
    usb = _text(table, "usb", defaults.usb, prefix)
    if usb is not None:
        try:
            parse_usb_id(usb)
        except ValueError as error:
            raise PanelConfigError(f"{prefix}.usb", str(error)) from None
    baudrate = table.get("baudrate", defaults.baudrate)
    if not isinstance(baudrate, int) or isinstance(baudrate, bool) \
            or not MIN_BAUDRATE <= baudrate <= MAX_BAUDRATE:
        raise PanelConfigError(f"{prefix}.baudrate", _("must be a whole number of baud from "
                                                       "{low} to {high} (the Pico: 115200), "
                                                       "got {value}").format(
                                                           low=MIN_BAUDRATE, high=MAX_BAUDRATE,
                                                           value=repr(baudrate)[:40]))
    if port is None and usb is None:
        raise PanelConfigError(f"{prefix}.port", _("give a port path or a usb VID:PID"))
    return SerialConfig(port=port, usb=usb, baudrate=baudrate)


def parse_usb_id(text: str) -> tuple[int, int]:
    """A "VID:PID" string in hex (e.g. "2e8a:0005") as two numbers; ValueError if malformed."""
    parts = text.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        vid, pid = (int(part, 16) for part in parts)
    except ValueError:
        raise ValueError(_('must be a USB id like "2e8a:0005" (hex VID:PID), got {value}')
                         .format(value=repr(text))) from None
    if not (0 <= vid <= 0xFFFF and 0 <= pid <= 0xFFFF):
        raise ValueError(_("USB VID and PID are 4 hex digits each, got {value}").format(
            value=repr(text)))
    return vid, pid


def _no_unknown_keys(table: Mapping[str, Any], known: set[str], prefix: str) -> None:
    for key in table:
        if key not in known:
            raise PanelConfigError(f"{prefix}.{key}", _("unknown setting (known: {keys})")
                                   .format(keys=", ".join(sorted(known))))


def _table(table: Mapping[str, Any], key: str, prefix: str) -> Mapping[str, Any]:
    value = table.get(key, {})
    if not isinstance(value, Mapping):
        raise PanelConfigError(f"{prefix}.{key}", _("must be a table, got {value}").format(
            value=repr(value)))
    return value


def _choice(table: Mapping[str, Any], key: str, choices: tuple[str, ...], default: str,
            prefix: str) -> str:
    value = table.get(key, default)
    if value not in choices:
        options = " | ".join(f'"{choice}"' for choice in choices)
        raise PanelConfigError(f"{prefix}.{key}", _("must be {choices}, got {value}").format(
            choices=options, value=repr(value)))
    return value


def _boolean(table: Mapping[str, Any], key: str, default: bool, prefix: str) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise PanelConfigError(f"{prefix}.{key}", _("must be true or false, got {value}").format(
            value=repr(value)))
    return value


def _seconds(table: Mapping[str, Any], key: str, default: float, prefix: str,
             minimum: float) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= minimum \
            or value > 60:
        raise PanelConfigError(f"{prefix}.{key}", _("must be a number of seconds from "
                                                    "{minimum} to 60, got {value}").format(
                                                        minimum=minimum, value=repr(value)))
    return float(value)


def _text(table: Mapping[str, Any], key: str, default: str | None, prefix: str) -> str | None:
    value = table.get(key, default)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise PanelConfigError(f"{prefix}.{key}", _("must be a string, got {value}").format(
            value=repr(value)))
    return value


def _check_pin(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 27:
        raise PanelConfigError(key, _("must be a BCM GPIO number from 0 to 27, got {value}")
                               .format(value=repr(value)))
    return value


def _pin_or_false(table: Mapping[str, Any], key: str, default: int | None,
                  prefix: str) -> int | None:
    value = table.get(key, default)
    if value is False or value is None:
        return None
    return _check_pin(value, f"{prefix}.{key}")
