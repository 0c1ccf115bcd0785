"""Panel lights: show the active player's colour, blink while waiting on a player, end pattern."""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from gpiozero import RGBLED, LEDBoard

from hardware.colours import OFF, RAINBOW, ColourLike, binary_colour, colour_name, parse_colour

log = logging.getLogger(__name__)

BLINK_ON = 0.4
BLINK_OFF = 0.4
PATTERN_STEP = 0.15


@dataclass(frozen=True)
class LightState:
    """What the lights were last told: mode "off" | "show" | "blink" | "game_end", and colour."""

    mode: str = "off"
    colour: str | None = None


class Lights:
    """Lights that show nothing (no LEDs wired); the base of every kind of panel lights."""

    def __init__(self) -> None:
        self.state = LightState()
        self._lock = threading.RLock()

    def show(self, colour: ColourLike) -> None:
        """Light the active player's colour steadily."""
        self._set(LightState("show", colour_name(colour)) if parse_colour(colour) != OFF
                  else LightState())

    def blink(self, colour: ColourLike) -> None:
        """Blink a player's colour: the app is waiting on that player (e.g. a diplomacy choice)."""
        self._set(LightState("blink", colour_name(colour)) if parse_colour(colour) != OFF
                  else LightState())

    def game_end(self) -> None:
        """Run the game-end pattern (the end of the game has been triggered)."""
        self._set(LightState("game_end"))

    def off(self) -> None:
        """Turn every light off."""
        self._set(LightState())

    def close(self) -> None:
        """Turn off and release the LEDs."""

    def _set(self, state: LightState) -> None:
        with self._lock:
            self.state = state
            self._apply()

    def _apply(self) -> None:
        """Make the LEDs match `self.state` (nothing to do without LEDs)."""


class RGBLights(Lights):
    """One RGB LED (three BCM pins) that takes the active player's colour."""

    def __init__(self, pins: Sequence[int], *, common_anode: bool = False, pwm: bool = True,
                 pin_factory: object | None = None) -> None:
        super().__init__()
        red, green, blue = pins
        self._pwm = pwm
        self.led = RGBLED(red, green, blue, active_high=not common_anode, pwm=pwm,
                          pin_factory=pin_factory)

    def _colour(self, name: str) -> tuple[float, float, float]:
        return parse_colour(name) if self._pwm else binary_colour(name)

    def _apply(self) -> None:
        led = self.led
        led.source = None
        state = self.state
        if state.mode == "show" and state.colour:
            led.color = self._colour(state.colour)
        elif state.mode == "blink" and state.colour:
            led.blink(on_time=BLINK_ON, off_time=BLINK_OFF, on_color=self._colour(state.colour),
                      off_color=OFF)
        elif state.mode == "game_end":
            led.off()
            led.source_delay = PATTERN_STEP * 2
            led.source = itertools.cycle([self._colour(colour_name(c)) for c in RAINBOW])
        else:
            led.off()

    def close(self) -> None:
        """Turn off and release the three pins."""
        if not self.led.closed:
            self.led.source = None
            self.led.close()


class PlayerLights(Lights):
    """Up to four single-colour LEDs, one per player colour; the active player's LED lights."""

    def __init__(self, players: Sequence[tuple[str, int]], *, pin_factory: object | None = None,
                 ) -> None:
        super().__init__()
        self.colours = [parse_colour(colour) for colour, _ in players]
        self.board = LEDBoard(*(pin for _, pin in players), pin_factory=pin_factory)

    def _index(self, name: str) -> int | None:
        colour = parse_colour(name)
        if colour in self.colours:
            return self.colours.index(colour)
        log.warning("no player LED is wired for colour %s; lights off", name)
        return None

    def _apply(self) -> None:
        board = self.board
        board.source = None
        board.off()
        state = self.state
        index = self._index(state.colour) if state.colour else None
        if state.mode == "show" and index is not None:
            board[index].on()
        elif state.mode == "blink" and index is not None:
            board[index].blink(on_time=BLINK_ON, off_time=BLINK_OFF)
        elif state.mode == "game_end":
            board.source_delay = PATTERN_STEP
            board.source = _chase(len(board))

    def close(self) -> None:
        """Turn off and release the LED pins."""
        if not self.board.closed:
            self.board.source = None
            self.board.close()


def _chase(count: int) -> Iterator[tuple[int, ...]]:
    """One LED after the other, back and forth (the game-end pattern on player LEDs)."""
    steps = list(range(count)) + list(range(count - 2, 0, -1))
    for index in itertools.cycle(steps or [0]):
        yield tuple(int(i == index) for i in range(count))
