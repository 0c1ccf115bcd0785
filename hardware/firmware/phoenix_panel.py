"""Phoenix panel firmware logic (MicroPython on a Raspberry Pi Pico; also runs on CPython for
the tests): debounced buttons with a long press, and the line protocol of docs/panel.md.

No hardware access here: main.py reads the pins and drives the LED with what this computes.
"""

try:
    from time import ticks_diff  # MicroPython: millisecond ticks wrap around
except ImportError:  # CPython (tests)

    def ticks_diff(new: int, old: int) -> int:
        """Milliseconds from `old` to `new` (plain ints off the Pico)."""
        return new - old


PROTOCOL_VERSION = "1"
BUTTON_NAMES = ("next_turn", "undo", "confirm", "read_dice")
BOUNCE_MS = 30
DEFAULT_HOLD_MS = 1000
BLINK_MS = 400
PATTERN_MS = 300
MAX_LINE = 128

# The same names and values as hardware/colours.py on the host (a test keeps them equal).
COLOURS = {
    "red": (1.0, 0.0, 0.0),
    "green": (0.0, 1.0, 0.0),
    "blue": (0.0, 0.0, 1.0),
    "yellow": (1.0, 0.6, 0.0),
    "orange": (1.0, 0.25, 0.0),
    "purple": (0.5, 0.0, 1.0),
    "pink": (1.0, 0.2, 0.4),
    "cyan": (0.0, 1.0, 1.0),
    "teal": (0.0, 0.6, 0.5),
    "magenta": (1.0, 0.0, 1.0),
    "white": (1.0, 1.0, 1.0),
    "black": (0.0, 0.0, 0.0),
    "off": (0.0, 0.0, 0.0),
}
OFF = (0.0, 0.0, 0.0)
RAINBOW = ("red", "orange", "yellow", "green", "cyan", "blue", "purple")


def parse_colour(text: str) -> tuple:
    """(r, g, b) from a colour name or #rrggbb; None if it is neither."""
    text = text.strip().lower()
    if text in COLOURS:
        return COLOURS[text]
    if len(text) == 7 and text[0] == "#":
        try:
            return tuple(int(text[i : i + 2], 16) / 255 for i in (1, 3, 5))
        except ValueError:
            return None
    return None


class PanelButton:
    """One debounced button: `update(pressed, now)` returns the event names to send (a button
    with `held_name` sends it after `hold_ms`, else its own name on release)."""

    def __init__(self, name: str, held_name=None) -> None:
        self.name = name
        self.held_name = held_name
        self.pressed = False
        self.changed_at = 0
        self.held = False

    def update(self, pressed: bool, now: int, hold_ms: int) -> list:
        """Feed the pin's level (True = pressed) at time `now` (ms); events that happened."""
        events = []
        if pressed != self.pressed and ticks_diff(now, self.changed_at) >= BOUNCE_MS:
            self.pressed = pressed
            self.changed_at = now
            if pressed:
                self.held = False
                if self.held_name is None:
                    events.append(self.name)
            elif self.held_name is not None and not self.held:
                events.append(self.name)
        if (self.pressed and self.held_name is not None and not self.held
                and ticks_diff(now, self.changed_at) >= hold_ms):
            self.held = True
            events.append(self.held_name)
        return events


class PanelFirmware:
    """The whole panel: four buttons (long press of next_turn = undo), one RGB LED, protocol."""

    def __init__(self) -> None:
        self.buttons = [PanelButton("next_turn", held_name="undo"), PanelButton("undo"),
                        PanelButton("confirm"), PanelButton("read_dice")]
        self.hold_ms = DEFAULT_HOLD_MS
        self.mode = "off"
        self.colour = OFF
        self.mode_since = 0
        self.now = 0

    def hello(self) -> str:
        """The handshake line, sent at power-up and in answer to HELLO."""
        return "HELLO " + PROTOCOL_VERSION

    def handle_line(self, line: str) -> list:
        """Obey one command line from the host; the lines to send back (unknown: ignored)."""
        word, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        if word == "HELLO":
            return [self.hello()]
        if word == "OFF":
            self._set("off", OFF)
        elif word in ("LED", "BLINK"):
            colour = parse_colour(rest)
            if colour is not None:
                self._set("show" if word == "LED" else "blink", colour)
        elif word == "PATTERN" and rest == "END":
            self._set("game_end", OFF)
        elif word == "HOLD":
            try:
                seconds = float(rest)
            except ValueError:
                return []
            if 0.05 <= seconds <= 60:
                self.hold_ms = int(seconds * 1000)
        return []

    def poll(self, levels: dict, now: int) -> list:
        """Feed every button's level (name -> pressed) at `now` ms; the BTN lines to send."""
        self.now = now
        lines = []
        for button in self.buttons:
            if button.name in levels:
                for name in button.update(levels[button.name], now, self.hold_ms):
                    lines.append("BTN " + name)
        return lines

    def led(self, now: int) -> tuple:
        """The (r, g, b) the LED should show at `now` ms (0..1 each)."""
        elapsed = ticks_diff(now, self.mode_since)
        if self.mode == "show":
            return self.colour
        if self.mode == "blink":
            return self.colour if (elapsed // BLINK_MS) % 2 == 0 else OFF
        if self.mode == "game_end":
            return COLOURS[RAINBOW[(elapsed // PATTERN_MS) % len(RAINBOW)]]
        return OFF

    def _set(self, mode: str, colour: tuple) -> None:
        self.mode = mode
        self.colour = colour
        self.mode_since = self.now
