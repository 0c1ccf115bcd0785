"""The USB-serial panel's line protocol (see docs/panel.md): parsing device lines, host commands.

Lines are ASCII, one message each, ending in "\\n" ("\\r\\n" accepted).
Device to host: `HELLO <version>` (after power-up and in answer to HELLO), `BTN <name>`.
Host to device: `HELLO`, `LED <colour>`, `BLINK <colour>`, `OFF`, `PATTERN END`, `HOLD <seconds>`.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.colours import ColourLike, colour_name
from hardware.events import BUTTON_EVENTS

PROTOCOL_VERSION = "1"
MAX_LINE = 128


class ProtocolError(ValueError):
    """A line from the device that is not part of the protocol (logged and ignored)."""


@dataclass(frozen=True)
class Hello:
    """The device's handshake: it speaks protocol `version`."""

    version: str

    @property
    def compatible(self) -> bool:
        """True if the major version is the one this host speaks."""
        return self.version.split(".")[0] == PROTOCOL_VERSION


@dataclass(frozen=True)
class ButtonPress:
    """The device saw a press of the button named `name` (already debounced, long press done)."""

    name: str


DeviceMessage = Hello | ButtonPress


def parse_device_line(line: str) -> DeviceMessage:
    """Read one line from the device; ProtocolError if it is garbled or names an unknown button."""
    text = line.strip()
    if len(text) > MAX_LINE:
        raise ProtocolError(f"line longer than {MAX_LINE} characters")
    if not text.isascii() or not text.isprintable():
        raise ProtocolError(f"not printable ASCII: {text[:40]!r}")
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    if word == "BTN":
        name = rest.lower()
        if name not in BUTTON_EVENTS:
            raise ProtocolError(f"unknown button {rest!r} (known: {', '.join(BUTTON_EVENTS)})")
        return ButtonPress(name)
    if word == "HELLO":
        if not rest or " " in rest:
            raise ProtocolError(f"HELLO needs one protocol version, got {rest!r}")
        return Hello(rest)
    raise ProtocolError(f"unknown message {text[:40]!r}")


def hello_command() -> str:
    """Ask the device to introduce itself."""
    return "HELLO"


def led_command(colour: ColourLike) -> str:
    """Light the device's LED steadily in `colour` (a name or #rrggbb)."""
    return f"LED {colour_name(colour)}"


def blink_command(colour: ColourLike) -> str:
    """Blink the device's LED in `colour`."""
    return f"BLINK {colour_name(colour)}"


def off_command() -> str:
    """Turn the device's LED off."""
    return "OFF"


def game_end_command() -> str:
    """Run the device's game-end light pattern."""
    return "PATTERN END"


def hold_command(seconds: float) -> str:
    """Set the device's long-press time (a long press of next_turn sends BTN undo)."""
    return f"HOLD {seconds:g}"


class LineSplitter:
    """Cuts a byte stream into text lines; over-long lines are cut off and reported as garbage."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self._buffer = bytearray()
        self._max = max_line

    def feed(self, data: bytes) -> list[str]:
        """Add bytes read from the port; returns every complete line (without the newline)."""
        self._buffer += data
        lines: list[str] = []
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                break
            raw = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            lines.append(raw.decode("ascii", errors="replace").rstrip("\r"))
        if len(self._buffer) > self._max:
            lines.append(self._buffer.decode("ascii", errors="replace") + "\ufffd(cut)")
            self._buffer.clear()
        return lines

    def reset(self) -> None:
        """Forget a partial line (after a reconnection)."""
        self._buffer.clear()
